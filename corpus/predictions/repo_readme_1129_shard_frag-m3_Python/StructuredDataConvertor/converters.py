"""Format readers and writers for StructuredDataConvertor.

Reads CSV / Excel / PDF bytes into an in-memory :class:`Table` and writes a
:class:`Table` back out as CSV / Excel / PDF bytes, honouring the conversion
options described in the README:

    encoding    file encoding for CSV data (default "utf-8")
    delimiter   CSV delimiter (default ",")
    has_header  whether the first row is a header row (default True)
    sheet_name  Excel sheet name (default "Sheet1")

Public API
----------
SUPPORTED_FORMATS                        ("csv", "excel", "pdf")
ConversionError                          ValueError raised for bad input/options
ConversionOptions / normalize_options()  validated options
Table                                    headers + rows (+ rows_count/columns_count)
normalize_format(fmt)                    canonical format name or ConversionError
read_table(data, source_format, options) -> Table
write_table(table, target_format, options) -> bytes
convert(data, source_format, target_format, options) -> (bytes, Table)

Excel support uses openpyxl when it is installed and falls back to a small
built-in xlsx reader/writer otherwise.  PDF output is produced by a built-in
writer (no dependency); the table is also embedded in the PDF so that PDFs
produced here convert back losslessly.  PDFs from elsewhere are read with
pdfplumber / pypdf when available, otherwise with a simple text extractor.
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
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple
from xml.etree import ElementTree as ET
from xml.sax.saxutils import escape as _xml_escape

__all__ = [
    "SUPPORTED_FORMATS",
    "DEFAULT_OPTIONS",
    "ConversionError",
    "ConversionOptions",
    "Table",
    "normalize_format",
    "is_supported_format",
    "normalize_options",
    "read_table",
    "write_table",
    "convert",
    "read_csv",
    "read_excel",
    "read_pdf",
    "write_csv",
    "write_excel",
    "write_pdf",
]

SUPPORTED_FORMATS: Tuple[str, ...] = ("csv", "excel", "pdf")

_FORMAT_ALIASES = {
    "csv": "csv",
    "txt": "csv",
    "excel": "excel",
    "xlsx": "excel",
    "xls": "excel",
    "xlsm": "excel",
    "pdf": "pdf",
}

DEFAULT_OPTIONS: Dict[str, Any] = {
    "encoding": "utf-8",
    "delimiter": ",",
    "has_header": True,
    "sheet_name": "Sheet1",
}


class ConversionError(ValueError):
    """Raised when data cannot be read/written or options are invalid."""


# ---------------------------------------------------------------------------
# Formats and options
# ---------------------------------------------------------------------------

def normalize_format(fmt: Any) -> str:
    """Return the canonical format name ("csv", "excel" or "pdf")."""
    if not isinstance(fmt, str) or not fmt.strip():
        raise ConversionError("Format must be a non-empty string")
    key = fmt.strip().lower().lstrip(".")
    if key not in _FORMAT_ALIASES:
        raise ConversionError(
            f"Unsupported format: {fmt}. Supported formats: {', '.join(SUPPORTED_FORMATS)}"
        )
    return _FORMAT_ALIASES[key]


def is_supported_format(fmt: Any) -> bool:
    try:
        normalize_format(fmt)
        return True
    except ConversionError:
        return False


_BOOL_STRINGS = {
    "true": True, "1": True, "yes": True, "y": True, "on": True,
    "false": False, "0": False, "no": False, "n": False, "off": False,
}

_DELIMITER_NAMES = {"\\t": "\t", "tab": "\t", "comma": ",", "semicolon": ";",
                    "pipe": "|", "space": " "}


@dataclass
class ConversionOptions:
    """Validated conversion options."""

    encoding: str = "utf-8"
    delimiter: str = ","
    has_header: bool = True
    sheet_name: str = "Sheet1"

    @classmethod
    def from_mapping(cls, options: Optional[Mapping[str, Any]]) -> "ConversionOptions":
        if options is None:
            return cls()
        if not isinstance(options, Mapping):
            raise ConversionError("options must be an object")

        encoding = options.get("encoding")
        if encoding is None or encoding == "":
            encoding = DEFAULT_OPTIONS["encoding"]
        if not isinstance(encoding, str):
            raise ConversionError("options.encoding must be a string")
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise ConversionError(f"Unknown encoding: {encoding}") from None

        delimiter = options.get("delimiter")
        if delimiter is None or delimiter == "":
            delimiter = DEFAULT_OPTIONS["delimiter"]
        if not isinstance(delimiter, str):
            raise ConversionError("options.delimiter must be a string")
        delimiter = _DELIMITER_NAMES.get(delimiter.lower(), delimiter) if len(delimiter) > 1 else delimiter
        if len(delimiter) != 1:
            raise ConversionError("options.delimiter must be a single character")
        if delimiter in ('"', "\r", "\n"):
            raise ConversionError("options.delimiter must not be a quote or line break")

        has_header = options.get("has_header", DEFAULT_OPTIONS["has_header"])
        if has_header is None:
            has_header = DEFAULT_OPTIONS["has_header"]
        if isinstance(has_header, str):
            key = has_header.strip().lower()
            if key not in _BOOL_STRINGS:
                raise ConversionError("options.has_header must be a boolean")
            has_header = _BOOL_STRINGS[key]
        elif isinstance(has_header, int) and not isinstance(has_header, bool) and has_header in (0, 1):
            has_header = bool(has_header)
        elif not isinstance(has_header, bool):
            raise ConversionError("options.has_header must be a boolean")

        sheet_name = options.get("sheet_name")
        if sheet_name is None or (isinstance(sheet_name, str) and not sheet_name.strip()):
            sheet_name = DEFAULT_OPTIONS["sheet_name"]
        if not isinstance(sheet_name, str):
            raise ConversionError("options.sheet_name must be a string")

        return cls(encoding=encoding, delimiter=delimiter,
                   has_header=has_header, sheet_name=sheet_name)

    # Alias matching common naming.
    from_dict = from_mapping

    def to_dict(self) -> Dict[str, Any]:
        return {
            "encoding": self.encoding,
            "delimiter": self.delimiter,
            "has_header": self.has_header,
            "sheet_name": self.sheet_name,
        }


def normalize_options(options: Any = None, **overrides: Any) -> ConversionOptions:
    """Turn None / dict / ConversionOptions (+ keyword overrides) into options."""
    if isinstance(options, ConversionOptions):
        if not overrides:
            return options
        merged = options.to_dict()
    elif options is None:
        merged = {}
    elif isinstance(options, Mapping):
        merged = dict(options)
    else:
        raise ConversionError("options must be an object")
    merged.update({k: v for k, v in overrides.items() if v is not None})
    return ConversionOptions.from_mapping(merged)


# ---------------------------------------------------------------------------
# Table model
# ---------------------------------------------------------------------------

@dataclass
class Table:
    """A rectangular table: column headers plus data rows.

    ``has_header`` tells whether ``headers`` came from the data (True) or were
    generated ("Column1", ...) because the source had no header row.
    """

    headers: List[str] = field(default_factory=list)
    rows: List[List[Any]] = field(default_factory=list)
    has_header: bool = True

    @property
    def rows_count(self) -> int:
        return len(self.rows)

    @property
    def columns_count(self) -> int:
        if self.headers:
            return len(self.headers)
        return max((len(r) for r in self.rows), default=0)

    # DataFrame-like conveniences
    @property
    def columns(self) -> List[str]:
        return list(self.headers)

    @property
    def shape(self) -> Tuple[int, int]:
        return (self.rows_count, self.columns_count)

    @property
    def empty(self) -> bool:
        return self.rows_count == 0

    def __len__(self) -> int:
        return self.rows_count

    def __iter__(self) -> Iterator[Any]:
        # Allows ``headers, rows = table``.
        yield self.headers
        yield self.rows

    def to_grid(self, include_header: bool = True) -> List[List[Any]]:
        grid: List[List[Any]] = []
        if include_header and self.headers:
            grid.append(list(self.headers))
        grid.extend(list(r) for r in self.rows)
        return grid

    def to_dict(self) -> Dict[str, Any]:
        return {"headers": list(self.headers), "rows": [list(r) for r in self.rows]}


def _is_blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value.strip() == "")


def _grid_to_table(grid: Sequence[Sequence[Any]], has_header: bool,
                   skip_blank_rows: bool = True) -> Table:
    rows = [list(r) for r in grid]
    if skip_blank_rows:
        rows = [r for r in rows if not all(_is_blank(v) for v in r)]
    width = max((len(r) for r in rows), default=0)
    for r in rows:
        if len(r) < width:
            r.extend([""] * (width - len(r)))
        for i, v in enumerate(r):
            if v is None:
                r[i] = ""
    if has_header and rows:
        headers = [_stringify(v) for v in rows[0]]
        return Table(headers=headers, rows=rows[1:], has_header=True)
    headers = [f"Column{i + 1}" for i in range(width)]
    return Table(headers=headers, rows=rows, has_header=False)


def _coerce_table(table: Any) -> Table:
    """Accept a Table, a (headers, rows) pair or a dict with headers/rows."""
    if isinstance(table, Table):
        return table
    if isinstance(table, Mapping) and "rows" in table:
        return Table(headers=[_stringify(h) for h in table.get("headers") or []],
                     rows=[list(r) for r in table["rows"]])
    if isinstance(table, (tuple, list)) and len(table) == 2:
        headers, rows = table
        return Table(headers=[_stringify(h) for h in headers or []],
                     rows=[list(r) for r in rows or []])
    raise ConversionError("Unsupported table object")


# ---------------------------------------------------------------------------
# Value helpers
# ---------------------------------------------------------------------------

def _stringify(value: Any) -> str:
    """Text representation of a cell value (CSV / PDF output)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return ""
        return repr(value)
    if isinstance(value, _dt.datetime):
        if value.time() == _dt.time(0, 0) and value.tzinfo is None:
            return value.date().isoformat()
        return value.isoformat(sep=" ")
    if isinstance(value, (_dt.date, _dt.time)):
        return value.isoformat()
    if isinstance(value, _dt.timedelta):
        return str(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return str(value)


_INT_RE = re.compile(r"^-?\d{1,15}$")
_FLOAT_RE = re.compile(r"^-?\d{1,15}\.\d{1,15}$")


def _coerce_for_excel(value: Any) -> Any:
    """Store numeric-looking strings as numbers when that is lossless."""
    if value is None:
        return None
    if isinstance(value, str):
        if value == "":
            return None
        if _INT_RE.match(value):
            number = int(value)
            if str(number) == value:
                return number
        elif _FLOAT_RE.match(value):
            number = float(value)
            if repr(number) == value:
                return number
        return value
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    if isinstance(value, (bool, int, float, _dt.datetime, _dt.date, _dt.time)):
        return value
    return _stringify(value)


def _json_safe(value: Any) -> Any:
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    return _stringify(value)


def _to_bytes(data: Any, encoding: str = "utf-8") -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    if isinstance(data, str):
        return data.encode(encoding)
    raise ConversionError("Source data must be bytes")


# ---------------------------------------------------------------------------
# CSV
# ---------------------------------------------------------------------------

def read_csv(data: bytes, options: ConversionOptions) -> Table:
    encoding = options.encoding
    if codecs.lookup(encoding).name == "utf-8":
        encoding = "utf-8-sig"  # transparently drop a BOM
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        raise ConversionError(
            f"Failed to decode CSV data with encoding '{options.encoding}'"
        ) from None
    if not text.strip():
        raise ConversionError("CSV data is empty")
    if "\x00" in text:
        raise ConversionError("Invalid CSV data: contains binary content")
    try:
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=options.delimiter)
        grid = [row for row in reader if row]
    except csv.Error as exc:
        raise ConversionError(f"Invalid CSV data: {exc}") from None
    if not grid:
        raise ConversionError("CSV data is empty")
    return _grid_to_table(grid, options.has_header)


