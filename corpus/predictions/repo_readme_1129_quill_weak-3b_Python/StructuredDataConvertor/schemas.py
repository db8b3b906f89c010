from typing import List, Optional
from pydantic import BaseModel


class ConvertOptions(BaseModel):
    encoding: str = "utf-8"
    delimiter: str = ","
    has_header: bool = True
    sheet_name: str = "Sheet1"


class ConvertRequest(BaseModel):
    source_format: str
    target_format: str
    data: str
    options: Optional[ConvertOptions] = None


class Metadata(BaseModel):
    source_size: int = 0
    target_size: int = 0
    conversion_time: float = 0.0
    rows_count: int = 0
    columns_count: int = 0


class ConvertResponse(BaseModel):
    success: bool
    message: str
    result: Optional[str] = None
    metadata: Optional[Metadata] = None


class BatchRequest(BaseModel):
    conversions: List[ConvertRequest]
    parallel: bool = False


class Summary(BaseModel):
    total_count: int
    success_count: int
    failure_count: int
    total_time: float


class BatchResponse(BaseModel):
    success: bool
    message: str
    results: List[ConvertResponse]
    summary: Summary


class HealthResponse(BaseModel):
    status: str
    timestamp: str
    version: str
