"""Excel (.xlsx) reader / writer based on openpyxl."""
import io
import re
import zipfile

from openpyxl import Workbook, load_workbook
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.utils.exceptions import InvalidFileException

from ..errors import ConversionError
from ..schemas import ConversionOptions
from .sniff import is_ole, is_zip
from .table import Table, cell_to_text, infer_value

DEFAULT_SHEET = "Sheet1"
_INVALID_SHEET_CHARS = re.compile(r"[\[\]:*?/\\]")


def read_excel(data: bytes, options: ConversionOptions) -> Table:
    if is_ole(data):
        raise ConversionError("Legacy .xls workbooks are not supported; please provide .xlsx data")
    if not is_zip(data):
        raise ConversionError("Invalid Excel data: not an .xlsx workbook")
    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError, ValueError) as exc:
        raise ConversionError(f"Invalid Excel data: {exc}")
    try:
        if options.sheet_name is not None:
            if options.sheet_name not in workbook.sheetnames:
                raise ConversionError(
                    f"Sheet '{options.sheet_name}' not found; available sheets: "
                    + ", ".join(workbook.sheetnames)
                )
            sheet = workbook[options.sheet_name]
        elif DEFAULT_SHEET in workbook.sheetnames:
            sheet = workbook[DEFAULT_SHEET]
        else:
            sheet = workbook.worksheets[0]
        rows = [list(row) for row in sheet.iter_rows(values_only=True)]
    finally:
        workbook.close()
    table = Table(rows=rows, has_header=options.has_header)
    if not table.rows:
        raise ConversionError("The Excel sheet contains no data")
    return table


def _sheet_title(options: ConversionOptions) -> str:
    title = options.sheet_name if options.sheet_name is not None else DEFAULT_SHEET
    if not title.strip() or len(title) > 31 or _INVALID_SHEET_CHARS.search(title):
        raise ConversionError(
            "Invalid sheet_name: must be 1-31 characters and must not contain [ ] : * ? / \\"
        )
    return title


def write_excel(table: Table, options: ConversionOptions) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = _sheet_title(options)
    rows = table.padded_rows()
    widths = [0] * table.columns_count
    for index, row in enumerate(rows, start=1):
        is_header = index == 1 and table.has_header
        values = [cell_to_text(c) if is_header else infer_value(c) for c in row]
        sheet.append(values)
        for col, value in enumerate(values, start=1):
            widths[col - 1] = max(widths[col - 1], len(cell_to_text(value)))
            if isinstance(value, str) and value.startswith("="):
                # Store text that starts with "=" as text, never as a formula.
                sheet.cell(row=index, column=col).data_type = "s"
    if table.has_header and rows:
        for col in range(1, table.columns_count + 1):
            sheet.cell(row=1, column=col).font = Font(bold=True)
        sheet.freeze_panes = "A2"
    for col, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(col)].width = min(max(width + 2, 8), 60)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
