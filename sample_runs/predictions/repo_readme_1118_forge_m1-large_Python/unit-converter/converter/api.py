"""HTTP layer for the unit converter."""
from typing import List

from fastapi import FastAPI, HTTPException
from pydantic import BaseModel

from .units import ConversionError, convert, supported_units

app = FastAPI(title="Unit Converter")


class ConversionRequest(BaseModel):
    value: float
    from_unit: str
    to_unit: str


class BatchRequest(BaseModel):
    items: List[ConversionRequest]


def _convert_one(value: float, from_unit: str, to_unit: str) -> dict:
    try:
        result = convert(value, from_unit, to_unit)
    except ConversionError as exc:
        raise HTTPException(status_code=400, detail=str(exc))
    return {"value": value, "from_unit": from_unit, "to_unit": to_unit, "result": result}


@app.get("/health")
def health():
    return {"status": "ok"}


@app.get("/units")
def units():
    return supported_units()


@app.get("/convert")
def convert_single(value: float, from_unit: str, to_unit: str):
    return _convert_one(value, from_unit.lower(), to_unit.lower())


@app.post("/convert/batch")
def convert_batch(payload: BatchRequest):
    results = [
        _convert_one(item.value, item.from_unit.lower(), item.to_unit.lower())
        for item in payload.items
    ]
    return {"results": results}
