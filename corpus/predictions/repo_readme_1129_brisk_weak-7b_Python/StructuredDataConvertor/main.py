"""StructuredDataConvertor - convert between excel, csv and pdf."""
import base64
import io
import time
from datetime import datetime
from typing import Any, Dict, List, Optional
from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pdfplumber
import uvicorn
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from reportlab.lib.pagesizes import letter
from reportlab.platypus import SimpleDocTemplate, Table

VERSION = "1.0.0"
SUPPORTED = ["excel", "csv", "pdf"]

app = FastAPI(title="StructuredDataConvertor", version=VERSION)


class ConvertOptions(BaseModel):
    encoding: str = "utf-8"
    delimiter: str = ","
    has_header: bool = True
    sheet_name: str = "Sheet1"


class ConvertRequest(BaseModel):
    source_format: str
    target_format: str
    data: str
    options: Optional[ConvertOptions] = None


class BatchRequest(BaseModel):
    conversions: List[ConvertRequest]
    parallel: bool = False


def read_data(fmt: str, raw: bytes, opts: ConvertOptions) -> pd.DataFrame:
    header = 0 if opts.has_header else None
    if fmt == "csv":
        text = raw.decode(opts.encoding)
        return pd.read_csv(io.StringIO(text), sep=opts.delimiter, header=header)
    if fmt == "excel":
        try:
            return pd.read_excel(io.BytesIO(raw), sheet_name=opts.sheet_name, header=header)
        except ValueError:
            return pd.read_excel(io.BytesIO(raw), sheet_name=0, header=header)
    if fmt == "pdf":
        rows = []
        with pdfplumber.open(io.BytesIO(raw)) as pdf:
            for page in pdf.pages:
                for table in page.extract_tables():
                    rows.extend(table)
                if not rows:
                    txt = page.extract_text() or ""
                    for line in txt.splitlines():
                        rows.append(line.split())
        if not rows:
            return pd.DataFrame()
        if opts.has_header:
            return pd.DataFrame(rows[1:], columns=rows[0])
        return pd.DataFrame(rows)
    raise ValueError("Unsupported source format: " + fmt)


def write_data(fmt: str, df: pd.DataFrame, opts: ConvertOptions) -> bytes:
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
        rows = []
        if opts.has_header:
            rows.append([str(c) for c in df.columns])
        for r in df.fillna("").values.tolist():
            rows.append([str(x) for x in r])
        if not rows:
            rows = [[""]]
        doc.build([Table(rows)])
        return buf.getvalue()
    raise ValueError("Unsupported target format: " + fmt)


def do_convert(req: ConvertRequest) -> Dict[str, Any]:
    start = time.time()
    opts = req.options or ConvertOptions()
    src = (req.source_format or "").lower()
    tgt = (req.target_format or "").lower()
    if src not in SUPPORTED:
        return {"success": False, "message": "Unsupported source format: %s" % req.source_format,
                "result": "", "metadata": {}}
    if tgt not in SUPPORTED:
        return {"success": False, "message": "Unsupported target format: %s" % req.target_format,
                "result": "", "metadata": {}}
    if not req.data:
        return {"success": False, "message": "Data is empty", "result": "", "metadata": {}}
    try:
        raw = base64.b64decode(req.data, validate=True)
    except Exception:
        return {"success": False, "message": "Invalid base64 data", "result": "", "metadata": {}}
    try:
        df = read_data(src, raw, opts)
        out = write_data(tgt, df, opts)
    except Exception as e:
        return {"success": False, "message": "Conversion failed: %s" % e, "result": "", "metadata": {}}
    return {
        "success": True,
        "message": "Conversion successful",
        "result": base64.b64encode(out).decode("ascii"),
        "metadata": {
            "source_size": len(raw),
            "target_size": len(out),
            "conversion_time": time.time() - start,
            "rows_count": int(df.shape[0]),
            "columns_count": int(df.shape[1]),
        },
    }


@app.get("/health")
@app.get("/api/v1/health")
def health():
    return {"status": "healthy", "timestamp": datetime.now().isoformat(), "version": VERSION}


@app.post("/convert")
@app.post("/api/v1/convert")
def convert(req: ConvertRequest):
    res = do_convert(req)
    if not res["success"]:
        return JSONResponse(status_code=400, content=res)
    return res


@app.post("/convert/batch")
@app.post("/api/v1/convert/batch")
def convert_batch(req: BatchRequest):
    start = time.time()
    if req.parallel:
        with ThreadPoolExecutor(max_workers=4) as ex:
            results = list(ex.map(do_convert, req.conversions))
    else:
        results = [do_convert(c) for c in req.conversions]
    ok = sum(1 for r in results if r["success"])
    total = len(results)
    return {
        "success": ok == total,
        "message": "Batch conversion completed",
        "results": results,
        "summary": {
            "total_count": total,
            "success_count": ok,
            "failure_count": total - ok,
            "total_time": time.time() - start,
        },
    }


if __name__ == "__main__":
    uvicorn.run(app, host="0.0.0.0", port=8000)
