"""StructuredDataConvertor - convert between Excel, CSV and PDF."""
import base64
import binascii
import io
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from typing import Any, Dict, List, Optional

import pandas as pd
import pdfplumber
import uvicorn
from fastapi import APIRouter, FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.platypus import SimpleDocTemplate, Table, TableStyle

VERSION = "1.0.0"
FORMATS = {"excel", "csv", "pdf"}

app = FastAPI(title="StructuredDataConvertor", version=VERSION)
router = APIRouter()


class ConvertOptions(BaseModel):
    encoding: Optional[str] = "utf-8"
    delimiter: Optional[str] = ","
    has_header: Optional[bool] = True
    sheet_name: Optional[str] = "Sheet1"


class ConvertRequest(BaseModel):
    source_format: str
    target_format: str
    data: str
    options: Optional[ConvertOptions] = None


class BatchRequest(BaseModel):
    conversions: List[ConvertRequest]
    parallel: Optional[bool] = False


class ConversionError(Exception):
    pass


def read_source(raw: bytes, fmt: str, opts: ConvertOptions) -> pd.DataFrame:
    header = 0 if opts.has_header else None
    if fmt == "csv":
        text = raw.decode(opts.encoding or "utf-8")
        if not text.strip():
            raise ConversionError("CSV data is empty")
        return pd.read_csv(io.StringIO(text), sep=opts.delimiter or ",", header=header, dtype=str, keep_default_na=False)
    if fmt == "excel":
        try:
            xls = pd.ExcelFile(io.BytesIO(raw))
        except Exception as e:
            raise ConversionError(f"Invalid Excel data: {e}")
        sheet = opts.sheet_name if opts.sheet_name in xls.sheet_names else xls.sheet_names[0]
        return pd.read_excel(xls, sheet_name=sheet, header=header, dtype=str).fillna("")
    if fmt == "pdf":
        if not raw.startswith(b"%PDF"):
            raise ConversionError("Invalid PDF data")
        rows: List[List[Any]] = []
        with pdfplumber.open(io.BytesIO(raw)) as pdf:
            for page in pdf.pages:
                for table in page.extract_tables():
                    rows.extend(table)
                if not page.extract_tables():
                    txt = page.extract_text() or ""
                    for line in txt.splitlines():
                        if line.strip():
                            rows.append(line.split())
        if not rows:
            raise ConversionError("No tabular data found in PDF")
        rows = [[c if c is not None else "" for c in r] for r in rows]
        if opts.has_header and len(rows) >= 1:
            cols = rows[0]
            body = rows[1:]
            width = len(cols)
            body = [(r + [""] * width)[:width] for r in body]
            return pd.DataFrame(body, columns=cols)
        return pd.DataFrame(rows)
    raise ConversionError(f"Unsupported source format: {fmt}")


def write_target(df: pd.DataFrame, fmt: str, opts: ConvertOptions) -> bytes:
    if fmt == "csv":
        return df.to_csv(index=False, header=bool(opts.has_header), sep=opts.delimiter or ",").encode(opts.encoding or "utf-8")
    if fmt == "excel":
        buf = io.BytesIO()
        with pd.ExcelWriter(buf, engine="openpyxl") as writer:
            df.to_excel(writer, sheet_name=opts.sheet_name or "Sheet1", index=False, header=bool(opts.has_header))
        return buf.getvalue()
    if fmt == "pdf":
        buf = io.BytesIO()
        doc = SimpleDocTemplate(buf, pagesize=landscape(A4))
        rows = []
        if opts.has_header:
            rows.append([str(c) for c in df.columns])
        rows.extend([[str(v) for v in r] for r in df.values.tolist()])
        if not rows:
            rows = [[""]]
        table = Table(rows)
        table.setStyle(TableStyle([
            ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
            ("FONTSIZE", (0, 0), (-1, -1), 8),
        ]))
        doc.build([table])
        return buf.getvalue()
    raise ConversionError(f"Unsupported target format: {fmt}")


def do_convert(req: ConvertRequest) -> Dict[str, Any]:
    start = time.time()
    src = (req.source_format or "").lower()
    tgt = (req.target_format or "").lower()
    opts = req.options or ConvertOptions()
    if src not in FORMATS:
        return {"success": False, "message": f"Unsupported source format: {req.source_format}", "result": None, "metadata": None}
    if tgt not in FORMATS:
        return {"success": False, "message": f"Unsupported target format: {req.target_format}", "result": None, "metadata": None}
    if not req.data:
        return {"success": False, "message": "Data is empty", "result": None, "metadata": None}
    try:
        raw = base64.b64decode(req.data, validate=True)
    except (binascii.Error, ValueError):
        return {"success": False, "message": "Invalid base64 data", "result": None, "metadata": None}
    try:
        df = read_source(raw, src, opts)
        out = write_target(df, tgt, opts)
    except ConversionError as e:
        return {"success": False, "message": str(e), "result": None, "metadata": None}
    except Exception as e:
        return {"success": False, "message": f"Conversion failed: {e}", "result": None, "metadata": None}
    return {
        "success": True,
        "message": "Conversion successful",
        "result": base64.b64encode(out).decode("ascii"),
        "metadata": {
            "source_size": len(raw),
            "target_size": len(out),
            "conversion_time": round(time.time() - start, 6),
            "rows_count": int(df.shape[0]),
            "columns_count": int(df.shape[1]),
        },
    }


@router.get("/health")
def health():
    return {"status": "healthy", "timestamp": datetime.now(timezone.utc).isoformat(), "version": VERSION}


@router.post("/convert")
def convert(req: ConvertRequest):
    res = do_convert(req)
    return JSONResponse(status_code=200 if res["success"] else 400, content=res)


@router.post("/convert/batch")
def convert_batch(req: BatchRequest):
    start = time.time()
    if not req.conversions:
        return JSONResponse(status_code=400, content={"success": False, "message": "No conversions provided", "results": [],
                                                      "summary": {"total_count": 0, "success_count": 0, "failure_count": 0, "total_time": 0.0}})
    if req.parallel:
        with ThreadPoolExecutor(max_workers=4) as ex:
            results = list(ex.map(do_convert, req.conversions))
    else:
        results = [do_convert(c) for c in req.conversions]
    ok = sum(1 for r in results if r["success"])
    return {
        "success": ok == len(results),
        "message": f"Batch completed: {ok}/{len(results)} succeeded",
        "results": results,
        "summary": {
            "total_count": len(results),
            "success_count": ok,
            "failure_count": len(results) - ok,
            "total_time": round(time.time() - start, 6),
        },
    }


@app.exception_handler(RequestValidationError)
async def validation_handler(request, exc):
    return JSONResponse(status_code=422, content={"success": False, "message": "Validation error", "detail": exc.errors()})


app.include_router(router, prefix="/api/v1")
app.include_router(router)

if __name__ == "__main__":
    uvicorn.run(app, host="0.0.0.0", port=8000)
