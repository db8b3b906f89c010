"""Conversion service layer.

Validates conversion requests, decodes the base64 payload, delegates the
actual reading/writing to :mod:`converters`, times the work and builds the
result/metadata dictionaries described in the README. Batches are processed
sequentially or in parallel (thread pool) and summarised.

Public entry points:

* :func:`process_conversion` - one request dict -> result dict (never raises)
* :func:`process_batch`      - batch request dict -> batch result dict
* :func:`validate_conversion_request` - raises :class:`ValidationError`

Failed results carry ``"success": False`` plus an ``"error_code"`` of
``"VALIDATION_ERROR"`` or ``"CONVERSION_ERROR"``; :func:`status_code_for`
maps a result to an HTTP status code.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Dict, List, Optional, Tuple

import converters

SUPPORTED_FORMATS = ("excel", "csv", "pdf")

FORMAT_ALIASES = {
    "excel": "excel",
    "xlsx": "excel",
    "xls": "excel",
    "csv": "csv",
    "pdf": "pdf",
}

DEFAULT_OPTIONS: Dict[str, Any] = {
    "encoding": "utf-8",
    "delimiter": ",",
    "has_header": True,
    "sheet_name": "Sheet1",
}

MAX_BATCH_SIZE = 100
MAX_PARALLEL_WORKERS = 8

VALIDATION_ERROR = "VALIDATION_ERROR"
CONVERSION_ERROR = "CONVERSION_ERROR"


class ServiceError(Exception):
    """Base class for service errors."""

    error_code = CONVERSION_ERROR

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class ValidationError(ServiceError, ValueError):
    """The request is malformed (bad format, options or base64 data)."""

    error_code = VALIDATION_ERROR


class ConversionError(ServiceError):
    """The data could not be read or written by the converters."""

    error_code = CONVERSION_ERROR


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------

def normalize_format(value: Any, field: str) -> str:
    """Validate and normalise a format name ("excel" | "csv" | "pdf")."""
    if value is None:
        raise ValidationError(f"Missing required field: {field}")
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(f"Field '{field}' must be a non-empty string")
    key = value.strip().lower()
    if key not in FORMAT_ALIASES:
        raise ValidationError(
            f"Unsupported {field}: '{value}'. Supported formats: "
            + ", ".join(SUPPORTED_FORMATS)
        )
    return FORMAT_ALIASES[key]


def normalize_options(options: Any) -> Dict[str, Any]:
    """Validate conversion options and fill in defaults."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ValidationError("Field 'options' must be an object")

    result = dict(DEFAULT_OPTIONS)

    encoding = options.get("encoding")
    if encoding is not None:
        if not isinstance(encoding, str) or not encoding.strip():
            raise ValidationError("Option 'encoding' must be a non-empty string")
        try:
            codecs.lookup(encoding.strip())
        except LookupError:
            raise ValidationError(f"Unknown encoding: '{encoding}'")
        result["encoding"] = encoding.strip()

    delimiter = options.get("delimiter")
    if delimiter is not None:
        if not isinstance(delimiter, str) or len(delimiter) != 1:
            raise ValidationError("Option 'delimiter' must be a single character")
        if delimiter in ("\r", "\n", '"'):
            raise ValidationError("Option 'delimiter' is not a valid CSV delimiter")
        result["delimiter"] = delimiter

    has_header = options.get("has_header")
    if has_header is not None:
        if not isinstance(has_header, bool):
            raise ValidationError("Option 'has_header' must be a boolean")
        result["has_header"] = has_header

    sheet_name = options.get("sheet_name")
    if sheet_name is not None:
        if not isinstance(sheet_name, str) or not sheet_name.strip():
            raise ValidationError("Option 'sheet_name' must be a non-empty string")
        if len(sheet_name) > 31 or any(c in sheet_name for c in "[]:*?/\\"):
            raise ValidationError("Option 'sheet_name' is not a valid Excel sheet name")
        result["sheet_name"] = sheet_name

    # Keep any extra, converter-specific options untouched.
    for key, value in options.items():
        if key not in result:
            result[key] = value
    return result


def decode_base64_data(data: Any) -> bytes:
    """Decode the base64 ``data`` field, rejecting invalid input."""
    if data is None:
        raise ValidationError("Missing required field: data")
    if not isinstance(data, str):
        raise ValidationError("Field 'data' must be a base64 encoded string")
    text = "".join(data.split())
    # Tolerate a data-URL prefix such as "data:text/csv;base64,".
    if text.startswith("data:") and "," in text:
        text = text.split(",", 1)[1]
    if not text:
        raise ValidationError("Field 'data' must not be empty")
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ValidationError("Field 'data' is not valid base64")
    if not raw:
        raise ValidationError("Decoded data is empty")
    return raw


def validate_conversion_request(request: Any) -> Tuple[str, str, bytes, Dict[str, Any]]:
    """Validate a single conversion request.

    Returns ``(source_format, target_format, raw_bytes, options)`` or raises
    :class:`ValidationError`.
    """
    if not isinstance(request, dict):
        raise ValidationError("Request body must be a JSON object")
    source_format = normalize_format(request.get("source_format"), "source_format")
    target_format = normalize_format(request.get("target_format"), "target_format")
    options = normalize_options(request.get("options"))
    raw = decode_base64_data(request.get("data"))
    return source_format, target_format, raw, options


