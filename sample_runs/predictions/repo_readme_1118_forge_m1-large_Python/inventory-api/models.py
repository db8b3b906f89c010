"""Request and response schemas."""
from pydantic import BaseModel, Field


class ItemCreate(BaseModel):
    sku: str = Field(..., min_length=1)
    name: str = Field(..., min_length=1)
    quantity: int = Field(..., ge=0)


class Item(BaseModel):
    sku: str
    name: str
    quantity: int
    reserved: int = 0


class QuantityRequest(BaseModel):
    quantity: int = Field(..., gt=0)
