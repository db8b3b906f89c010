"""In-memory inventory with reservation logic."""
import threading
from typing import Dict, List

from models import Item


class InventoryError(Exception):
    """Raised for business-rule violations; carries an HTTP status."""

    def __init__(self, status: int, detail: str):
        super().__init__(detail)
        self.status = status
        self.detail = detail


class Inventory:
    def __init__(self) -> None:
        self._items: Dict[str, Item] = {}
        self._lock = threading.Lock()

    def add(self, sku: str, name: str, quantity: int) -> Item:
        with self._lock:
            if sku in self._items:
                raise InventoryError(409, "SKU already exists")
            item = Item(sku=sku, name=name, quantity=quantity, reserved=0)
            self._items[sku] = item
            return item

    def all(self) -> List[Item]:
        return list(self._items.values())

    def get(self, sku: str) -> Item:
        item = self._items.get(sku)
        if item is None:
            raise InventoryError(404, "Item not found")
        return item

    def reserve(self, sku: str, quantity: int) -> Item:
        with self._lock:
            item = self.get(sku)
            if item.quantity - item.reserved < quantity:
                raise InventoryError(409, "insufficient stock")
            item.reserved += quantity
            return item

    def release(self, sku: str, quantity: int) -> Item:
        with self._lock:
            item = self.get(sku)
            if quantity > item.reserved:
                raise InventoryError(409, "cannot release more than reserved")
            item.reserved -= quantity
            return item


inventory = Inventory()
