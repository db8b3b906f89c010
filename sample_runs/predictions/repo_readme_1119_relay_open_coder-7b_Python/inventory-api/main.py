from fastapi import FastAPI, HTTPException

from policy import load_policy
from schemas import ItemCreate, ItemOut, QuantityIn

app = FastAPI(title="Inventory API")

items = {}


def find_item(sku):
    if sku not in items:
        raise HTTPException(status_code=404, detail="Item not found")
    return items[sku]


@app.get("/health")
def health():
    return {"status": "ok"}


@app.post("/items", response_model=ItemOut, status_code=201)
def create_item(item: ItemCreate):
    if item.sku in items:
        raise HTTPException(status_code=409, detail="SKU already exists")
    items[item.sku] = {"sku": item.sku, "name": item.name, "quantity": item.quantity, "reserved": 0}
    return items[item.sku]


@app.get("/items", response_model=list[ItemOut])
def list_items():
    return list(items.values())


@app.get("/items/{sku}", response_model=ItemOut)
def get_item(sku: str):
    return find_item(sku)


@app.post("/items/{sku}/reserve", response_model=ItemOut)
def reserve_item(sku: str, body: QuantityIn):
    item = find_item(sku)
    policy = load_policy()
    limit = policy["max_reserve_per_request"]
    if limit and body.quantity > limit:
        raise HTTPException(status_code=409, detail="reservation exceeds limit")
    available = item["quantity"] - item["reserved"] - policy["safety_stock"]
    if body.quantity > available:
        raise HTTPException(status_code=409, detail="insufficient stock")
    item["reserved"] += body.quantity
    return item


@app.post("/items/{sku}/release", response_model=ItemOut)
def release_item(sku: str, body: QuantityIn):
    item = find_item(sku)
    load_policy()  # validate config is readable
    if body.quantity > item["reserved"]:
        raise HTTPException(status_code=409, detail="cannot release more than reserved")
    item["reserved"] -= body.quantity
    return item
