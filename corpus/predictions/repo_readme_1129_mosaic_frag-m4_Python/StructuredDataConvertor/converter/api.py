"""HTTP endpoints of the converter service (mounted under ``/api/v1``)."""

import base64
import binascii
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from typing import Any, Dict

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from .formats import read_table, validate_format, write_table
from .schemas import BatchConvertRequest, ConversionOptions, ConvertRequest

router = APIRouter()

SERVICE_VERSION = "1.0.0"
MAX_PARALLEL_WORKERS = 8


class ConversionError(Exception):
    """A conversion request that cannot be fulfilled because of its input."""


def _decode_base64(data: str) -> bytes:
    """Decode the base64 payload of a conversion request."""
    if not isinstance(data, str) or not data.strip():
        raise ConversionError("No data provided")
    cleaned = "".join(data.split())
    try:
        raw = base64.b64decode(cleaned, validate=True)
    except (binascii.Error, ValueError):
        raise ConversionError("Invalid base64 data")
    if not raw:
        raise ConversionError("Decoded data is empty")
    return raw


def _empty_metadata(source_size: int, elapsed: float) -> Dict[str, Any]:
    return {
        "source_size": source_size,
        "target_size": 0,
        "conversion_time": round(elapsed, 6),
        "rows_count": 0,
        "columns_count": 0,
    }


def _run_conversion(request: ConvertRequest) -> Dict[str, Any]:
    """Perform one conversion; never raises, always returns a result dict."""
    started = time.perf_counter()
    source_size = 0
    try:
        source_format = str(request.source_format).strip().lower()
        target_format = str(request.target_format).strip().lower()
        try:
            validate_format(source_format)
            validate_format(target_format)
        except ValueError as exc:
            raise ConversionError(str(exc))

        options = request.options if request.options is not None else ConversionOptions()

        raw = _decode_base64(request.data)
        source_size = len(raw)

        try:
            table = read_table(raw, source_format, options)
        except ConversionError:
            raise
        except Exception as exc:
            raise ConversionError(
                "Failed to read {} data: {}".format(source_format, exc)
            )

        try:
            output = write_table(table, target_format, options)
        except ConversionError:
            raise
        except Exception as exc:
            raise ConversionError(
                "Failed to write {} data: {}".format(target_format, exc)
            )

        rows_count, columns_count = table.shape
        elapsed = time.perf_counter() - started
        return {
            "success": True,
            "message": "Successfully converted {} to {}".format(source_format, target_format),
            "result": base64.b64encode(output).decode("ascii"),
            "metadata": {
                "source_size": source_size,
                "target_size": len(output),
                "conversion_time": round(elapsed, 6),
                "rows_count": int(rows_count),
                "columns_count": int(columns_count),
            },
        }
    except ConversionError as exc:
        elapsed = time.perf_counter() - started
        return {
            "success": False,
            "message": "Conversion failed: {}".format(exc),
            "result": None,
            "metadata": _empty_metadata(source_size, elapsed),
        }
    except Exception as exc:  # unexpected failure, still report per-item
        elapsed = time.perf_counter() - started
        return {
            "success": False,
            "message": "Conversion failed: internal error ({})".format(exc),
            "result": None,
            "metadata": _empty_metadata(source_size, elapsed),
        }


@router.get("/health")
def health() -> Dict[str, Any]:
    """Report service status."""
    return {
        "status": "healthy",
        "timestamp": datetime.now(timezone.utc).isoformat(),
        "version": SERVICE_VERSION,
    }


@router.post("/convert")
def convert(request: ConvertRequest):
    """Convert a single base64-encoded document between formats."""
    result = _run_conversion(request)
    if not result["success"]:
        return JSONResponse(status_code=400, content=result)
    return result


@router.post("/convert/batch")
def convert_batch(request: BatchConvertRequest) -> Dict[str, Any]:
    """Convert several documents, optionally in parallel; results keep input order."""
    started = time.perf_counter()
    conversions = list(request.conversions or [])

    if request.parallel and len(conversions) > 1:
        workers = min(MAX_PARALLEL_WORKERS, len(conversions))
        with ThreadPoolExecutor(max_workers=workers) as executor:
            results = list(executor.map(_run_conversion, conversions))
    else:
        results = [_run_conversion(item) for item in conversions]

    total_count = len(results)
    success_count = sum(1 for item in results if item["success"])
    failure_count = total_count - success_count
    total_time = round(time.perf_counter() - started, 6)

    if failure_count == 0:
        message = "Batch conversion completed: {} of {} succeeded".format(success_count, total_count)
    else:
        message = "Batch conversion completed with errors: {} succeeded, {} failed".format(
            success_count, failure_count
        )

    return {
        "success": failure_count == 0,
        "message": message,
        "results": results,
        "summary": {
            "total_count": total_count,
            "success_count": success_count,
            "failure_count": failure_count,
            "total_time": total_time,
        },
    }