def write_csv(table: Table, options: ConversionOptions) -> bytes:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, delimiter=options.delimiter, lineterminator="\n")
    if options.has_header and table.headers:
        writer.writerow([_stringify(h) for h in table.headers])
    for row in table.rows:
        writer.writerow([_stringify(v) for v in row])
    try:
        return buffer.getvalue().encode(options.encoding)
    except UnicodeEncodeError:
        raise ConversionError(
            f"Data cannot be encoded with encoding '{options.encoding}'"
        ) from None


# ---------------------------------------------------------------------------
# Excel
# ---------------------------------------------------------------------------

_INVALID_SHEET_CHARS = re.compile(r"[\[\]:*?/\\]")
_ILLEGAL_XML_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _safe_sheet_name(name: str) -> str:
    cleaned = _INVALID_SHEET_CHARS.sub("_", name or "").strip().strip("'")
    cleaned = cleaned[:31]
    return cleaned or DEFAULT_OPTIONS["sheet_name"]


def _trim_excel_grid(grid: List[List[Any]]) -> List[List[Any]]:
    trimmed = []
    for row in grid:
        row = list(row)
        while row and _is_blank(row[-1]):
            row.pop()
        trimmed.append(row)
    while trimmed and not trimmed[-1]:
        trimmed.pop()
    return trimmed