# ---------------------------------------------------------------------------
# Converter plumbing
# ---------------------------------------------------------------------------

def _find(names: Tuple[str, ...]) -> Optional[Callable[..., Any]]:
    for name in names:
        func = getattr(converters, name, None)
        if callable(func):
            return func
    return None


def _read(raw: bytes, fmt: str, options: Dict[str, Any]) -> Any:
    generic = _find(("read_table", "read_data", "load_table", "parse_table", "read_input"))
    if generic is not None:
        return generic(raw, fmt, options)
    specific = _find((f"read_{fmt}", f"{fmt}_to_table", f"parse_{fmt}", f"load_{fmt}"))
    if specific is not None:
        return specific(raw, options)
    raise ConversionError(f"No reader available for format '{fmt}'")


def _write(table: Any, fmt: str, options: Dict[str, Any]) -> bytes:
    generic = _find(("write_table", "write_data", "dump_table", "render_table", "write_output"))
    if generic is not None:
        return generic(table, fmt, options)
    specific = _find((f"write_{fmt}", f"table_to_{fmt}", f"render_{fmt}", f"dump_{fmt}"))
    if specific is not None:
        return specific(table, options)
    raise ConversionError(f"No writer available for format '{fmt}'")


def _to_bytes(output: Any, options: Dict[str, Any]) -> bytes:
    if isinstance(output, (bytes, bytearray)):
        return bytes(output)
    if isinstance(output, str):
        return output.encode(options.get("encoding") or "utf-8")
    if hasattr(output, "getvalue"):  # BytesIO / StringIO
        return _to_bytes(output.getvalue(), options)
    raise ConversionError("Converter returned an unexpected output type")


def table_dimensions(table: Any, has_header: bool = True) -> Tuple[int, int]:
    """Best-effort ``(rows_count, columns_count)`` for a converter table.

    Understands pandas-like objects (``shape``), dicts with ``rows`` and
    ``header``/``headers``/``columns``, and plain lists of rows (where the
    first row is the header when ``has_header`` is true).
    """
    if table is None:
        return 0, 0

    shape = getattr(table, "shape", None)
    if isinstance(shape, tuple) and len(shape) == 2:
        return int(shape[0]), int(shape[1])

    if isinstance(table, dict):
        rows = table.get("rows")
        if rows is None:
            rows = table.get("data", [])
        header = None
        for key in ("header", "headers", "columns"):
            if table.get(key) is not None:
                header = table.get(key)
                break
        rows = list(rows or [])
        width = max((len(r) for r in rows if isinstance(r, (list, tuple, dict))), default=0)
        if header:
            width = max(width, len(header))
        return len(rows), width

    for attr in ("rows",):
        rows = getattr(table, attr, None)
        if rows is not None and not callable(rows):
            header = getattr(table, "header", None) or getattr(table, "headers", None) \
                or getattr(table, "columns", None)
            rows = list(rows)
            width = max((len(r) for r in rows if isinstance(r, (list, tuple))), default=0)
            if header:
                width = max(width, len(header))
            return len(rows), width

    if isinstance(table, (list, tuple)):
        rows = [r for r in table if isinstance(r, (list, tuple, dict))]
        width = max((len(r) for r in rows), default=0)
        if rows and isinstance(rows[0], dict):
            return len(rows), width
        count = len(rows) - 1 if (has_header and rows) else len(rows)
        return max(count, 0), width

    return 0, 0


def _metadata(source_size: int = 0, target_size: int = 0, conversion_time: float = 0.0,
              rows_count: int = 0, columns_count: int = 0) -> Dict[str, Any]:
    return {
        "source_size": int(source_size),
        "target_size": int(target_size),
        "conversion_time": round(float(conversion_time), 6),
        "rows_count": int(rows_count),
        "columns_count": int(columns_count),
    }


