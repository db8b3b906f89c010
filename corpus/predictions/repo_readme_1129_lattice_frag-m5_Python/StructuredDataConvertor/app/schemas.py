"""Request and response models for the StructuredDataConvertor API."""

from typing import List, Optional

from pydantic import BaseModel, Field


class ConversionOptions(BaseModel):
    """Optional conversion settings; every field has a default."""

    encoding: str = Field(default="utf-8", description="File encoding")
    delimiter: str = Field(default=",", description="CSV delimiter")
    has_header: bool = Field(default=True, description="Whether the data has a header row")
    sheet_name: str = Field(default="Sheet1", description="Excel sheet name")


class ConversionRequest(BaseModel):
    """A single conversion task."""

    source_format: str = Field(..., description='Source format: "excel" | "csv" | "pdf"')
    target_format: str = Field(..., description='Target format: "excel" | "csv" | "pdf"')
    data: str = Field(..., description="Base64 encoded source file content")
    options: Optional[ConversionOptions] = Field(
        default_factory=ConversionOptions, description="Conversion options"
    )


class BatchConversionRequest(BaseModel):
    """A list of conversion tasks processed sequentially or in parallel."""

    conversions: List[ConversionRequest] = Field(..., description="List of conversion tasks")
    parallel: bool = Field(default=False, description="Whether to process in parallel")


class ConversionMetadata(BaseModel):
    """Information about a completed conversion."""

    source_size: int = Field(default=0, description="Source file size (bytes)")
    target_size: int = Field(default=0, description="Target file size (bytes)")
    conversion_time: float = Field(default=0.0, description="Conversion time (seconds)")
    rows_count: int = Field(default=0, description="Number of data rows")
    columns_count: int = Field(default=0, description="Number of data columns")


class ConversionResponse(BaseModel):
    """Result of a single conversion."""

    success: bool
    message: str
    result: Optional[str] = Field(default=None, description="Base64 encoded target file content")
    metadata: Optional[ConversionMetadata] = None


class BatchSummary(BaseModel):
    """Summary of a batch conversion."""

    total_count: int = 0
    success_count: int = 0
    failure_count: int = 0
    total_time: float = 0.0


class BatchConversionResponse(BaseModel):
    """Result of a batch conversion; results match the input order."""

    success: bool
    message: str
    results: List[ConversionResponse] = Field(default_factory=list)
    summary: BatchSummary = Field(default_factory=BatchSummary)


class HealthResponse(BaseModel):
    """Service health information."""

    status: str = Field(..., description='"healthy" | "unhealthy"')
    timestamp: str = Field(..., description="ISO formatted timestamp")
    version: str = Field(..., description="Service version number")