def _select_sheet_name(sheet_names: List[str], requested: str) -> str:
    if not sheet_names:
        raise ConversionError("Excel workbook contains no worksheets")
    if requested in sheet_names:
        return requested
    for name in sheet_names:
        if name.lower() == requested.lower():
            return name
    if requested == DEFAULT_OPTIONS["sheet_name"]:
        return sheet_names[0]
    raise ConversionError(
        f"Sheet '{requested}' not found. Available sheets: {', '.join(sheet_names)}"
    )


def read_excel(data: bytes, options: ConversionOptions) -> Table:
    if not data:
        raise ConversionError("Excel data is empty")
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        return _read_xls_legacy(data, options)
    if data[:2] != b"PK" or not zipfile.is_zipfile(io.BytesIO(data)):
        raise ConversionError("Invalid Excel data: not an .xlsx workbook")
    try:
        import openpyxl  # type: ignore
    except ImportError:
        grid = _read_xlsx_minimal(data, options.sheet_name)
        return _grid_to_table(_trim_excel_grid(grid), options.has_header)
    try:
        workbook = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
    except Exception as exc:  # BadZipFile, InvalidFileException, KeyError, ...
        raise ConversionError(f"Invalid Excel data: {exc}") from None
    try:
        sheet = workbook[_select_sheet_name(workbook.sheetnames, options.sheet_name)]
        grid = [list(row) for row in sheet.iter_rows(values_only=True)]
    finally:
        workbook.close()
    return _grid_to_table(_trim_excel_grid(grid), options.has_header)


