"""Conversion orchestration for StructuredDataConvertor.

This module sits between the HTTP layer (``main.py``) and the low level
format readers/writers (``app.converters``).  It is responsible for:

* decoding the base64 payload and encoding the result,
* applying conversion options (falling back to defaults),
* timing each conversion and collecting size / row / column metadata,
* running batch conversions sequentially or in parallel, capturing
  failures per item so one bad entry never aborts the whole batch.
"""

from __future__ import annotations

import base64
import binascii
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, List, Optional

from app.converters import ConversionError, read_table, write_table
from app.schemas import BatchConvertRequest, ConvertOptions, ConvertRequest

SUPPORTED_FORMATS = ("excel", "csv", "pdf")
MAX_PARALLEL_WORKERS = 8


def _normalize_format(value: Any, field: str) -> str:
    """Return a lower-cased supported format name or raise ConversionError."""
    if not isinstance(value, str) or not value.strip():
        raise ConversionError(f"{field} is required")
    fmt = value.strip().lower()
    if fmt in ("xlsx", "xls"):
        fmt = "excel"
    if fmt not in SUPPORTED_FORMATS:
        raise ConversionError(
            f"Unsupported {field} '{value}'. Supported formats: {', '.join(SUPPORTED_FORMATS)}"
        )
    return fmt


def _decode_payload(data: Any) -> bytes:
    """Decode the base64 encoded source file content."""
    if not isinstance(data, str) or not data.strip():
        raise ConversionError("data must be a non-empty base64 encoded string")
    cleaned = "".join(data.split())
    try:
        raw = base64.b64decode(cleaned, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ConversionError(f"data is not valid base64: {exc}") from exc
    if not raw:
        raise ConversionError("decoded data is empty")
    return raw


def _resolve_options(options: Optional[ConvertOptions]) -> ConvertOptions:
    """Return the given options or the defaults when none were supplied."""
    if options is None:
        return ConvertOptions()
    return options


def convert_single(request: ConvertRequest) -> Dict[str, Any]:
    """Run one conversion.

    Returns the response body (``success``, ``message``, ``result`` and
    ``metadata``).  Raises :class:`ConversionError` when the input is
    invalid or the source content cannot be converted.
    """
    started = time.perf_counter()

    source_format = _normalize_format(request.source_format, "source_format")
    target_format = _normalize_format(request.target_format, "target_format")
    options = _resolve_options(request.options)
    raw = _decode_payload(request.data)

    try:
        table = read_table(raw, source_format, options)
    except ConversionError:
        raise
    except Exception as exc:
        raise ConversionError(
            f"Failed to read {source_format} data: {exc}"
        ) from exc

    try:
        output = write_table(table, target_format, options)
    except ConversionError:
        raise
    except Exception as exc:
        raise ConversionError(
            f"Failed to write {target_format} data: {exc}"
        ) from exc

    elapsed = time.perf_counter() - started

    return {
        "success": True,
        "message": f"Successfully converted {source_format} to {target_format}",
        "result": base64.b64encode(output).decode("ascii"),
        "metadata": {
            "source_size": len(raw),
            "target_size": len(output),
            "conversion_time": round(elapsed, 6),
            "rows_count": int(len(table.index)),
            "columns_count": int(len(table.columns)),
        },
    }


def _safe_convert(request: ConvertRequest) -> Dict[str, Any]:
    """Run one conversion, turning any failure into a failed result entry."""
    started = time.perf_counter()
    try:
        return convert_single(request)
    except ConversionError as exc:
        message = str(exc)
    except Exception as exc:  # unexpected failure, still captured per item
        message = f"Conversion failed: {exc}"
    return {
        "success": False,
        "message": message,
        "result": "",
        "metadata": {
            "source_size": 0,
            "target_size": 0,
            "conversion_time": round(time.perf_counter() - started, 6),
            "rows_count": 0,
            "columns_count": 0,
        },
    }


def convert_batch(request: BatchConvertRequest) -> Dict[str, Any]:
    """Run a list of conversions, sequentially or in parallel.

    Results keep the input order; each failed item is reported without
    stopping the others.
    """
    started = time.perf_counter()
    items: List[ConvertRequest] = list(request.conversions or [])

    if request.parallel and len(items) > 1:
        workers = min(MAX_PARALLEL_WORKERS, len(items))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(_safe_convert, items))
    else:
        results = [_safe_convert(item) for item in items]

    total = len(results)
    success_count = sum(1 for r in results if r["success"])
    failure_count = total - success_count
    total_time = round(time.perf_counter() - started, 6)

    if total == 0:
        message = "No conversions requested"
    elif failure_count == 0:
        message = f"All {total} conversions succeeded"
    elif success_count == 0:
        message = f"All {total} conversions failed"
    else:
        message = f"{success_count} of {total} conversions succeeded"

    return {
        "success": total == 0 or success_count > 0,
        "message": message,
        "results": results,
        "summary": {
            "total_count": total,
            "success_count": success_count,
            "failure_count": failure_count,
            "total_time": total_time,
        },
    }