def _failure(message: str, error_code: str, metadata: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    return {
        "success": False,
        "message": message,
        "result": None,
        "metadata": metadata if metadata is not None else _metadata(),
        "error_code": error_code,
    }


# ---------------------------------------------------------------------------
# Single conversion
# ---------------------------------------------------------------------------

def convert_or_raise(request: Any) -> Dict[str, Any]:
    """Run one conversion, raising ValidationError/ConversionError on failure."""
    source_format, target_format, raw, options = validate_conversion_request(request)

    started = time.perf_counter()
    try:
        table = _read(raw, source_format, options)
    except ServiceError:
        raise
    except Exception as exc:  # converters signal bad input via exceptions
        raise ConversionError(f"Failed to read {source_format} data: {exc}")

    rows_count, columns_count = table_dimensions(table, bool(options.get("has_header", True)))

    try:
        output = _to_bytes(_write(table, target_format, options), options)
    except ServiceError:
        raise
    except Exception as exc:
        raise ConversionError(f"Failed to write {target_format} data: {exc}")
    elapsed = time.perf_counter() - started

    return {
        "success": True,
        "message": f"Successfully converted {source_format} to {target_format}",
        "result": base64.b64encode(output).decode("ascii"),
        "metadata": _metadata(
            source_size=len(raw),
            target_size=len(output),
            conversion_time=elapsed,
            rows_count=rows_count,
            columns_count=columns_count,
        ),
    }


def process_conversion(request: Any) -> Dict[str, Any]:
    """Run one conversion and always return a result dictionary."""
    started = time.perf_counter()
    try:
        return convert_or_raise(request)
    except ValidationError as exc:
        return _failure(exc.message, VALIDATION_ERROR,
                        _metadata(conversion_time=time.perf_counter() - started))
    except ConversionError as exc:
        source_size = 0
        try:
            source_size = len(decode_base64_data(request.get("data")))
        except Exception:
            pass
        return _failure(exc.message, CONVERSION_ERROR,
                        _metadata(source_size=source_size,
                                  conversion_time=time.perf_counter() - started))
    except Exception as exc:  # defensive: never let one task crash a batch
        return _failure(f"Conversion failed: {exc}", CONVERSION_ERROR,
                        _metadata(conversion_time=time.perf_counter() - started))


def status_code_for(result: Dict[str, Any]) -> int:
    """HTTP status code matching a single conversion result."""
    if result.get("success"):
        return 200
    if result.get("error_code") == VALIDATION_ERROR:
        return 400
    return 422


# ---------------------------------------------------------------------------
# Batch conversion
# ---------------------------------------------------------------------------

def validate_batch_request(request: Any) -> Tuple[List[Any], bool]:
    """Validate a batch request; returns ``(conversions, parallel)``."""
    if not isinstance(request, dict):
        raise ValidationError("Request body must be a JSON object")
    conversions = request.get("conversions")
    if conversions is None:
        raise ValidationError("Missing required field: conversions")
    if not isinstance(conversions, list):
        raise ValidationError("Field 'conversions' must be an array")
    if not conversions:
        raise ValidationError("Field 'conversions' must contain at least one conversion")
    if len(conversions) > MAX_BATCH_SIZE:
        raise ValidationError(f"Too many conversions in batch (max {MAX_BATCH_SIZE})")
    parallel = request.get("parallel", False)
    if parallel is None:
        parallel = False
    if not isinstance(parallel, bool):
        raise ValidationError("Field 'parallel' must be a boolean")
    return conversions, parallel


def _public_result(result: Dict[str, Any]) -> Dict[str, Any]:
    return {
        "success": result.get("success", False),
        "message": result.get("message", ""),
        "result": result.get("result"),
        "metadata": result.get("metadata", _metadata()),
        **({"error_code": result["error_code"]} if "error_code" in result else {}),
    }


def run_batch(conversions: List[Any], parallel: bool = False) -> Dict[str, Any]:
    """Run already-validated batch items and build the summary."""
    if isinstance(conversions, dict):  # called with the whole request body
        return process_batch(conversions)
    started = time.perf_counter()
    if parallel and len(conversions) > 1:
        workers = min(MAX_PARALLEL_WORKERS, len(conversions))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(process_conversion, conversions))  # keeps order
    else:
        results = [process_conversion(item) for item in conversions]
    total_time = time.perf_counter() - started

    success_count = sum(1 for r in results if r.get("success"))
    failure_count = len(results) - success_count
    total = len(results)

    if failure_count == 0:
        message = f"All {total} conversions completed successfully"
    elif success_count == 0:
        message = f"All {total} conversions failed"
    else:
        message = (f"Batch completed: {success_count} succeeded, "
                   f"{failure_count} failed")

    return {
        "success": failure_count == 0,
        "message": message,
        "results": [_public_result(r) for r in results],
        "summary": {
            "total_count": total,
            "success_count": success_count,
            "failure_count": failure_count,
            "total_time": round(total_time, 6),
        },
    }


def process_batch(request: Any) -> Dict[str, Any]:
    """Validate and run a batch request; always returns a dictionary.

    An invalid batch envelope yields ``success: False`` with
    ``error_code: VALIDATION_ERROR`` and an empty summary.
    """
    try:
        conversions, parallel = validate_batch_request(request)
    except ValidationError as exc:
        return {
            "success": False,
            "message": exc.message,
            "results": [],
            "summary": {
                "total_count": 0,
                "success_count": 0,
                "failure_count": 0,
                "total_time": 0.0,
            },
            "error_code": VALIDATION_ERROR,
        }
    return run_batch(conversions, parallel)


def batch_status_code_for(result: Dict[str, Any]) -> int:
    """HTTP status for a batch result (400 only for an invalid envelope)."""
    return 400 if result.get("error_code") == VALIDATION_ERROR else 200


# Aliases for callers expecting other names.
convert = process_conversion
convert_single = process_conversion
run_conversion = process_conversion
handle_conversion = process_conversion
convert_batch = process_batch
batch_convert = process_batch
handle_batch = process_batch