def _read_xls_legacy(data: bytes, options: ConversionOptions) -> Table:
    try:
        import xlrd  # type: ignore
    except ImportError:
        raise ConversionError("Legacy .xls workbooks are not supported; use .xlsx") from None
    try:
        book = xlrd.open_workbook(file_contents=data)
        sheet = book.sheet_by_name(_select_sheet_name(book.sheet_names(), options.sheet_name))
        grid = [sheet.row_values(i) for i in range(sheet.nrows)]
    except ConversionError:
        raise
    except Exception as exc:
        raise ConversionError(f"Invalid Excel data: {exc}") from None
    return _grid_to_table(_trim_excel_grid(grid), options.has_header)


def write_excel(table: Table, options: ConversionOptions) -> bytes:
    grid: List[List[Any]] = []
    if options.has_header and table.headers:
        grid.append([_stringify(h) or None for h in table.headers])
    grid.extend([_coerce_for_excel(v) for v in row] for row in table.rows)
    sheet_name = _safe_sheet_name(options.sheet_name)

    try:
        import openpyxl  # type: ignore
    except ImportError:
        return _write_xlsx_minimal(grid, sheet_name)

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = sheet_name
    for r_idx, row in enumerate(grid, start=1):
        for c_idx, value in enumerate(row, start=1):
            if value is None:
                continue
            if isinstance(value, str):
                value = _ILLEGAL_XML_CHARS.sub("", value)
                cell = sheet.cell(row=r_idx, column=c_idx, value=value)
                cell.data_type = "s"  # never interpret text such as "=1+1" as a formula
            else:
                sheet.cell(row=r_idx, column=c_idx, value=value)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


# -- minimal xlsx implementation (used only when openpyxl is unavailable) ---

_NS_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_NS_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_NS_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"


