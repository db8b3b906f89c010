from pydantic import BaseModel, Field


class ItemCreate(BaseModel):
    sku: str
    name: str
    quantity: int = Field(ge=0)


class ItemOut(BaseModel):
    sku: str
    name: str
    quantity: int
    reserved: int


class QuantityIn(BaseModel):
    quantity: int = Field(gt=0)
