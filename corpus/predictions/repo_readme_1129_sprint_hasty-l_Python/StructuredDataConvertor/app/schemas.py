"""Pydantic request / response models."""
from typing import List, Optional

from pydantic import BaseModel, Field


class ConversionOptions(BaseModel):
    encoding: str = "utf-8"
    delimiter: str = ","
    has_header: bool = True
    sheet_name: str = "Sheet1"


class ConversionRequest(BaseModel):
    source_format: str
    target_format: str
    data: str
    options: Optional[ConversionOptions] = None


class ConversionMetadata(BaseModel):
    source_size: int = 0
    target_size: int = 0
    conversion_time: float = 0.0
    rows_count: int = 0
    columns_count: int = 0


class ConversionResponse(BaseModel):
    success: bool
    message: str
    result: Optional[str] = None
    metadata: Optional[ConversionMetadata] = None


class BatchConversionRequest(BaseModel):
    conversions: List[ConversionRequest] = Field(default_factory=list)
    parallel: bool = False


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