def _column_letter(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def _column_index(ref: str) -> int:
    index = 0
    for ch in ref:
        if ch.isalpha():
            index = index * 26 + (ord(ch.upper()) - 64)
        else:
            break
    return index - 1


def _write_xlsx_minimal(grid: List[List[Any]], sheet_name: str) -> bytes:
    rows_xml = []
    for r_idx, row in enumerate(grid, start=1):
        cells = []
        for c_idx, value in enumerate(row):
            if value is None:
                continue
            ref = f"{_column_letter(c_idx)}{r_idx}"
            if isinstance(value, bool):
                cells.append(f'<c r="{ref}" t="b"><v>{int(value)}</v></c>')
            elif isinstance(value, (int, float)):
                cells.append(f'<c r="{ref}"><v>{value!r}</v></c>')
            else:
                text = _xml_escape(_ILLEGAL_XML_CHARS.sub("", _stringify(value)))
                cells.append(
                    f'<c r="{ref}" t="inlineStr"><is><t xml:space="preserve">{text}</t></is></c>'
                )
        rows_xml.append(f'<row r="{r_idx}">{"".join(cells)}</row>')

    header = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    files = {
        "[Content_Types].xml": header + (
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
            '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
            '</Types>'
        ),
        "_rels/.rels": header + (
            f'<Relationships xmlns="{_NS_PKG_REL}">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
            '</Relationships>'
        ),
        "xl/workbook.xml": header + (
            f'<workbook xmlns="{_NS_MAIN}" xmlns:r="{_NS_REL}"><sheets>'
            f'<sheet name="{_xml_escape(sheet_name, {chr(34): "&quot;"})}" sheetId="1" r:id="rId1"/>'
            '</sheets></workbook>'
        ),
        "xl/_rels/workbook.xml.rels": header + (
            f'<Relationships xmlns="{_NS_PKG_REL}">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
            '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>'
            '</Relationships>'
        ),
        "xl/styles.xml": header + (
            f'<styleSheet xmlns="{_NS_MAIN}">'
            '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>'
            '<fills count="2"><fill><patternFill patternType="none"/></fill>'
            '<fill><patternFill patternType="gray125"/></fill></fills>'
            '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
            '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
            '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>'
            '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
            '</styleSheet>'
        ),
        "xl/worksheets/sheet1.xml": header + (
            f'<worksheet xmlns="{_NS_MAIN}"><sheetData>{"".join(rows_xml)}</sheetData></worksheet>'
        ),
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content.encode("utf-8"))
    return buffer.getvalue()


def _read_xlsx_minimal(data: bytes, requested_sheet: str) -> List[List[Any]]:
    main = f"{{{_NS_MAIN}}}"
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = set(archive.namelist())
        workbook = ET.fromstring(archive.read("xl/workbook.xml"))
        rels = ET.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
        targets = {rel.get("Id"): rel.get("Target") for rel in rels.iter(f"{{{_NS_PKG_REL}}}Relationship")}
        sheets = [(s.get("name"), s.get(f"{{{_NS_REL}}}id")) for s in workbook.iter(f"{main}sheet")]
        chosen = _select_sheet_name([name for name, _ in sheets], requested_sheet)
        target = targets[dict(sheets)[chosen]]
        path = target.lstrip("/") if target.startswith("/") else "xl/" + target

        shared: List[str] = []
        if "xl/sharedStrings.xml" in names:
            sst = ET.fromstring(archive.read("xl/sharedStrings.xml"))
            for si in sst.findall(f"{main}si"):
                parts = [t.text or "" for t in si.iter(f"{main}t")]
                shared.append("".join(parts))

        sheet = ET.fromstring(archive.read(path))
    except ConversionError:
        raise
    except Exception as exc:
        raise ConversionError(f"Invalid Excel data: {exc}") from None

    grid: List[List[Any]] = []
    next_row = 0
    for row in sheet.iter(f"{main}row"):
        r_attr = row.get("r")
        r_idx = int(r_attr) - 1 if r_attr and r_attr.isdigit() else next_row
        next_row = r_idx + 1
        while len(grid) <= r_idx:
            grid.append([])
        values = grid[r_idx]
        next_col = 0
        for cell in row.findall(f"{main}c"):
            ref = cell.get("r")
            c_idx = _column_index(ref) if ref else next_col
            next_col = c_idx + 1
            kind = cell.get("t")
            v = cell.find(f"{main}v")
            raw = v.text if v is not None else None
            if kind == "s" and raw is not None:
                value: Any = shared[int(raw)]
            elif kind == "inlineStr":
                value = "".join(t.text or "" for t in cell.iter(f"{main}t"))
            elif kind == "b":
                value = raw == "1"
            elif kind in ("str", "e", "d"):
                value = raw
            elif raw is None:
                value = None
            else:
                try:
                    value = int(raw) if re.fullmatch(r"-?\d+", raw) else float(raw)
                except ValueError:
                    value = raw
            while len(values) <= c_idx:
                values.append(None)
            values[c_idx] = value
    return grid


# ---------------------------------------------------------------------------
# PDF
# ---------------------------------------------------------------------------

_PDF_PAYLOAD_MARKER = b"SDC-TABLE-V1:"
_PDF_PAYLOAD_RE = re.compile(rb"SDC-TABLE-V1:([A-Za-z0-9+/=]+)")


def _pdf_text(text: str) -> bytes:
    """Encode text as a PDF literal string body (WinAnsi, escaped)."""
    raw = text.encode("cp1252", errors="replace")
    out = bytearray()
    for byte in raw:
        if byte in (0x5C, 0x28, 0x29):  # \ ( )
            out += b"\\" + bytes([byte])
        elif byte < 32 or byte == 127:
            out += b" "
        else:
            out.append(byte)
    return bytes(out)


def _fmt(number: float) -> str:
    return f"{number:.2f}".rstrip("0").rstrip(".")


def write_pdf(table: Table, options: ConversionOptions) -> bytes:
    include_header = bool(options.has_header and table.headers)
    header = [_stringify(h) for h in table.headers] if include_header else []
    body = [[_stringify(v) for v in row] for row in table.rows]
    n_cols = max([len(header)] + [len(r) for r in body]) if (header or body) else 0

    font_size = 9.0 if n_cols <= 8 else (7.0 if n_cols <= 14 else 6.0)
    char_width = font_size * 0.55
    padding = 6.0
    margin = 36.0

    natural = []
    for c in range(n_cols):
        lengths = [len(header[c])] if c < len(header) else []
        lengths += [len(r[c]) for r in body if c < len(r)]
        longest = min(max(lengths, default=1), 60)
        natural.append(max(longest, 3) * char_width + padding)

    page_w, page_h = 595.0, 842.0  # A4 portrait
    if sum(natural) > page_w - 2 * margin:
        page_w, page_h = page_h, page_w  # landscape
    available = page_w - 2 * margin
    total = sum(natural) or 1.0
    widths = [w * available / total for w in natural] if total > available else natural
    max_chars = [max(1, int((w - padding) / char_width)) for w in widths]
    x_positions = []
    x = margin
    for w in widths:
        x_positions.append(x)
        x += w

    def fit(text: str, col: int) -> str:
        limit = max_chars[col]
        if len(text) <= limit:
            return text
        return text[: max(1, limit - 3)] + "..." if limit > 3 else text[:limit]

    line_height = font_size * 1.5
    usable_lines = int((page_h - 2 * margin) / line_height)
    rows_per_page = max(1, usable_lines - (2 if include_header else 0))
    chunks = [body[i:i + rows_per_page] for i in range(0, len(body), rows_per_page)] or [[]]

    page_streams: List[bytes] = []
    for chunk in chunks:
        parts: List[bytes] = [b"BT"]
        y = page_h - margin - font_size
        if include_header:
            parts.append(f"/F2 {_fmt(font_size)} Tf".encode())
            for c, text in enumerate(header):
                parts.append(
                    f"1 0 0 1 {_fmt(x_positions[c])} {_fmt(y)} Tm (".encode()
                    + _pdf_text(fit(text, c)) + b") Tj"
                )
            header_y = y
            y -= line_height * 2
        parts.append(f"/F1 {_fmt(font_size)} Tf".encode())
        for row in chunk:
            for c, text in enumerate(row):
                if text == "":
                    continue
                parts.append(
                    f"1 0 0 1 {_fmt(x_positions[c])} {_fmt(y)} Tm (".encode()
                    + _pdf_text(fit(text, c)) + b") Tj"
                )
            y -= line_height
        parts.append(b"ET")
        if include_header and n_cols:
            line_y = header_y - font_size * 0.6
            parts.append(
                f"0.5 w {_fmt(margin)} {_fmt(line_y)} m "
                f"{_fmt(margin + sum(widths))} {_fmt(line_y)} l S".encode()
            )
        page_streams.append(b"\n".join(parts))

    # Embedded copy of the table so PDFs written here read back losslessly.
    payload = {
        "version": 1,
        "has_header": include_header,
        "headers": [_json_safe(h) for h in table.headers] if include_header else [],
        "rows": [[_json_safe(v) for v in row] for row in table.rows],
    }
    payload_data = _PDF_PAYLOAD_MARKER + base64.b64encode(
        zlib.compress(json.dumps(payload, ensure_ascii=False).encode("utf-8"))
    )

    def stream(content: bytes, extra: str = "") -> bytes:
        return (f"<< {extra}/Length {len(content)} >>\nstream\n".encode()
                + content + b"\nendstream")

    objects: List[bytes] = []
    n_pages = len(page_streams)
    first_page_obj = 7
    kids = " ".join(f"{first_page_obj + 2 * i} 0 R" for i in range(n_pages))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R /SDCTableData 5 0 R >>")                  # 1
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())            # 2
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
                   b"/Encoding /WinAnsiEncoding >>")                                            # 3
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold "
                   b"/Encoding /WinAnsiEncoding >>")                                            # 4
    objects.append(stream(payload_data, "/Type /EmbeddedTableData "))                          # 5
    created = _dt.datetime.now(_dt.timezone.utc).strftime("D:%Y%m%d%H%M%SZ")
    objects.append(f"<< /Producer (StructuredDataConvertor) /Title (Converted table) "
                   f"/CreationDate ({created}) >>".encode())                                   # 6
    for i, content in enumerate(page_streams):
        page_obj = first_page_obj + 2 * i
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {_fmt(page_w)} {_fmt(page_h)}] "
            f"/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> "
            f"/Contents {page_obj + 1} 0 R >>".encode()
        )
        objects.append(stream(content))

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body_bytes in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body_bytes + b"\nendobj\n"
    xref_pos = len(out)
    out += f"xref\n0 {len(objects) + 1}\n".encode()
    out += b"0000000000 65535 f \n"
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 6 0 R >>\n"
            f"startxref\n{xref_pos}\n%%EOF\n").encode()
    return bytes(out)


