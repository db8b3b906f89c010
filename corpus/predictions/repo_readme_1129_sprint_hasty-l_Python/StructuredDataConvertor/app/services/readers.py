"""Read raw bytes of a given format into a DataFrame."""
import csv
import io

import pandas as pd

from app.schemas import ConversionOptions


class ConversionError(ValueError):
    """Raised when input data cannot be parsed or converted."""


def read_csv(raw: bytes, opts: ConversionOptions) -> pd.DataFrame:
    try:
        text = raw.decode(opts.encoding or "utf-8")
    except (UnicodeDecodeError, LookupError) as exc:
        raise ConversionError(f"Unable to decode CSV data: {exc}")
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise ConversionError("CSV data is empty")
    try:
        df = pd.read_csv(
            io.StringIO(text),
            sep=opts.delimiter or ",",
            header=0 if opts.has_header else None,
            dtype=str,
            keep_default_na=False,
            skip_blank_lines=True,
        )
    except (pd.errors.ParserError, pd.errors.EmptyDataError, csv.Error) as exc:
        raise ConversionError(f"Invalid CSV data: {exc}")
    return df


def read_excel(raw: bytes, opts: ConversionOptions) -> pd.DataFrame:
    try:
        xls = pd.ExcelFile(io.BytesIO(raw), engine="openpyxl")
    except Exception as exc:  # noqa: BLE001
        raise ConversionError(f"Invalid Excel data: {exc}")
    sheet = opts.sheet_name if opts.sheet_name in xls.sheet_names else xls.sheet_names[0]
    try:
        df = pd.read_excel(
            xls,
            sheet_name=sheet,
            header=0 if opts.has_header else None,
            dtype=str,
            keep_default_na=False,
        )
    except Exception as exc:  # noqa: BLE001
        raise ConversionError(f"Unable to read Excel sheet: {exc}")
    return df


def read_pdf(raw: bytes, opts: ConversionOptions) -> pd.DataFrame:
    try:
        import pdfplumber
    except ImportError as exc:  # pragma: no cover
        raise ConversionError(f"PDF support unavailable: {exc}")
    if not raw.startswith(b"%PDF"):
        raise ConversionError("Invalid PDF data: missing PDF header")
    rows = []
    try:
        with pdfplumber.open(io.BytesIO(raw)) as pdf:
            for page in pdf.pages:
                tables = page.extract_tables()
                if tables:
                    for table in tables:
                        for row in table:
                            rows.append(["" if c is None else str(c) for c in row])
                else:
                    text = page.extract_text() or ""
                    for line in text.splitlines():
                        if line.strip():
                            parts = line.split(opts.delimiter) if opts.delimiter in line else line.split()
                            rows.append([p.strip() for p in parts])
    except ConversionError:
        raise
    except Exception as exc:  # noqa: BLE001
        raise ConversionError(f"Invalid PDF data: {exc}")
    if not rows:
        return pd.DataFrame()
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    if opts.has_header and len(rows) >= 1:
        header = rows[0]
        # de-duplicate header names
        seen = {}
        cols = []
        for i, h in enumerate(header):
            name = h or f"column_{i + 1}"
            if name in seen:
                seen[name] += 1
                name = f"{name}_{seen[name]}"
            else:
                seen[name] = 0
            cols.append(name)
        return pd.DataFrame(rows[1:], columns=cols)
    return pd.DataFrame(rows)


READERS = {"csv": read_csv, "excel": read_excel, "pdf": read_pdf}
