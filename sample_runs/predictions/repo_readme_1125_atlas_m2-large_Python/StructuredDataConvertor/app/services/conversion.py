"""Conversion orchestration: decode, validate, read, write, encode, measure."""
import base64
import binascii
import logging
import re
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Dict, List

from pydantic import ValidationError

from ..config import settings
from ..converters.csv_io import read_csv, write_csv
from ..converters.excel_io import read_excel, write_excel
from ..converters.pdf_io import read_pdf, write_pdf
from ..converters.table import Table
from ..errors import ConversionError
from ..schemas import (
    BatchConvertRequest,
    BatchConvertResponse,
    BatchSummary,
    ConversionMetadata,
    ConversionOptions,
    ConvertRequest,
    ConvertResponse,
)

logger = logging.getLogger(__name__)

SUPPORTED_FORMATS = ("excel", "csv", "pdf")
_ALIASES = {"xlsx": "excel", "xls": "excel", "xlsm": "excel"}
_DATA_URL = re.compile(r"^data:[^,]*;base64,", re.IGNORECASE)

READERS: Dict[str, Callable[[bytes, ConversionOptions], Table]] = {
    "csv": read_csv,
    "excel": read_excel,
    "pdf": read_pdf,
}
WRITERS: Dict[str, Callable[[Table, ConversionOptions], bytes]] = {
    "csv": write_csv,
    "excel": write_excel,
    "pdf": write_pdf,
}


def normalize_format(value: str, field: str) -> str:
    key = value.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in SUPPORTED_FORMATS:
        raise ConversionError(
            f"Unsupported {field}: '{value}'. Supported formats: {', '.join(SUPPORTED_FORMATS)}"
        )
    return key


def decode_payload(data: str) -> bytes:
    text = _DATA_URL.sub("", data.strip())
    text = "".join(text.split())
    if not text:
        raise ConversionError("Field 'data' must not be empty")
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ConversionError("Field 'data' is not valid base64")
    if not raw:
        raise ConversionError("Decoded data is empty")
    if len(raw) > settings.max_source_bytes:
        raise ConversionError(
            f"Source data too large ({len(raw)} bytes; limit {settings.max_source_bytes})", 413
        )
    return raw


def convert(request: ConvertRequest) -> ConvertResponse:
    """Run one conversion. Raises ConversionError for invalid input/data."""
    started = time.perf_counter()
    source = normalize_format(request.source_format, "source_format")
    target = normalize_format(request.target_format, "target_format")
    if source == target:
        raise ConversionError("source_format and target_format must be different")
    options = request.options or ConversionOptions()

    raw = decode_payload(request.data)
    table = READERS[source](raw, options)
    output = WRITERS[target](table, options)
    elapsed = time.perf_counter() - started

    return ConvertResponse(
        success=True,
        message=f"Successfully converted {source} to {target}",
        result=base64.b64encode(output).decode("ascii"),
        metadata=ConversionMetadata(
            source_size=len(raw),
            target_size=len(output),
            conversion_time=round(elapsed, 6),
            rows_count=table.rows_count,
            columns_count=table.columns_count,
        ),
    )


def _validation_message(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err.get("loc", ()))
        parts.append(f"{loc or 'item'}: {err.get('msg', 'invalid')}")
    return "Invalid conversion task: " + "; ".join(parts)


def _convert_item(item: Any) -> ConvertResponse:
    try:
        if not isinstance(item, dict):
            raise ConversionError("Invalid conversion task: each task must be a JSON object")
        try:
            request = ConvertRequest.model_validate(item)
        except ValidationError as exc:
            raise ConversionError(_validation_message(exc))
        return convert(request)
    except ConversionError as exc:
        return ConvertResponse(success=False, message=exc.message)
    except Exception as exc:  # keep the rest of the batch going
        logger.exception("Unexpected error in batch task")
        return ConvertResponse(success=False, message=f"Conversion failed: {exc}")


def convert_batch(request: BatchConvertRequest) -> BatchConvertResponse:
    tasks: List[Any] = request.conversions
    if not tasks:
        raise ConversionError("'conversions' must contain at least one task")
    if len(tasks) > settings.max_batch_size:
        raise ConversionError(
            f"Too many conversion tasks ({len(tasks)}; limit {settings.max_batch_size})"
        )

    started = time.perf_counter()
    if request.parallel and len(tasks) > 1:
        workers = max(1, min(settings.batch_workers, len(tasks)))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(_convert_item, tasks))  # preserves input order
    else:
        results = [_convert_item(t) for t in tasks]
    total_time = time.perf_counter() - started

    success_count = sum(1 for r in results if r.success)
    failure_count = len(results) - success_count
    if failure_count == 0:
        message = f"All {len(results)} conversions completed successfully"
    else:
        message = f"Batch completed: {success_count} succeeded, {failure_count} failed"

    return BatchConvertResponse(
        success=failure_count == 0,
        message=message,
        results=results,
        summary=BatchSummary(
            total_count=len(results),
            success_count=success_count,
            failure_count=failure_count,
            total_time=round(total_time, 6),
        ),
    )