def read_pdf(data: bytes, options: ConversionOptions) -> Table:
    if not data or b"%PDF-" not in data[:1024]:
        raise ConversionError("Invalid PDF data: missing PDF header")

    match = _PDF_PAYLOAD_RE.search(data)
    if match:
        try:
            payload = json.loads(zlib.decompress(base64.b64decode(match.group(1))).decode("utf-8"))
            grid = ([payload["headers"]] if payload.get("has_header") else []) + payload["rows"]
            return _grid_to_table(grid, options.has_header)
        except Exception:
            pass  # damaged payload: fall back to text extraction

    grid = _extract_pdf_grid(data)
    if not grid:
        raise ConversionError("No table data found in PDF")
    if options.has_header and len(grid) > 1:
        # Drop header rows repeated at the top of following pages.
        first = grid[0]
        grid = [first] + [row for row in grid[1:] if row != first]
    return _grid_to_table(grid, options.has_header)


_CELL_SPLIT_RE = re.compile(r"\t|\s{2,}|\s*\|\s*")


def _lines_to_grid(lines: List[str]) -> List[List[str]]:
    grid = []
    for line in lines:
        if not line.strip():
            continue
        cells = [c for c in _CELL_SPLIT_RE.split(line.strip())]
        grid.append(cells)
    return grid


