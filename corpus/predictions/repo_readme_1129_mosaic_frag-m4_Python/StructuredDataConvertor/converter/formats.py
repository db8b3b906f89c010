"""Format validation and table reading/writing for Excel, CSV and PDF.

The converters work on a simple in-memory :class:`Table` (header names plus
data rows).  Every supported format can be read into a table and written out
from a table, so any source/target combination is handled by
``write_table(read_table(data, source), target)``.

Excel support uses ``openpyxl``.  PDF support is self-contained: written PDFs
render the table as text and additionally embed the exact table data, so a
PDF produced by this service converts back losslessly; other PDFs are read by
extracting positioned text fragments from their content streams.
"""

from __future__ import annotations

import base64
import codecs
import csv
import datetime as _dt
import io
import json
import math
import re
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

SUPPORTED_FORMATS: Tuple[str, ...] = ("excel", "csv", "pdf")

DEFAULT_OPTIONS: Dict[str, Any] = {
    "encoding": "utf-8",
    "delimiter": ",",
    "has_header": True,
    "sheet_name": "Sheet1",
}


class FormatError(ValueError):
    """Raised when a format is unsupported or data cannot be read or written."""


@dataclass
class Table:
    """A rectangular table: column headers and data rows."""

    headers: List[str] = field(default_factory=list)
    rows: List[List[Any]] = field(default_factory=list)

    @property
    def rows_count(self) -> int:
        """Number of data rows (the header row is not counted)."""
        return len(self.rows)

    @property
    def columns_count(self) -> int:
        """Number of columns."""
        widest_row = max((len(row) for row in self.rows), default=0)
        return max(len(self.headers), widest_row)


# ---------------------------------------------------------------------------
# Validation helpers
# ---------------------------------------------------------------------------


def validate_format(fmt: Any) -> str:
    """Return the normalized format name or raise :class:`FormatError`."""
    if not isinstance(fmt, str) or not fmt.strip():
        raise FormatError(
            "Format must be a non-empty string; supported formats: "
            + ", ".join(SUPPORTED_FORMATS)
        )
    name = fmt.strip().lower()
    if name not in SUPPORTED_FORMATS:
        raise FormatError(
            f"Unsupported format '{fmt}'. Supported formats: "
            + ", ".join(SUPPORTED_FORMATS)
        )
    return name


def resolve_options(options: Any = None) -> Dict[str, Any]:
    """Merge user options (dict, pydantic model or None) with the defaults.

    Raises :class:`FormatError` for invalid option values.
    """
    resolved = dict(DEFAULT_OPTIONS)
    if options is None:
        return resolved
    if isinstance(options, dict):
        raw = options
    elif hasattr(options, "model_dump"):
        raw = options.model_dump()
    elif hasattr(options, "dict"):
        raw = options.dict()
    else:
        raise FormatError("options must be an object")

    for key in DEFAULT_OPTIONS:
        value = raw.get(key)
        if value is not None:
            resolved[key] = value

    encoding = resolved["encoding"]
    if not isinstance(encoding, str) or not encoding.strip():
        raise FormatError("options.encoding must be a non-empty string")
    try:
        codecs.lookup(encoding.strip())
    except LookupError as exc:
        raise FormatError(f"Unsupported encoding '{encoding}'") from exc
    resolved["encoding"] = encoding.strip()

    delimiter = resolved["delimiter"]
    if isinstance(delimiter, str) and delimiter in ("\\t", "tab", "TAB"):
        delimiter = "\t"
    if not isinstance(delimiter, str) or len(delimiter) != 1:
        raise FormatError("options.delimiter must be a single character")
    if delimiter in ('"', "\r", "\n"):
        raise FormatError("options.delimiter cannot be a quote or newline character")
    resolved["delimiter"] = delimiter

    if not isinstance(resolved["has_header"], bool):
        raise FormatError("options.has_header must be a boolean")

    sheet_name = resolved["sheet_name"]
    if not isinstance(sheet_name, str) or not sheet_name.strip():
        raise FormatError("options.sheet_name must be a non-empty string")

    return resolved


