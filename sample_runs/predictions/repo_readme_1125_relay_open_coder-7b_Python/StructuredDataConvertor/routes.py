import base64
import binascii
import time
from datetime import datetime
from concurrent.futures import ThreadPoolExecutor

from fastapi import APIRouter, HTTPException

from models import (
    ConversionRequest,
    ConversionResponse,
    BatchConversionRequest,
    BatchConversionResponse,
    HealthResponse,
    ConversionOptions,
    Metadata,
)
from converter import convert_data, SUPPORTED_FORMATS

router = APIRouter()

VERSION = "1.0.0"


@router.get("/health", response_model=HealthResponse)
def health():
    return HealthResponse(
        status="healthy",
        timestamp=datetime.utcnow().isoformat(),
        version=VERSION,
    )


def do_conversion(req: ConversionRequest) -> ConversionResponse:
    start = time.time()
    source_format = req.source_format.lower()
    target_format = req.target_format.lower()

    if source_format not in SUPPORTED_FORMATS or target_format not in SUPPORTED_FORMATS:
        return ConversionResponse(success=False, message="Unsupported format")

    if not req.data:
        return ConversionResponse(success=False, message="Data is empty")

    try:
        raw = base64.b64decode(req.data, validate=True)
    except (binascii.Error, ValueError):
        return ConversionResponse(success=False, message="Invalid base64 data")

    options = req.options or ConversionOptions()

    try:
        result_bytes, rows, cols = convert_data(raw, source_format, target_format, options)
    except Exception as e:
        return ConversionResponse(success=False, message="Conversion failed: " + str(e))

    elapsed = time.time() - start
    return ConversionResponse(
        success=True,
        message="Conversion successful",
        result=base64.b64encode(result_bytes).decode("utf-8"),
        metadata=Metadata(
            source_size=len(raw),
            target_size=len(result_bytes),
            conversion_time=elapsed,
            rows_count=rows,
            columns_count=cols,
        ),
    )


@router.post("/convert", response_model=ConversionResponse)
def convert(req: ConversionRequest):
    resp = do_conversion(req)
    if not resp.success:
        raise HTTPException(status_code=400, detail=resp.message)
    return resp


@router.post("/convert/batch", response_model=BatchConversionResponse)
def convert_batch(req: BatchConversionRequest):
    start = time.time()
    if not req.conversions:
        raise HTTPException(status_code=400, detail="No conversions provided")

    if req.parallel:
        with ThreadPoolExecutor(max_workers=4) as executor:
            results = list(executor.map(do_conversion, req.conversions))
    else:
        results = [do_conversion(c) for c in req.conversions]

    success_count = sum(1 for r in results if r.success)
    failure_count = len(results) - success_count
    total_time = time.time() - start

    return BatchConversionResponse(
        success=failure_count == 0,
        message="Batch conversion completed",
        results=results,
        summary={
            "total_count": len(results),
            "success_count": success_count,
            "failure_count": failure_count,
            "total_time": total_time,
        },
    )