def _extract_pdf_grid(data: bytes) -> List[List[Any]]:
    # 1) pdfplumber understands real table structure.
    try:
        import pdfplumber  # type: ignore
    except ImportError:
        pdfplumber = None
    if pdfplumber is not None:
        try:
            grid: List[List[Any]] = []
            lines: List[str] = []
            with pdfplumber.open(io.BytesIO(data)) as pdf:
                for page in pdf.pages:
                    for table in page.extract_tables() or []:
                        grid.extend([c if c is not None else "" for c in row] for row in table)
                    lines.extend((page.extract_text() or "").splitlines())
            if grid:
                return grid
            if any(line.strip() for line in lines):
                return _lines_to_grid(lines)
        except Exception:
            pass

    # 2) The built-in extractor handles positioned text well (one item per cell).
    try:
        grid = _naive_pdf_grid(data)
        if grid:
            return grid
    except Exception:
        pass

    # 3) pypdf / PyPDF2 plain text as a last resort.
    for module_name in ("pypdf", "PyPDF2"):
        try:
            module = __import__(module_name)
            reader = module.PdfReader(io.BytesIO(data))
            lines = []
            for page in reader.pages:
                lines.extend((page.extract_text() or "").splitlines())
            if any(line.strip() for line in lines):
                return _lines_to_grid(lines)
        except Exception:
            continue
    return []


_OBJ_STREAM_RE = re.compile(
    rb"\d+\s+\d+\s+obj\s*<<((?:(?!endobj).)*?)>>\s*stream\r?\n", re.S
)
_TOKEN_RE = re.compile(
    rb"\((?:\\.|[^\\()])*\)|<[0-9A-Fa-f\s]*>|\[|\]|/[^\s/\[\]()<>{}]+"
    rb"|[-+]?(?:\d+\.?\d*|\.\d+)|[A-Za-z'\"*]+",
    re.S,
)
_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}


def _decode_literal(token: bytes) -> str:
    body = token[1:-1]
    out = bytearray()
    i = 0
    while i < len(body):
        ch = body[i:i + 1]
        if ch == b"\\" and i + 1 < len(body):
            nxt = body[i + 1:i + 2]
            if nxt in _ESCAPES:
                out += _ESCAPES[nxt]
                i += 2
            elif nxt.isdigit():
                octal = re.match(rb"[0-7]{1,3}", body[i + 1:i + 4])
                if octal:
                    out.append(int(octal.group(0), 8) & 0xFF)
                    i += 1 + len(octal.group(0))
                else:
                    i += 2
            elif nxt in (b"\n", b"\r"):
                i += 2
            else:
                out += nxt
                i += 2
        else:
            out += ch
            i += 1
    return out.decode("cp1252", errors="replace")


def _decode_hex(token: bytes) -> str:
    digits = re.sub(rb"\s", b"", token[1:-1])
    if len(digits) % 2:
        digits += b"0"
    try:
        return bytes.fromhex(digits.decode()).decode("cp1252", errors="replace")
    except ValueError:
        return ""


def _naive_pdf_grid(data: bytes) -> List[List[str]]:
    grid: List[List[str]] = []
    for match in _OBJ_STREAM_RE.finditer(data):
        header = match.group(1)
        end = data.find(b"endstream", match.end())
        if end < 0:
            continue
        content = data[match.end():end]
        if b"/FlateDecode" in header:
            try:
                content = zlib.decompressobj().decompress(content)
            except zlib.error:
                continue
        elif b"/Filter" in header:
            continue
        if b"BT" not in content:
            continue
        grid.extend(_content_to_rows(content))
    return grid


