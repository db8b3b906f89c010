"""Request and response models for the StructuredDataConvertor API."""

from typing import List, Optional

from pydantic import BaseModel, Field


class HealthResponse(BaseModel):
    """Response body of ``GET /health``."""

    status: str = Field(..., description='Service status: "healthy" | "unhealthy"')
    timestamp: str = Field(..., description="ISO formatted timestamp")
    version: str = Field(..., description="Service version number")


class ConversionOptions(BaseModel):
    """Optional conversion settings; every field has a default."""

    encoding: str = Field("utf-8", description="File encoding")
    delimiter: str = Field(",", description="CSV delimiter")
    has_header: bool = Field(True, description="Whether the data includes a header row")
    sheet_name: str = Field("Sheet1", description="Excel sheet name")


class ConversionRequest(BaseModel):
    """Request body of ``POST /convert`` and one item of a batch request."""

    source_format: str = Field(..., description='Source format: "excel" | "csv" | "pdf"')
    target_format: str = Field(..., description='Target format: "excel" | "csv" | "pdf"')
    data: str = Field(..., description="Base64 encoded source file content")
    options: ConversionOptions = Field(
        default_factory=ConversionOptions, description="Conversion options"
    )


class ConversionMetadata(BaseModel):
    """Information about a performed conversion."""

    source_size: int = Field(0, description="Source file size (bytes)")
    target_size: int = Field(0, description="Target file size (bytes)")
    conversion_time: float = Field(0.0, description="Conversion time (seconds)")
    rows_count: int = Field(0, description="Number of data rows")
    columns_count: int = Field(0, description="Number of data columns")


class ConversionResponse(BaseModel):
    """Response body of ``POST /convert`` and one item of a batch response."""

    success: bool
    message: str
    result: Optional[str] = Field(None, description="Base64 encoded target file content")
    metadata: Optional[ConversionMetadata] = None


class BatchConversionRequest(BaseModel):
    """Request body of ``POST /convert/batch``."""

    conversions: List[ConversionRequest] = Field(..., description="List of conversion tasks")
    parallel: bool = Field(False, description="Whether to process tasks in parallel")


class BatchSummary(BaseModel):
    """Summary of a batch conversion."""

    total_count: int
    success_count: int
    failure_count: int
    total_time: float


class BatchConversionResponse(BaseModel):
    """Response body of ``POST /convert/batch``."""

    success: bool
    message: str
    results: List[ConversionResponse] = Field(default_factory=list)
    summary: BatchSummary
