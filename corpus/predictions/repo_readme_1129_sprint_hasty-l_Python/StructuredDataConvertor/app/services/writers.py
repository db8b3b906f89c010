"""Write DataFrames to a target format as raw bytes."""
import io

import pandas as pd

from app.schemas import ConversionOptions


def write_csv(df: pd.DataFrame, opts: ConversionOptions) -> bytes:
    buf = io.StringIO()
    df.to_csv(buf, index=False, header=opts.has_header, sep=opts.delimiter or ",")
    return buf.getvalue().encode(opts.encoding or "utf-8")


def write_excel(df: pd.DataFrame, opts: ConversionOptions) -> bytes:
    buf = io.BytesIO()
    sheet = (opts.sheet_name or "Sheet1")[:31]
    with pd.ExcelWriter(buf, engine="openpyxl") as writer:
        df.to_excel(writer, index=False, header=opts.has_header, sheet_name=sheet)
    return buf.getvalue()


def write_pdf(df: pd.DataFrame, opts: ConversionOptions) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Table, TableStyle

    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=landscape(A4), title="Converted data")
    rows = []
    if opts.has_header:
        rows.append([str(c) for c in df.columns])
    for rec in df.itertuples(index=False):
        rows.append(["" if v is None else str(v) for v in rec])
    if not rows:
        rows = [[""]]
    table = Table(rows, repeatRows=1 if opts.has_header else 0)
    style = [
        ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
        ("FONTSIZE", (0, 0), (-1, -1), 8),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]
    if opts.has_header:
        style += [
            ("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey),
            ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
        ]
    table.setStyle(TableStyle(style))
    elements = [table] if rows else [Paragraph("No data", getSampleStyleSheet()["Normal"])]
    doc.build(elements)
    return buf.getvalue()


WRITERS = {"csv": write_csv, "excel": write_excel, "pdf": write_pdf}
