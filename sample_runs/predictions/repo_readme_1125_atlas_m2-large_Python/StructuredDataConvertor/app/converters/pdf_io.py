"""PDF reader / writer.

Writing renders the table with reportlab and, for loss-free round trips,
embeds the table as a JSON attachment (``structured-data.json``).  Reading
uses that attachment when present, otherwise extracts tables with
pdfplumber, and finally falls back to splitting the page text into rows.
"""
import io
import json
import logging
import re
import threading
from typing import List, Optional

import pdfplumber
from pypdf import PdfReader, PdfWriter
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.platypus import Paragraph, SimpleDocTemplate, Table as RLTable, TableStyle
from xml.sax.saxutils import escape

from ..errors import ConversionError
from ..schemas import ConversionOptions
from .sniff import is_pdf
from .table import Table

logger = logging.getLogger(__name__)

ATTACHMENT_NAME = "structured-data.json"
ATTACHMENT_FORMAT = "structured-data-convertor/table@1"
_CJK_FONT = "STSong-Light"
_render_lock = threading.Lock()  # reportlab keeps some global state
_fonts_registered = False
_SPLIT_RE = re.compile(r"\t| {2,}")
CHUNK_ROWS = 150


# --------------------------------------------------------------------- writer
def _ensure_fonts() -> None:
    global _fonts_registered
    if not _fonts_registered:
        pdfmetrics.registerFont(UnicodeCIDFont(_CJK_FONT))
        _fonts_registered = True


def _needs_unicode_font(rows: List[List[str]]) -> bool:
    for row in rows:
        for cell in row:
            try:
                cell.encode("cp1252")
            except UnicodeEncodeError:
                return True
    return False


def write_pdf(table: Table, options: ConversionOptions) -> bytes:
    rows = table.text_rows()
    columns = max(table.columns_count, 1)
    pagesize = landscape(A4) if columns > 5 else A4
    margin = 12 * mm
    available_width = pagesize[0] - 2 * margin
    font_size = 10 if columns <= 5 else (8 if columns <= 10 else 6)

    with _render_lock:
        unicode_font = _needs_unicode_font(rows)
        if unicode_font:
            _ensure_fonts()
        body_font = _CJK_FONT if unicode_font else "Helvetica"
        header_font = _CJK_FONT if unicode_font else "Helvetica-Bold"
        body_style = ParagraphStyle("cell", fontName=body_font, fontSize=font_size,
                                    leading=font_size * 1.2, wordWrap="CJK" if unicode_font else None)
        header_style = ParagraphStyle("header", parent=body_style, fontName=header_font)

        col_width = available_width / columns
        text_width = col_width - 12  # default cell padding: 6pt left + 6pt right
        cells = []
        for index, row in enumerate(rows):
            is_header = index == 0 and table.has_header
            style = header_style if is_header else body_style
            font = header_font if is_header else body_font
            line = []
            for c in row:
                # Plain strings render much faster; wrap only what does not fit.
                if "\n" not in c and pdfmetrics.stringWidth(c, font, font_size) <= text_width:
                    line.append(c)
                else:
                    line.append(Paragraph(escape(c).replace("\n", "<br/>"), style))
            cells.append(line)
        if not cells:
            cells = [[""]]

        commands = [
            ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("FONTNAME", (0, 0), (-1, -1), body_font),
            ("FONTSIZE", (0, 0), (-1, -1), font_size),
            ("LEADING", (0, 0), (-1, -1), font_size * 1.2),
        ]
        if table.has_header:
            commands.append(("FONTNAME", (0, 0), (-1, 0), header_font))
            commands.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dde4ee")))
        style = TableStyle(commands)

        # reportlab splits one long table across pages in quadratic time, so
        # render large data sets as consecutive tables of CHUNK_ROWS rows
        # (each repeating the header row, if any).
        header = cells[:1] if table.has_header else []
        body = cells[1:] if table.has_header else cells
        flowables = []
        for start in range(0, max(len(body), 1), CHUNK_ROWS):
            chunk = header + body[start:start + CHUNK_ROWS]
            grid = RLTable(chunk, colWidths=[col_width] * columns,
                           repeatRows=1 if header else 0)
            grid.setStyle(style)
            flowables.append(grid)

        buffer = io.BytesIO()
        doc = SimpleDocTemplate(buffer, pagesize=pagesize, leftMargin=margin, rightMargin=margin,
                                topMargin=margin, bottomMargin=margin,
                                title="Converted data", creator="StructuredDataConvertor")
        doc.build(flowables)

    return _embed_table(buffer.getvalue(), table)


def _embed_table(pdf_bytes: bytes, table: Table) -> bytes:
    payload = json.dumps(
        {"format": ATTACHMENT_FORMAT, "has_header": table.has_header, "rows": table.text_rows()},
        ensure_ascii=False,
    ).encode("utf-8")
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_bytes)))
    writer.add_attachment(ATTACHMENT_NAME, payload)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


# --------------------------------------------------------------------- reader
def _read_attachment(data: bytes) -> Optional[List[List[str]]]:
    try:
        reader = PdfReader(io.BytesIO(data))
        contents = reader.attachments.get(ATTACHMENT_NAME)
        if not contents:
            return None
        payload = json.loads(contents[0].decode("utf-8"))
        if payload.get("format") != ATTACHMENT_FORMAT:
            return None
        rows = payload.get("rows")
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            return None
        return [["" if c is None else str(c) for c in r] for r in rows]
    except Exception as exc:  # a damaged attachment should not block normal extraction
        logger.debug("No usable embedded table: %s", exc)
        return None


def _clean(cell: Optional[str]) -> str:
    return "" if cell is None else " ".join(cell.split())


def _extract_with_pdfplumber(data: bytes) -> List[List[str]]:
    rows: List[List[str]] = []
    text_rows: List[List[str]] = []
    header: Optional[List[str]] = None
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            for extracted in page.extract_tables():
                for raw in extracted:
                    row = [_clean(c) for c in raw]
                    if not any(row):
                        continue
                    if header is None:
                        header = row
                    elif row == header:
                        continue  # header repeated on a following page
                    rows.append(row)
            text = page.extract_text() or ""
            for line in text.splitlines():
                if line.strip():
                    text_rows.append([c.strip() for c in _SPLIT_RE.split(line.strip())])
    return rows if rows else text_rows


def read_pdf(data: bytes, options: ConversionOptions) -> Table:
    if not is_pdf(data):
        raise ConversionError("Invalid PDF data: missing %PDF header")
    rows = _read_attachment(data)
    if rows is None:
        try:
            rows = _extract_with_pdfplumber(data)
        except Exception as exc:
            raise ConversionError(f"Invalid PDF data: {exc.__class__.__name__}: {exc}")
    table = Table(rows=rows, has_header=options.has_header)
    if not table.rows:
        raise ConversionError("No tabular data or text could be extracted from the PDF")
    return table
