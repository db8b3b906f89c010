"""Format readers and writers for Excel, CSV and PDF tabular data.

Every reader turns raw file bytes into a :class:`pandas.DataFrame`; every
writer turns a DataFrame into raw file bytes. Invalid or mismatching input is
reported with :class:`FormatValidationError`.
"""
from __future__ import annotations

import io
import re
from typing import Any, Dict, List, Optional

import pandas as pd

SUPPORTED_FORMATS = ("excel", "csv", "pdf")

_FORMAT_ALIASES = {
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


class FormatValidationError(ValueError):
    """Raised when input data or a requested format is invalid."""


# --------------------------------------------------------------------------- #
# Helpers
# --------------------------------------------------------------------------- #
def normalize_format(fmt: Any) -> str:
    """Return the canonical format name or raise FormatValidationError."""
    if not isinstance(fmt, str) or not fmt.strip():
        raise FormatValidationError("Format must be a non-empty string")
    key = fmt.strip().lower()
    if key not in _FORMAT_ALIASES:
        raise FormatValidationError(
            f"Unsupported format '{fmt}'. Supported formats: {', '.join(SUPPORTED_FORMATS)}"
        )
    return _FORMAT_ALIASES[key]


def resolve_options(options: Any = None) -> Dict[str, Any]:
    """Merge user options (dict, pydantic model or None) with defaults."""
    resolved = dict(DEFAULT_OPTIONS)
    if options is None:
        return resolved
    if hasattr(options, "model_dump"):
        data = options.model_dump()
    elif hasattr(options, "dict") and not isinstance(options, dict):
        data = options.dict()
    elif isinstance(options, dict):
        data = options
    else:
        raise FormatValidationError("Options must be an object")
    for key in DEFAULT_OPTIONS:
        value = data.get(key)
        if value is not None:
            resolved[key] = value

    encoding = resolved["encoding"]
    if not isinstance(encoding, str) or not encoding:
        raise FormatValidationError("Invalid encoding option")
    try:
        "".encode(encoding)
    except LookupError:
        raise FormatValidationError(f"Unknown encoding '{encoding}'")

    delimiter = resolved["delimiter"]
    if not isinstance(delimiter, str) or len(delimiter) == 0:
        raise FormatValidationError("Delimiter must be a non-empty string")
    if delimiter == "\\t":
        resolved["delimiter"] = "\t"

    resolved["has_header"] = bool(resolved["has_header"])

    sheet_name = resolved["sheet_name"]
    if not isinstance(sheet_name, str) or not sheet_name.strip():
        resolved["sheet_name"] = DEFAULT_OPTIONS["sheet_name"]
    return resolved


def _looks_like_excel(data: bytes) -> bool:
    return data.startswith(b"PK\x03\x04") or data.startswith(b"\xd0\xcf\x11\xe0")


def _looks_like_pdf(data: bytes) -> bool:
    return b"%PDF" in data[:1024]


def validate_source(data: bytes, source_format: str) -> None:
    """Check that ``data`` is non-empty and plausibly of ``source_format``."""
    fmt = normalize_format(source_format)
    if not isinstance(data, (bytes, bytearray)):
        raise FormatValidationError("Data must be bytes")
    if len(data) == 0 or not bytes(data).strip():
        raise FormatValidationError("Input data is empty")
    if fmt == "excel" and not _looks_like_excel(data):
        raise FormatValidationError("Input data is not a valid Excel file")
    if fmt == "pdf" and not _looks_like_pdf(data):
        raise FormatValidationError("Input data is not a valid PDF file")
    if fmt == "csv":
        if _looks_like_excel(data) or data.lstrip().startswith(b"%PDF"):
            raise FormatValidationError("Input data is not valid CSV text")
        if b"\x00" in data[:4096] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
            raise FormatValidationError("Input data is not valid CSV text (binary content)")


def _infer_types(df: pd.DataFrame) -> pd.DataFrame:
    """Convert text columns that are entirely numeric into numeric columns."""
    for col in df.columns:
        series = df[col]
        if series.dtype != object:
            continue
        stripped = series.map(lambda v: v.strip() if isinstance(v, str) else v)
        non_empty = stripped[stripped.map(lambda v: v is not None and v != "")]
        if non_empty.empty:
            continue
        try:
            converted = pd.to_numeric(non_empty)
        except (ValueError, TypeError):
            continue
        if len(non_empty) != len(stripped):
            # Keep columns with blanks as text to avoid introducing NaN floats.
            continue
        df[col] = converted
    return df


def _stringify(value: Any) -> str:
    if value is None:
        return ""
    try:
        if pd.isna(value):
            return ""
    except (TypeError, ValueError):
        pass
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


# --------------------------------------------------------------------------- #
# Readers
# --------------------------------------------------------------------------- #
def read_csv(data: bytes, options: Any = None) -> pd.DataFrame:
    opts = resolve_options(options)
    try:
        text = bytes(data).decode(opts["encoding"])
    except (UnicodeDecodeError, LookupError) as exc:
        raise FormatValidationError(f"Unable to decode CSV data with encoding '{opts['encoding']}': {exc}")
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise FormatValidationError("CSV data is empty")
    try:
        df = pd.read_csv(
            io.StringIO(text),
            sep=opts["delimiter"],
            header=0 if opts["has_header"] else None,
            skip_blank_lines=True,
            engine="python" if len(opts["delimiter"]) > 1 else "c",
        )
    except pd.errors.EmptyDataError:
        raise FormatValidationError("CSV data contains no columns")
    except (pd.errors.ParserError, ValueError) as exc:
        raise FormatValidationError(f"Invalid CSV data: {exc}")
    return df


def read_excel(data: bytes, options: Any = None) -> pd.DataFrame:
    opts = resolve_options(options)
    header = 0 if opts["has_header"] else None
    try:
        workbook = pd.ExcelFile(io.BytesIO(bytes(data)))
    except Exception as exc:  # noqa: BLE001 - any parse failure is a format error
        raise FormatValidationError(f"Invalid Excel data: {exc}")
    try:
        sheets = workbook.sheet_names
        if not sheets:
            raise FormatValidationError("Excel file contains no sheets")
        sheet = opts["sheet_name"] if opts["sheet_name"] in sheets else sheets[0]
        try:
            df = workbook.parse(sheet_name=sheet, header=header)
        except pd.errors.EmptyDataError:
            df = pd.DataFrame()
        except Exception as exc:  # noqa: BLE001
            raise FormatValidationError(f"Unable to read Excel sheet '{sheet}': {exc}")
    finally:
        workbook.close()
    df = df.dropna(how="all")
    return df


def _split_text_line(line: str, delimiter: str) -> List[str]:
    if delimiter and delimiter in line:
        return [cell.strip() for cell in line.split(delimiter)]
    parts = re.split(r"\s{2,}|\t", line.strip())
    if len(parts) == 1:
        parts = line.split()
    return [p.strip() for p in parts]


def read_pdf(data: bytes, options: Any = None) -> pd.DataFrame:
    import pdfplumber

    opts = resolve_options(options)
    rows: List[List[str]] = []
    try:
        with pdfplumber.open(io.BytesIO(bytes(data))) as pdf:
            table_rows: List[List[str]] = []
            text_lines: List[str] = []
            for page in pdf.pages:
                for table in page.extract_tables() or []:
                    for row in table:
                        if row is None:
                            continue
                        table_rows.append(["" if c is None else str(c).replace("\n", " ").strip() for c in row])
                if not table_rows:
                    text = page.extract_text() or ""
                    text_lines.extend(line for line in text.splitlines() if line.strip())
    except FormatValidationError:
        raise
    except Exception as exc:  # noqa: BLE001
        raise FormatValidationError(f"Invalid PDF data: {exc}")

    if table_rows:
        rows = table_rows
    elif text_lines:
        rows = [_split_text_line(line, opts["delimiter"]) for line in text_lines]
    rows = [r for r in rows if any(cell != "" for cell in r)]
    if not rows:
        raise FormatValidationError("No tabular data found in PDF")

    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]

    if opts["has_header"]:
        header = rows[0]
        body = [r for r in rows[1:] if r != header]  # drop repeated page headers
        columns: List[Any] = []
        seen: Dict[str, int] = {}
        for i, name in enumerate(header):
            name = name or f"column_{i + 1}"
            if name in seen:
                seen[name] += 1
                name = f"{name}.{seen[name]}"
            else:
                seen[name] = 0
            columns.append(name)
        df = pd.DataFrame(body, columns=columns)
    else:
        df = pd.DataFrame(rows)
    return _infer_types(df)