# ---------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------


def read_table(data: bytes, fmt: str, options: Any = None) -> Table:
    """Read raw file bytes of format ``fmt`` into a :class:`Table`."""
    name = validate_format(fmt)
    opts = resolve_options(options)
    if not isinstance(data, (bytes, bytearray)):
        raise FormatError("Input data must be bytes")
    payload = bytes(data)
    if not payload.strip():
        raise FormatError("Input data is empty")
    reader = _READERS[name]
    try:
        return reader(payload, opts)
    except FormatError:
        raise
    except Exception as exc:  # defensive: any parser failure is a format error
        raise FormatError(f"Unable to read {name} data: {exc}") from exc


def write_table(table: Table, fmt: str, options: Any = None) -> bytes:
    """Serialize a :class:`Table` into file bytes of format ``fmt``."""
    name = validate_format(fmt)
    opts = resolve_options(options)
    writer = _WRITERS[name]
    try:
        return writer(table, opts)
    except FormatError:
        raise
    except Exception as exc:  # defensive: any writer failure is a format error
        raise FormatError(f"Unable to write {name} data: {exc}") from exc


def convert(
    data: bytes, source_format: str, target_format: str, options: Any = None
) -> Tuple[bytes, Table]:
    """Convert ``data`` from ``source_format`` to ``target_format``.

    Returns the converted bytes and the intermediate table (for row/column
    counts).  Raises :class:`FormatError` on any validation or parsing error.
    """
    source = validate_format(source_format)
    target = validate_format(target_format)
    opts = resolve_options(options)
    table = read_table(data, source, opts)
    return write_table(table, target, opts), table


# ---------------------------------------------------------------------------
# Shared table helpers
# ---------------------------------------------------------------------------


def _is_empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value.strip() == "")


def _table_from_grid(grid: Sequence[Sequence[Any]], has_header: bool) -> Table:
    """Build a table from raw rows, dropping blank rows and trailing blank cells."""
    cleaned: List[List[Any]] = []
    for row in grid:
        cells = ["" if value is None else value for value in row]
        while cells and _is_empty(cells[-1]):
            cells.pop()
        if cells:
            cleaned.append(cells)
    if not cleaned:
        raise FormatError("No data rows found in input")

    width = max(len(row) for row in cleaned)
    padded = [row + [""] * (width - len(row)) for row in cleaned]

    if has_header:
        header_row = padded[0]
        headers = []
        for index, value in enumerate(header_row):
            text = _to_text(value).strip()
            headers.append(text if text else f"Column{index + 1}")
        rows = padded[1:]
    else:
        headers = [f"Column{index + 1}" for index in range(width)]
        rows = padded
    return Table(headers=headers, rows=rows)