def _content_to_rows(content: bytes) -> List[List[str]]:
    items: List[Tuple[float, float, str]] = []
    operands: List[Any] = []
    array: Optional[List[Any]] = None
    x = y = line_x = line_y = 0.0
    leading = 0.0
    fresh_position = True

    def show(text: str) -> None:
        nonlocal fresh_position
        if not fresh_position and items and items[-1][0] == y:
            last = items[-1]
            items[-1] = (last[0], last[1], last[2] + text)
        else:
            items.append((y, x, text))
        fresh_position = False

    for token_match in _TOKEN_RE.finditer(content):
        token = token_match.group(0)
        first = token[:1]
        if first == b"(":
            value: Any = _decode_literal(token)
        elif first == b"<":
            value = _decode_hex(token)
        elif token == b"[":
            array = []
            continue
        elif token == b"]":
            operands.append(array or [])
            array = None
            continue
        elif first == b"/":
            value = token
        elif re.fullmatch(rb"[-+]?(?:\d+\.?\d*|\.\d+)", token):
            value = float(token)
        else:
            op = token
            if op == b"BT":
                x = y = line_x = line_y = 0.0
                fresh_position = True
            elif op == b"Tm" and len(operands) >= 6:
                line_x, line_y = float(operands[-2]), float(operands[-1])
                x, y = line_x, line_y
                fresh_position = True
            elif op in (b"Td", b"TD") and len(operands) >= 2:
                line_x += float(operands[-2])
                line_y += float(operands[-1])
                if op == b"TD":
                    leading = -float(operands[-1])
                x, y = line_x, line_y
                fresh_position = True
            elif op == b"TL" and operands:
                leading = float(operands[-1])
            elif op == b"T*":
                line_y -= leading
                x, y = line_x, line_y
                fresh_position = True
            elif op == b"Tj" and operands and isinstance(operands[-1], str):
                show(operands[-1])
            elif op == b"TJ" and operands and isinstance(operands[-1], list):
                text = ""
                for part in operands[-1]:
                    if isinstance(part, str):
                        text += part
                    elif isinstance(part, float) and part < -200:
                        text += " "
                show(text)
            elif op in (b"'", b'"') and operands and isinstance(operands[-1], str):
                line_y -= leading
                x, y = line_x, line_y
                fresh_position = True
                show(operands[-1])
            operands = []
            continue
        if array is not None:
            array.append(value)
        else:
            operands.append(value)

    lines: Dict[float, List[Tuple[float, str]]] = {}
    for item_y, item_x, text in items:
        lines.setdefault(round(item_y, 1), []).append((item_x, text))
    rows = []
    for key in sorted(lines, reverse=True):
        cells = [text for _, text in sorted(lines[key], key=lambda t: t[0])]
        if len(cells) == 1:
            split = _CELL_SPLIT_RE.split(cells[0].strip())
            cells = split if len(split) > 1 else cells
        rows.append(cells)
    return rows


# ---------------------------------------------------------------------------
# Dispatch
# ---------------------------------------------------------------------------

_READERS = {"csv": read_csv, "excel": read_excel, "pdf": read_pdf}
_WRITERS = {"csv": write_csv, "excel": write_excel, "pdf": write_pdf}


def read_table(data: Any, source_format: str, options: Any = None, **kwargs: Any) -> Table:
    """Parse ``data`` (bytes) in ``source_format`` into a Table."""
    fmt = normalize_format(source_format)
    opts = normalize_options(options, **kwargs)
    raw = _to_bytes(data, opts.encoding)
    if not raw:
        raise ConversionError("Source data is empty")
    try:
        return _READERS[fmt](raw, opts)
    except ConversionError:
        raise
    except Exception as exc:  # any parser failure is a bad-input error
        raise ConversionError(f"Failed to read {fmt} data: {exc}") from exc


def write_table(table: Any, target_format: str, options: Any = None, **kwargs: Any) -> bytes:
    """Serialise a Table to ``target_format`` bytes."""
    fmt = normalize_format(target_format)
    opts = normalize_options(options, **kwargs)
    table = _coerce_table(table)
    try:
        return _WRITERS[fmt](table, opts)
    except ConversionError:
        raise
    except Exception as exc:
        raise ConversionError(f"Failed to write {fmt} data: {exc}") from exc


def convert(data: Any, source_format: str, target_format: str,
            options: Any = None, **kwargs: Any) -> Tuple[bytes, Table]:
    """Convert bytes between formats; returns ``(output_bytes, table)``."""
    opts = normalize_options(options, **kwargs)
    table = read_table(data, source_format, opts)
    return write_table(table, target_format, opts), table


# Alternative names.
convert_data = convert
parse = read_table
serialize = write_table