def read_table(data: bytes, source_format: str, options: Any = None) -> pd.DataFrame:
    """Read ``data`` of ``source_format`` into a DataFrame."""
    fmt = normalize_format(source_format)
    validate_source(data, fmt)
    if fmt == "csv":
        return read_csv(data, options)
    if fmt == "excel":
        return read_excel(data, options)
    return read_pdf(data, options)


# --------------------------------------------------------------------------- #
# Writers
# --------------------------------------------------------------------------- #
def write_csv(df: pd.DataFrame, options: Any = None) -> bytes:
    opts = resolve_options(options)
    text = df.to_csv(index=False, sep=opts["delimiter"], header=opts["has_header"])
    try:
        return text.encode(opts["encoding"])
    except UnicodeEncodeError as exc:
        raise FormatValidationError(f"Unable to encode CSV output with '{opts['encoding']}': {exc}")


def write_excel(df: pd.DataFrame, options: Any = None) -> bytes:
    opts = resolve_options(options)
    sheet = str(opts["sheet_name"])[:31]
    sheet = re.sub(r"[\[\]\:\*\?\/\\]", "_", sheet) or "Sheet1"
    buffer = io.BytesIO()
    with pd.ExcelWriter(buffer, engine="openpyxl") as writer:
        df.to_excel(writer, index=False, header=opts["has_header"], sheet_name=sheet)
    return buffer.getvalue()


