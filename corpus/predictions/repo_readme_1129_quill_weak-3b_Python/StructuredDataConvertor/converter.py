import base64
import io
import time

import pandas as pd
import pdfplumber
from reportlab.lib.pagesizes import letter
from reportlab.platypus import SimpleDocTemplate, Table

from schemas import ConvertOptions, ConvertRequest, ConvertResponse, Metadata

FORMATS = ["excel", "csv", "pdf"]


def read_data(raw: bytes, fmt: str, opts: ConvertOptions) -> pd.DataFrame:
    header = 0 if opts.has_header else None
    if fmt == "csv":
        text = raw.decode(opts.encoding)
        return pd.read_csv(io.StringIO(text), sep=opts.delimiter, header=header)
    if fmt == "excel":
        return pd.read_excel(io.BytesIO(raw), sheet_name=opts.sheet_name, header=header)
    if fmt == "pdf":
        rows = []
        with pdfplumber.open(io.BytesIO(raw)) as pdf:
            for page in pdf.pages:
                for table in page.extract_tables():
                    rows.extend(table)
        if not rows:
            raise ValueError("No table found in PDF")
        if opts.has_header:
            return pd.DataFrame(rows[1:], columns=rows[0])
        return pd.DataFrame(rows)
    raise ValueError("Unsupported source format: " + fmt)


def write_data(df: pd.DataFrame, fmt: str, opts: ConvertOptions) -> bytes:
    if fmt == "csv":
        return df.to_csv(index=False, sep=opts.delimiter, header=opts.has_header).encode(opts.encoding)
    if fmt == "excel":
        buf = io.BytesIO()
        with pd.ExcelWriter(buf, engine="openpyxl") as writer:
            df.to_excel(writer, sheet_name=opts.sheet_name, index=False, header=opts.has_header)
        return buf.getvalue()
    if fmt == "pdf":
        buf = io.BytesIO()
        doc = SimpleDocTemplate(buf, pagesize=letter)
        data = []
        if opts.has_header:
            data.append([str(c) for c in df.columns])
        for row in df.values.tolist():
            data.append([str(v) for v in row])
        if not data:
            data = [[""]]
        doc.build([Table(data)])
        return buf.getvalue()
    raise ValueError("Unsupported target format: " + fmt)


def convert(req: ConvertRequest) -> ConvertResponse:
    start = time.time()
    opts = req.options or ConvertOptions()
    src = req.source_format.lower()
    tgt = req.target_format.lower()
    if src not in FORMATS or tgt not in FORMATS:
        return ConvertResponse(success=False, message="Unsupported format")
    try:
        raw = base64.b64decode(req.data, validate=True)
    except Exception:
        return ConvertResponse(success=False, message="Invalid base64 data")
    if len(raw) == 0:
        return ConvertResponse(success=False, message="Empty data")
    try:
        df = read_data(raw, src, opts)
        out = write_data(df, tgt, opts)
    except Exception as e:
        return ConvertResponse(success=False, message="Conversion failed: " + str(e))
    meta = Metadata(
        source_size=len(raw),
        target_size=len(out),
        conversion_time=time.time() - start,
        rows_count=len(df.index),
        columns_count=len(df.columns),
    )
    return ConvertResponse(
        success=True,
        message="Conversion successful",
        result=base64.b64encode(out).decode("ascii"),
        metadata=meta,
    )
