import time
from datetime import datetime
from concurrent.futures import ThreadPoolExecutor

from fastapi import APIRouter, HTTPException

from converter import convert
from schemas import BatchRequest, BatchResponse, ConvertRequest, ConvertResponse, HealthResponse, Summary

router = APIRouter()


@router.get("/health", response_model=HealthResponse)
def health():
    return HealthResponse(status="healthy", timestamp=datetime.utcnow().isoformat(), version="1.0.0")


@router.post("/convert", response_model=ConvertResponse)
def convert_single(req: ConvertRequest):
    result = convert(req)
    if not result.success:
        raise HTTPException(status_code=400, detail=result.message)
    return result


@router.post("/convert/batch", response_model=BatchResponse)
def convert_batch(req: BatchRequest):
    start = time.time()
    if req.parallel:
        with ThreadPoolExecutor(max_workers=4) as ex:
            results = list(ex.map(convert, req.conversions))
    else:
        results = [convert(c) for c in req.conversions]
    success_count = len([r for r in results if r.success])
    failure_count = len(results) - success_count
    summary = Summary(
        total_count=len(results),
        success_count=success_count,
        failure_count=failure_count,
        total_time=time.time() - start,
    )
    return BatchResponse(
        success=failure_count == 0,
        message="Batch conversion completed",
        results=results,
        summary=summary,
    )
