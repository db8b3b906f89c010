"""FastAPI application for the inventory service."""
from typing import List

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from inventory import InventoryError, inventory
from models import Item, ItemCreate, QuantityRequest

app = FastAPI(title="Inventory API")


@app.exception_handler(InventoryError)
async def inventory_error_handler(request: Request, exc: InventoryError):
    return JSONResponse(status_code=exc.status, content={"detail": exc.detail})


@app.get("/health")
def health():
    return {"status": "ok"}


@app.post("/items", response_model=Item, status_code=201)
def create_item(payload: ItemCreate):
    return inventory.add(payload.sku, payload.name, payload.quantity)


@app.get("/items", response_model=List[Item])
def list_items():
    return inventory.all()


@app.get("/items/{sku}", response_model=Item)
def get_item(sku: str):
    return inventory.get(sku)


@app.post("/items/{sku}/reserve", response_model=Item)
def reserve(sku: str, payload: QuantityRequest):
    return inventory.reserve(sku, payload.quantity)


@app.post("/items/{sku}/release", response_model=Item)
def release(sku: str, payload: QuantityRequest):
    return inventory.release(sku, payload.quantity)
