from typing import List, Optional, Dict, Any
from pydantic import BaseModel


class ConversionOptions(BaseModel):
    encoding: Optional[str] = "utf-8"
    delimiter: Optional[str] = ","
    has_header: Optional[bool] = True
    sheet_name: Optional[str] = "Sheet1"


class ConversionRequest(BaseModel):
    source_format: str
    target_format: str
    data: str
    options: Optional[ConversionOptions] = None


class Metadata(BaseModel):
    source_size: int = 0
    target_size: int = 0
    conversion_time: float = 0.0
    rows_count: int = 0
    columns_count: int = 0


class ConversionResponse(BaseModel):
    success: bool
    message: str
    result: Optional[str] = None
    metadata: Optional[Metadata] = None


class BatchConversionRequest(BaseModel):
    conversions: List[ConversionRequest]
    parallel: Optional[bool] = False


class BatchSummary(BaseModel):
    total_count: int
    success_count: int
    failure_count: int
    total_time: float


class BatchConversionResponse(BaseModel):
    success: bool
    message: str
    results: List[ConversionResponse]
    summary: BatchSummary


class HealthResponse(BaseModel):
    status: str
    timestamp: str
    version: str
