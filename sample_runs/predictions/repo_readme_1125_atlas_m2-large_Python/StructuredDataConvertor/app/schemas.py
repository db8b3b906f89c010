"""Request / response models."""
from typing import Any, Dict, List, Optional

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr


class ConversionOptions(BaseModel):
    """Optional conversion settings; unknown keys are ignored."""

    model_config = ConfigDict(extra="ignore")

    encoding: StrictStr = Field("utf-8", description="Text encoding used for CSV input/output")
    delimiter: StrictStr = Field(",", description="CSV delimiter (one character)")
    has_header: StrictBool = Field(True, description="Whether the first row is a header")
    sheet_name: Optional[StrictStr] = Field(
        None, description="Excel sheet to read/write (default 'Sheet1')"
    )


class ConvertRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    source_format: StrictStr = Field(..., description="excel | csv | pdf")
    target_format: StrictStr = Field(..., description="excel | csv | pdf")
    data: StrictStr = Field(..., description="Base64 encoded source file content")
    options: Optional[ConversionOptions] = None


class ConversionMetadata(BaseModel):
    source_size: int
    target_size: int
    conversion_time: float
    rows_count: int
    columns_count: int


class ConvertResponse(BaseModel):
    success: bool
    message: str
    result: Optional[str] = None
    metadata: Optional[ConversionMetadata] = None


class BatchConvertRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    # Items are validated one by one so that a malformed task fails on its own
    # instead of rejecting the whole batch.
    conversions: List[Dict[str, Any]]
    parallel: StrictBool = False


class BatchSummary(BaseModel):
    total_count: int
    success_count: int
    failure_count: int
    total_time: float


class BatchConvertResponse(BaseModel):
    success: bool
    message: str
    results: List[ConvertResponse]
    summary: BatchSummary


class HealthResponse(BaseModel):
    status: str
    timestamp: str
    version: str
