"""Core conversion logic."""
import base64
import binascii
import time
from concurrent.futures import ThreadPoolExecutor
from typing import List

from app.core.config import settings
from app.schemas import (
    BatchConversionRequest,
    BatchConversionResponse,
    BatchSummary,
    ConversionMetadata,
    ConversionOptions,
    ConversionRequest,
    ConversionResponse,
)
from app.services.readers import READERS, ConversionError
from app.services.writers import WRITERS

SUPPORTED_FORMATS = ("excel", "csv", "pdf")
_ALIASES = {"xlsx": "excel", "xls": "excel", "xlsm": "excel"}


def normalize_format(fmt: str) -> str:
    f = (fmt or "").strip().lower()
    return _ALIASES.get(f, f)


def validate_request(req: ConversionRequest) -> None:
    src = normalize_format(req.source_format)
    dst = normalize_format(req.target_format)
    if src not in SUPPORTED_FORMATS:
        raise ConversionError(f"Unsupported source format: {req.source_format}")
    if dst not in SUPPORTED_FORMATS:
        raise ConversionError(f"Unsupported target format: {req.target_format}")
    if not req.data:
        raise ConversionError("Data must not be empty")


def decode_data(data: str) -> bytes:
    payload = data.strip()
    if payload.startswith("data:") and "," in payload:
        payload = payload.split(",", 1)[1]
    try:
        raw = base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ConversionError(f"Invalid base64 data: {exc}")
    if not raw:
        raise ConversionError("Decoded data is empty")
    return raw


def convert(req: ConversionRequest) -> ConversionResponse:
    """Convert a single payload. Raises ConversionError on bad input."""
    start = time.perf_counter()
    validate_request(req)
    opts = req.options or ConversionOptions()
    src = normalize_format(req.source_format)
    dst = normalize_format(req.target_format)
    raw = decode_data(req.data)

    df = READERS[src](raw, opts)
    try:
        out = WRITERS[dst](df, opts)
    except ConversionError:
        raise
    except Exception as exc:  # noqa: BLE001
        raise ConversionError(f"Failed to write {dst}: {exc}")

    elapsed = time.perf_counter() - start
    return ConversionResponse(
        success=True,
        message=f"Successfully converted {src} to {dst}",
        result=base64.b64encode(out).decode("ascii"),
        metadata=ConversionMetadata(
            source_size=len(raw),
            target_size=len(out),
            conversion_time=round(elapsed, 6),
            rows_count=int(df.shape[0]),
            columns_count=int(df.shape[1]),
        ),
    )


def safe_convert(req: ConversionRequest) -> ConversionResponse:
    try:
        return convert(req)
    except ConversionError as exc:
        return ConversionResponse(success=False, message=str(exc), result=None, metadata=None)
    except Exception as exc:  # noqa: BLE001
        return ConversionResponse(success=False, message=f"Conversion failed: {exc}", result=None, metadata=None)


def convert_batch(req: BatchConversionRequest) -> BatchConversionResponse:
    start = time.perf_counter()
    items = req.conversions
    results: List[ConversionResponse]
    if req.parallel and len(items) > 1:
        with ThreadPoolExecutor(max_workers=settings.max_workers) as pool:
            results = list(pool.map(safe_convert, items))
    else:
        results = [safe_convert(i) for i in items]
    ok = sum(1 for r in results if r.success)
    total = len(results)
    failed = total - ok
    if total == 0:
        message = "No conversions requested"
    elif failed == 0:
        message = f"All {total} conversions succeeded"
    else:
        message = f"{ok} of {total} conversions succeeded"
    return BatchConversionResponse(
        success=failed == 0,
        message=message,
        results=results,
        summary=BatchSummary(
            total_count=total,
            success_count=ok,
            failure_count=failed,
            total_time=round(time.perf_counter() - start, 6),
        ),
    )