def _to_text(value: Any) -> str:
    """Render a cell value as text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return ""
        return repr(value)
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        return value.isoformat()
    return str(value)


def _grid_for_output(table: Table, has_header: bool) -> List[List[Any]]:
    width = table.columns_count
    grid: List[List[Any]] = []
    if has_header:
        headers = list(table.headers) + [""] * (width - len(table.headers))
        grid.append(headers)
    for row in table.rows:
        grid.append(list(row) + [""] * (width - len(row)))
    return grid


# ---------------------------------------------------------------------------
# CSV
# ---------------------------------------------------------------------------


def _read_csv(data: bytes, opts: Dict[str, Any]) -> Table:
    if data.startswith(b"%PDF") or data.startswith(b"PK\x03\x04"):
        raise FormatError("Data does not appear to be CSV text")
    encoding = opts["encoding"]
    if codecs.lookup(encoding).name == "utf-8":
        encoding = "utf-8-sig"
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        raise FormatError(
            f"Unable to decode CSV data using encoding '{opts['encoding']}'"
        ) from exc
    if "\x00" in text:
        raise FormatError("Data does not appear to be CSV text")
    try:
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=opts["delimiter"])
        grid = [row for row in reader]
    except csv.Error as exc:
        raise FormatError(f"Invalid CSV data: {exc}") from exc
    return _table_from_grid(grid, opts["has_header"])


def _write_csv(table: Table, opts: Dict[str, Any]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=opts["delimiter"], lineterminator="\n")
    for row in _grid_for_output(table, opts["has_header"]):
        writer.writerow([_to_text(value) for value in row])
    text = buffer.getvalue()
    try:
        return text.encode(opts["encoding"])
    except UnicodeEncodeError as exc:
        raise FormatError(
            f"Data cannot be encoded using encoding '{opts['encoding']}'"
        ) from exc


# ---------------------------------------------------------------------------
# Excel
# ---------------------------------------------------------------------------

_ILLEGAL_EXCEL_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_INT_RE = re.compile(r"^-?(0|[1-9][0-9]{0,14})$")
_FLOAT_RE = re.compile(r"^-?(0|[1-9][0-9]{0,14})\.[0-9]{1,15}$")
_INVALID_SHEET_CHARS = re.compile(r"[\[\]:*?/\\]")


def _excel_value_in(value: Any) -> Any:
    """Normalize a value read from a worksheet."""
    if value is None:
        return ""
    if isinstance(value, _dt.datetime):
        if value.time() == _dt.time(0, 0):
            return value.date().isoformat()
        return value.isoformat(sep=" ")
    if isinstance(value, (_dt.date, _dt.time)):
        return value.isoformat()
    if isinstance(value, _dt.timedelta):
        return str(value)
    return value


def _excel_value_out(value: Any, coerce_numbers: bool = True) -> Any:
    """Prepare a value for writing into a worksheet cell."""
    if value is None:
        return None
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    if isinstance(value, (bool, int, float)):
        return value
    text = value if isinstance(value, str) else _to_text(value)
    text = _ILLEGAL_EXCEL_CHARS.sub("", text)
    if text == "":
        return None
    if coerce_numbers:
        stripped = text.strip()
        if _INT_RE.match(stripped):
            return int(stripped)
        if _FLOAT_RE.match(stripped):
            return float(stripped)
    if len(text) > 32767:
        text = text[:32767]
    return text


def _safe_sheet_title(name: str) -> str:
    title = _INVALID_SHEET_CHARS.sub("_", name.strip()).strip("'")
    title = title[:31]
    return title or "Sheet1"


def _read_excel(data: bytes, opts: Dict[str, Any]) -> Table:
    try:
        from openpyxl import load_workbook
    except ImportError as exc:  # pragma: no cover - dependency missing
        raise FormatError("Excel support requires the 'openpyxl' package") from exc
    if not data.startswith(b"PK"):
        raise FormatError("Invalid Excel data: not an .xlsx workbook")
    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:
        raise FormatError("Invalid Excel data: unable to open workbook") from exc
    try:
        sheet_name = opts["sheet_name"]
        if sheet_name in workbook.sheetnames:
            worksheet = workbook[sheet_name]
        elif workbook.worksheets:
            worksheet = workbook.worksheets[0]
        else:
            raise FormatError("Excel workbook contains no worksheets")
        grid = [
            [_excel_value_in(value) for value in row]
            for row in worksheet.iter_rows(values_only=True)
        ]
    finally:
        workbook.close()
    return _table_from_grid(grid, opts["has_header"])


def _write_excel(table: Table, opts: Dict[str, Any]) -> bytes:
    try:
        from openpyxl import Workbook
    except ImportError as exc:  # pragma: no cover - dependency missing
        raise FormatError("Excel support requires the 'openpyxl' package") from exc
    workbook = Workbook()
    worksheet = workbook.active
    worksheet.title = _safe_sheet_title(opts["sheet_name"])
    has_header = opts["has_header"]
    for index, row in enumerate(_grid_for_output(table, has_header)):
        is_header = has_header and index == 0
        worksheet.append([_excel_value_out(value, not is_header) for value in row])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


# ---------------------------------------------------------------------------
# PDF writing
# ---------------------------------------------------------------------------

_PDF_DATA_TYPE = b"/SDCTableData"
_PDF_DATA_RE = re.compile(
    rb"/Type\s*/SDCTableData\s*/Filter\s*/FlateDecode\s*/Length\s+(\d+)\s*>>\s*stream\r?\n"
)


def _json_safe(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return None
        return value
    return _to_text(value)


def _pdf_escape(text: str) -> bytes:
    clean = text.replace("\r", " ").replace("\n", " ").replace("\t", " ")
    raw = clean.encode("cp1252", errors="replace")
    return raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def _fit_text(text: str, max_chars: int) -> str:
    if len(text) <= max_chars:
        return text
    if max_chars <= 3:
        return text[:max_chars]
    return text[: max_chars - 3] + "..."


def _write_pdf(table: Table, opts: Dict[str, Any]) -> bytes:
    has_header = opts["has_header"]
    grid = _grid_for_output(table, has_header)
    text_grid = [[_to_text(value) for value in row] for row in grid]
    columns = max(table.columns_count, 1)

    landscape = columns > 6
    page_width, page_height = (842.0, 595.0) if landscape else (595.0, 842.0)
    margin = 40.0
    column_width = (page_width - 2 * margin) / columns
    font_size = max(6.0, min(10.0, column_width / 6.0))
    leading = font_size * 1.6
    rows_per_page = max(1, int((page_height - 2 * margin) // leading))
    max_chars = max(1, int((column_width - 4.0) / (font_size * 0.55)))

    page_streams: List[bytes] = []
    chunks = [text_grid[i : i + rows_per_page] for i in range(0, len(text_grid), rows_per_page)]
    if not chunks:
        chunks = [[]]
    for chunk_index, chunk in enumerate(chunks):
        ops: List[bytes] = []
        y = page_height - margin - font_size
        for row_index, row in enumerate(chunk):
            is_header = has_header and chunk_index == 0 and row_index == 0
            font = b"/F2" if is_header else b"/F1"
            for column_index, cell in enumerate(row):
                if not cell:
                    continue
                x = margin + column_index * column_width
                ops.append(
                    b"BT %s %.2f Tf 1 0 0 1 %.2f %.2f Tm (%s) Tj ET\n"
                    % (font, font_size, x, y, _pdf_escape(_fit_text(cell, max_chars)))
                )
            if is_header:
                line_y = y - font_size * 0.35
                ops.append(
                    b"0.5 w %.2f %.2f m %.2f %.2f l S\n"
                    % (margin, line_y, page_width - margin, line_y)
                )
            y -= leading
        page_streams.append(b"".join(ops))

    embedded = json.dumps(
        {
            "version": 1,
            "has_header": has_header,
            "grid": [[_json_safe(value) for value in row] for row in grid],
        },
        ensure_ascii=False,
    ).encode("utf-8")
    embedded_stream = zlib.compress(embedded)

    # Object numbering: 1 catalog, 2 pages, 3-4 fonts, then page/content pairs,
    # then the embedded data stream and the info dictionary.
    page_count = len(page_streams)
    first_page_obj = 5
    data_obj = first_page_obj + 2 * page_count
    info_obj = data_obj + 1

    objects: List[bytes] = []
    objects.append(
        b"<< /Type /Catalog /Pages 2 0 R %s %d 0 R >>" % (_PDF_DATA_TYPE, data_obj)
    )
    kids = b" ".join(b"%d 0 R" % (first_page_obj + 2 * i) for i in range(page_count))
    objects.append(b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, page_count))
    objects.append(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    )
    objects.append(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>"
    )
    for index, content in enumerate(page_streams):
        content_obj = first_page_obj + 2 * index + 1
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.0f %.0f] "
            b"/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents %d 0 R >>"
            % (page_width, page_height, content_obj)
        )
        objects.append(
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content)
        )
    objects.append(
        b"<< /Type /SDCTableData /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream"
        % (len(embedded_stream), embedded_stream)
    )
    objects.append(b"<< /Producer (StructuredDataConvertor) /Title (Converted table) >>")

    output = io.BytesIO()
    output.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets: List[int] = []
    for number, body in enumerate(objects, start=1):
        offsets.append(output.tell())
        output.write(b"%d 0 obj\n" % number)
        output.write(body)
        output.write(b"\nendobj\n")
    xref_offset = output.tell()
    output.write(b"xref\n0 %d\n" % (len(objects) + 1))
    output.write(b"0000000000 65535 f \n")
    for offset in offsets:
        output.write(b"%010d 00000 n \n" % offset)
    output.write(
        b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n"
        % (len(objects) + 1, info_obj, xref_offset)
    )
    return output.getvalue()


# ---------------------------------------------------------------------------
# PDF reading
# ---------------------------------------------------------------------------


def _read_pdf(data: bytes, opts: Dict[str, Any]) -> Table:
    if b"%PDF-" not in data[:1024]:
        raise FormatError("Invalid PDF data: missing PDF header")

    embedded = _read_embedded_grid(data)
    if embedded is not None:
        return _table_from_grid(embedded, opts["has_header"])

    grid = _extract_pdf_grid(data)
    if not grid:
        raise FormatError("No tabular text data could be extracted from the PDF")
    return _table_from_grid(grid, opts["has_header"])


def _read_embedded_grid(data: bytes) -> Optional[List[List[Any]]]:
    match = _PDF_DATA_RE.search(data)
    if match is None:
        return None
    length = int(match.group(1))
    raw = data[match.end() : match.end() + length]
    try:
        payload = json.loads(zlib.decompress(raw).decode("utf-8"))
    except Exception:
        return None
    grid = payload.get("grid") if isinstance(payload, dict) else None
    if not isinstance(grid, list) or not all(isinstance(row, list) for row in grid):
        return None
    return grid


_OBJ_RE = re.compile(rb"\d+\s+\d+\s+obj\b")
_STREAM_KEYWORD_RE = re.compile(rb"(?<![A-Za-z])stream\r?\n")
_SKIP_STREAM_RE = re.compile(
    rb"/Subtype\s*/Image|/Length1|/Length2|/Length3|/Type\s*/XRef|/Type\s*/ObjStm"
    rb"|/Type\s*/Metadata|/Subtype\s*/Type1C|/Subtype\s*/CIDFontType0C|/Subtype\s*/OpenType"
    rb"|/Type\s*/SDCTableData"
)
_DIRECT_LENGTH_RE = re.compile(rb"/Length\s+(\d+)\b(?!\s+\d+\s+R)")


def _pdf_content_streams(data: bytes) -> List[bytes]:
    """Return decoded streams that look like page content (contain text)."""
    streams: List[bytes] = []
    position = 0
    while True:
        match = _OBJ_RE.search(data, position)
        if match is None:
            break
        end_obj = data.find(b"endobj", match.end())
        keyword = _STREAM_KEYWORD_RE.search(data, match.end())
        if keyword is None or (end_obj != -1 and end_obj < keyword.start()):
            position = match.end()
            continue
        header = data[match.end() : keyword.start()]
        start = keyword.end()
        raw: Optional[bytes] = None
        length_match = _DIRECT_LENGTH_RE.search(header)
        if length_match is not None:
            length = int(length_match.group(1))
            tail = data[start + length : start + length + 12].lstrip(b"\r\n \t")
            if tail.startswith(b"endstream"):
                raw = data[start : start + length]
        body_end = data.find(b"endstream", start)
        if raw is None:
            if body_end == -1:
                break
            raw = data[start:body_end]
            if raw.endswith(b"\r\n"):
                raw = raw[:-2]
            elif raw.endswith(b"\n") or raw.endswith(b"\r"):
                raw = raw[:-1]
            position = body_end + len(b"endstream")
        else:
            position = start + len(raw)
        if _SKIP_STREAM_RE.search(header):
            continue
        decoded = _decode_stream(header, raw)
        if decoded is None:
            continue
        if re.search(rb"\bBT\b", decoded) and re.search(rb"T[jJ]|'|\"", decoded):
            streams.append(decoded)
    return streams


def _decode_stream(header: bytes, raw: bytes) -> Optional[bytes]:
    filter_match = re.search(rb"/Filter\s*(\[[^\]]*\]|/[A-Za-z0-9]+)", header)
    if filter_match is None:
        return raw
    names = re.findall(rb"/([A-Za-z0-9]+)", filter_match.group(1))
    data = raw
    for name in names:
        try:
            if name in (b"FlateDecode", b"Fl"):
                decompressor = zlib.decompressobj()
                data = decompressor.decompress(data) + decompressor.flush()
            elif name in (b"ASCII85Decode", b"A85"):
                text = data.strip()
                if text.startswith(b"<~"):
                    text = text[2:]
                end = text.find(b"~>")
                if end != -1:
                    text = text[:end]
                data = base64.a85decode(text)
            elif name in (b"ASCIIHexDecode", b"AHx"):
                text = re.sub(rb"[^0-9A-Fa-f]", b"", data.split(b">", 1)[0])
                if len(text) % 2:
                    text += b"0"
                data = bytes.fromhex(text.decode("ascii"))
            else:
                return None
        except Exception:
            return None
    return data


_PDF_WHITESPACE = b" \t\r\n\x00\x0c"
_PDF_DELIMITERS = b"()<>[]{}/%"
_OCTAL_DIGITS = b"01234567"


def _read_literal_string(buffer: bytes, index: int) -> Tuple[bytes, int]:
    """Parse a literal string starting just after '('; return (value, next index)."""
    out = bytearray()
    depth = 1
    length = len(buffer)
    while index < length:
        char = buffer[index]
        if char == 0x5C:  # backslash
            index += 1
            if index >= length:
                break
            escaped = buffer[index]
            mapping = {0x6E: 0x0A, 0x72: 0x0D, 0x74: 0x09, 0x62: 0x08, 0x66: 0x0C}
            if escaped in mapping:
                out.append(mapping[escaped])
                index += 1
            elif escaped in _OCTAL_DIGITS:
                digits = bytearray()
                while index < length and len(digits) < 3 and buffer[index] in _OCTAL_DIGITS:
                    digits.append(buffer[index])
                    index += 1
                out.append(int(digits.decode("ascii"), 8) & 0xFF)
            elif escaped == 0x0D:
                index += 1
                if index < length and buffer[index] == 0x0A:
                    index += 1
            elif escaped == 0x0A:
                index += 1
            else:
                out.append(escaped)
                index += 1
            continue
        if char == 0x28:
            depth += 1
        elif char == 0x29:
            depth -= 1
            if depth == 0:
                return bytes(out), index + 1
        out.append(char)
        index += 1
    return bytes(out), index


def _pdf_tokens(buffer: bytes) -> Iterator[Tuple[str, Any]]:
    """Tokenize a content stream into (kind, value) pairs."""
    index = 0
    length = len(buffer)
    while index < length:
        char = buffer[index]
        if char in _PDF_WHITESPACE:
            index += 1
            continue
        if char == 0x25:  # % comment
            while index < length and buffer[index] not in b"\r\n":
                index += 1
            continue
        if char == 0x28:  # (
            value, index = _read_literal_string(buffer, index + 1)
            yield ("str", value)
            continue
        if char == 0x3C:  # <
            if buffer[index + 1 : index + 2] == b"<":
                yield ("op", "<<")
                index += 2
                continue
            end = buffer.find(b">", index + 1)
            if end == -1:
                end = length
            digits = re.sub(rb"[^0-9A-Fa-f]", b"", buffer[index + 1 : end])
            if len(digits) % 2:
                digits += b"0"
            yield ("str", bytes.fromhex(digits.decode("ascii")))
            index = end + 1
            continue
        if char == 0x3E:  # >
            if buffer[index + 1 : index + 2] == b">":
                yield ("op", ">>")
                index += 2
            else:
                index += 1
            continue
        if char == 0x5B:
            yield ("[", None)
            index += 1
            continue
        if char == 0x5D:
            yield ("]", None)
            index += 1
            continue
        if char in b"{}":
            index += 1
            continue
        if char == 0x2F:  # /name
            end = index + 1
            while end < length and buffer[end] not in _PDF_WHITESPACE and buffer[end] not in _PDF_DELIMITERS:
                end += 1
            yield ("name", buffer[index + 1 : end])
            index = end
            continue
        end = index
        while end < length and buffer[end] not in _PDF_WHITESPACE and buffer[end] not in _PDF_DELIMITERS:
            end += 1
        if end == index:
            end = index + 1
        word = buffer[index:end]
        index = end
        try:
            yield ("num", float(word))
            continue
        except ValueError:
            pass
        if word == b"ID":
            # Inline image data: skip to the EI operator.
            match = re.compile(rb"\sEI(?=[\s]|$)").search(buffer, index)
            index = match.end() if match else length
            yield ("op", "EI")
            continue
        yield ("op", word.decode("latin-1"))


_Matrix = List[float]
_IDENTITY: _Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]


def _matmul(first: _Matrix, second: _Matrix) -> _Matrix:
    a1, b1, c1, d1, e1, f1 = first
    a2, b2, c2, d2, e2, f2 = second
    return [
        a1 * a2 + b1 * c2,
        a1 * b2 + b1 * d2,
        c1 * a2 + d1 * c2,
        c1 * b2 + d1 * d2,
        e1 * a2 + f1 * c2 + e2,
        e1 * b2 + f1 * d2 + f2,
    ]


def _decode_pdf_text(raw: bytes) -> str:
    if raw.startswith(b"\xfe\xff"):
        try:
            return raw[2:].decode("utf-16-be", errors="replace")
        except Exception:
            pass
    try:
        text = raw.decode("cp1252")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    return text.replace("\x00", "")


def _pdf_text_fragments(content: bytes) -> List[Tuple[float, float, str, float]]:
    """Interpret text operators; return (x, y, text, size) fragments."""
    fragments: List[Tuple[float, float, str, float]] = []
    ctm: _Matrix = list(_IDENTITY)
    stack: List[_Matrix] = []
    text_matrix: _Matrix = list(_IDENTITY)
    line_matrix: _Matrix = list(_IDENTITY)
    font_size = 1.0
    leading = 0.0
    operands: List[Any] = []
    array: Optional[List[Any]] = None

    def numbers(count: int) -> Optional[List[float]]:
        values = [value for value in operands if isinstance(value, float)]
        if len(values) < count:
            return None
        return values[-count:]

    def show(text: str) -> None:
        nonlocal text_matrix
        matrix = _matmul(text_matrix, ctm)
        scale = math.hypot(matrix[2], matrix[3]) or 1.0
        cleaned = text.strip()
        if cleaned:
            fragments.append((matrix[4], matrix[5], cleaned, abs(font_size * scale)))
        advance = len(text) * font_size * 0.5
        text_matrix = _matmul([1.0, 0.0, 0.0, 1.0, advance, 0.0], text_matrix)

    def next_line() -> None:
        nonlocal line_matrix, text_matrix
        line_matrix = _matmul([1.0, 0.0, 0.0, 1.0, 0.0, -leading], line_matrix)
        text_matrix = list(line_matrix)

    for kind, value in _pdf_tokens(content):
        if kind == "[":
            array = []
            continue
        if kind == "]":
            operands.append(array if array is not None else [])
            array = None
            continue
        if kind in ("num", "str", "name"):
            if array is not None:
                if kind in ("num", "str"):
                    array.append(value)
            else:
                operands.append(value)
            continue

        op = value
        if op == "q":
            stack.append(list(ctm))
        elif op == "Q":
            if stack:
                ctm = stack.pop()
        elif op == "cm":
            values = numbers(6)
            if values:
                ctm = _matmul(values, ctm)
        elif op == "BT":
            text_matrix = list(_IDENTITY)
            line_matrix = list(_IDENTITY)
        elif op == "Tf":
            values = numbers(1)
            if values:
                font_size = values[0]
        elif op == "TL":
            values = numbers(1)
            if values:
                leading = values[0]
        elif op in ("Td", "TD"):
            values = numbers(2)
            if values:
                tx, ty = values
                if op == "TD":
                    leading = -ty
                line_matrix = _matmul([1.0, 0.0, 0.0, 1.0, tx, ty], line_matrix)
                text_matrix = list(line_matrix)
        elif op == "Tm":
            values = numbers(6)
            if values:
                line_matrix = list(values)
                text_matrix = list(values)
        elif op == "T*":
            next_line()
        elif op == "Tj":
            strings = [item for item in operands if isinstance(item, bytes)]
            if strings:
                show(_decode_pdf_text(strings[-1]))
        elif op in ("'", '"'):
            next_line()
            strings = [item for item in operands if isinstance(item, bytes)]
            if strings:
                show(_decode_pdf_text(strings[-1]))
        elif op == "TJ":
            items = [item for item in operands if isinstance(item, list)]
            if items:
                parts: List[str] = []
                for item in items[-1]:
                    if isinstance(item, bytes):
                        parts.append(_decode_pdf_text(item))
                    elif isinstance(item, float) and item < -200:
                        parts.append(" ")
                show("".join(parts))
        operands = []
    return fragments


def _extract_pdf_grid(data: bytes) -> List[List[str]]:
    """Reconstruct table rows from the positioned text of a PDF."""
    fragments: List[Tuple[int, float, float, str, float]] = []
    for page_index, content in enumerate(_pdf_content_streams(data)):
        for x, y, text, size in _pdf_text_fragments(content):
            fragments.append((page_index, y, x, text, size))
    if not fragments:
        return []

    fragments.sort(key=lambda item: (item[0], -item[1], item[2]))
    lines: List[List[Tuple[float, str]]] = []
    current_page: Optional[int] = None
    current_y = 0.0
    for page_index, y, x, text, size in fragments:
        tolerance = max(2.0, size * 0.4)
        if lines and page_index == current_page and abs(current_y - y) <= tolerance:
            lines[-1].append((x, text))
        else:
            lines.append([(x, text)])
            current_page = page_index
            current_y = y
    for line in lines:
        line.sort(key=lambda item: item[0])

    counts = {len(line) for line in lines}
    if len(counts) == 1:
        return [[text for _, text in line] for line in lines]

    # Cluster x positions into column anchors.
    tolerance = 3.0
    positions = sorted(x for line in lines for x, _ in line)
    anchors: List[float] = []
    for position in positions:
        if not anchors or position - anchors[-1] > tolerance:
            anchors.append(position)

    grid: List[List[str]] = []
    for line in lines:
        cells = [""] * len(anchors)
        for x, text in line:
            column = 0
            for index, anchor in enumerate(anchors):
                if anchor <= x + tolerance:
                    column = index
                else:
                    break
            cells[column] = f"{cells[column]} {text}".strip() if cells[column] else text
        grid.append(cells)

    # Drop columns that never contain text.
    used = [index for index in range(len(anchors)) if any(row[index] for row in grid)]
    return [[row[index] for index in used] for row in grid]


_READERS: Dict[str, Callable[[bytes, Dict[str, Any]], Table]] = {
    "csv": _read_csv,
    "excel": _read_excel,
    "pdf": _read_pdf,
}

_WRITERS: Dict[str, Callable[[Table, Dict[str, Any]], bytes]] = {
    "csv": _write_csv,
    "excel": _write_excel,
    "pdf": _write_pdf,
}
