import io

import pandas as pd
import pdfplumber
from reportlab.lib.pagesizes import letter
from reportlab.platypus import SimpleDocTemplate, Table

SUPPORTED_FORMATS = ["excel", "csv", "pdf"]


def read_csv(raw, options):
    header = 0 if options.has_header else None
    text = raw.decode(options.encoding or "utf-8")
    return pd.read_csv(io.StringIO(text), sep=options.delimiter or ",", header=header)


def read_excel(raw, options):
    header = 0 if options.has_header else None
    try:
        return pd.read_excel(io.BytesIO(raw), sheet_name=options.sheet_name or "Sheet1", header=header)
    except ValueError:
        # sheet not found, fallback to first sheet
        return pd.read_excel(io.BytesIO(raw), sheet_name=0, header=header)


def read_pdf(raw, options):
    rows = []
    with pdfplumber.open(io.BytesIO(raw)) as pdf:
        for page in pdf.pages:
            for table in page.extract_tables():
                for row in table:
                    rows.append(row)
    if not rows:
        raise ValueError("No table data found in PDF")
    if options.has_header:
        return pd.DataFrame(rows[1:], columns=rows[0])
    return pd.DataFrame(rows)


def write_csv(df, options):
    buf = io.StringIO()
    df.to_csv(buf, index=False, sep=options.delimiter or ",", header=options.has_header)
    return buf.getvalue().encode(options.encoding or "utf-8")


def write_excel(df, options):
    buf = io.BytesIO()
    with pd.ExcelWriter(buf, engine="openpyxl") as writer:
        df.to_excel(writer, sheet_name=options.sheet_name or "Sheet1", index=False, header=options.has_header)
    return buf.getvalue()


def write_pdf(df, options):
    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=letter)
    data = []
    if options.has_header:
        data.append([str(c) for c in df.columns])
    for row in df.values.tolist():
        data.append(["" if v is None else str(v) for v in row])
    if not data:
        data = [[""]]
    doc.build([Table(data)])
    return buf.getvalue()


READERS = {
    "csv": read_csv,
    "excel": read_excel,
    "pdf": read_pdf,
}

WRITERS = {
    "csv": write_csv,
    "excel": write_excel,
    "pdf": write_pdf,
}


def convert_data(raw, source_format, target_format, options):
    if source_format not in READERS:
        raise ValueError("Unsupported source format: " + source_format)
    if target_format not in WRITERS:
        raise ValueError("Unsupported target format: " + target_format)

    df = READERS[source_format](raw, options)
    result = WRITERS[target_format](df, options)
    rows, cols = df.shape
    return result, int(rows), int(cols)