def write_pdf(df: pd.DataFrame, options: Any = None) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Table, TableStyle

    opts = resolve_options(options)
    rows: List[List[str]] = []
    if opts["has_header"] and len(df.columns) > 0:
        rows.append([_stringify(c) for c in df.columns])
    for record in df.itertuples(index=False, name=None):
        rows.append([_stringify(v) for v in record])

    ncols = len(df.columns)
    pagesize = landscape(A4) if ncols > 6 else A4
    margin = 30
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=pagesize,
        leftMargin=margin,
        rightMargin=margin,
        topMargin=margin,
        bottomMargin=margin,
        title="Converted data",
    )

    if not rows or ncols == 0:
        styles = getSampleStyleSheet()
        doc.build([Paragraph("No data", styles["Normal"])])
        return buffer.getvalue()

    available = pagesize[0] - 2 * margin
    font_name = "Helvetica"
    font_size = 9.0
    padding = 8.0
    natural = [
        max(stringWidth(row[i], font_name, font_size) for row in rows) + padding
        for i in range(ncols)
    ]
    total = sum(natural)
    if total > available:
        scale = available / total
        font_size = max(4.0, font_size * scale)
        natural = [
            max(stringWidth(row[i], font_name, font_size) for row in rows) + padding
            for i in range(ncols)
        ]
        total = sum(natural)
        if total > available:
            factor = available / total
            natural = [w * factor for w in natural]

    table = Table(rows, colWidths=natural, repeatRows=1 if opts["has_header"] else 0)
    style = [
        ("FONTNAME", (0, 0), (-1, -1), font_name),
        ("FONTSIZE", (0, 0), (-1, -1), font_size),
        ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), padding / 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), padding / 2),
    ]
    if opts["has_header"]:
        style.append(("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey))
    table.setStyle(TableStyle(style))
    doc.build([table])
    return buffer.getvalue()


def write_table(df: pd.DataFrame, target_format: str, options: Any = None) -> bytes:
    """Write ``df`` as ``target_format`` bytes."""
    fmt = normalize_format(target_format)
    if fmt == "csv":
        return write_csv(df, options)
    if fmt == "excel":
        return write_excel(df, options)
    return write_pdf(df, options)


def convert_bytes(
    data: bytes, source_format: str, target_format: str, options: Any = None
) -> tuple:
    """Convert ``data`` between formats. Returns ``(result_bytes, dataframe)``."""
    df = read_table(data, source_format, options)
    result = write_table(df, target_format, options)
    return result, df
