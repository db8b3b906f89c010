"""Black-box tests for the inventory API."""
import uuid

import requests

TIMEOUT = 5


def _sku():
    return f"SKU-{uuid.uuid4().hex[:10].upper()}"


def _create(base_url, quantity=10, **fields):
    payload = {"sku": _sku(), "name": "Widget", "quantity": quantity}
    payload.update(fields)
    resp = requests.post(f"{base_url}/items", json=payload, timeout=TIMEOUT)
    assert resp.status_code == 201, resp.text
    return resp.json()


def test_health(base_url):
    resp = requests.get(f"{base_url}/health", timeout=TIMEOUT)
    assert resp.status_code == 200
    assert resp.json() == {"status": "ok"}


def test_create_item(base_url):
    sku = _sku()
    resp = requests.post(
        f"{base_url}/items", json={"sku": sku, "name": "Bolt", "quantity": 5}, timeout=TIMEOUT
    )
    assert resp.status_code == 201
    assert resp.json() == {"sku": sku, "name": "Bolt", "quantity": 5, "reserved": 0}


def test_create_duplicate_sku_is_409(base_url):
    item = _create(base_url)
    resp = requests.post(
        f"{base_url}/items",
        json={"sku": item["sku"], "name": "Other", "quantity": 1},
        timeout=TIMEOUT,
    )
    assert resp.status_code == 409


def test_create_negative_quantity_is_422(base_url):
    resp = requests.post(
        f"{base_url}/items", json={"sku": _sku(), "name": "Bad", "quantity": -1}, timeout=TIMEOUT
    )
    assert resp.status_code == 422


def test_get_and_list_item(base_url):
    item = _create(base_url)
    resp = requests.get(f"{base_url}/items/{item['sku']}", timeout=TIMEOUT)
    assert resp.status_code == 200
    assert resp.json() == item
    listing = requests.get(f"{base_url}/items", timeout=TIMEOUT).json()
    assert item["sku"] in [i["sku"] for i in listing]


def test_get_unknown_is_404(base_url):
    resp = requests.get(f"{base_url}/items/NOPE-{uuid.uuid4().hex}", timeout=TIMEOUT)
    assert resp.status_code == 404


def test_reserve_increases_reserved(base_url):
    item = _create(base_url, quantity=10)
    resp = requests.post(
        f"{base_url}/items/{item['sku']}/reserve", json={"quantity": 4}, timeout=TIMEOUT
    )
    assert resp.status_code == 200
    assert resp.json()["reserved"] == 4
    assert resp.json()["quantity"] == 10


def test_reserve_insufficient_stock_is_409(base_url):
    item = _create(base_url, quantity=5)
    first = requests.post(
        f"{base_url}/items/{item['sku']}/reserve", json={"quantity": 3}, timeout=TIMEOUT
    )
    assert first.status_code == 200
    resp = requests.post(
        f"{base_url}/items/{item['sku']}/reserve", json={"quantity": 3}, timeout=TIMEOUT
    )
    assert resp.status_code == 409
    assert resp.json() == {"detail": "insufficient stock"}


def test_reserve_non_positive_is_422(base_url):
    item = _create(base_url)
    resp = requests.post(
        f"{base_url}/items/{item['sku']}/reserve", json={"quantity": 0}, timeout=TIMEOUT
    )
    assert resp.status_code == 422


def test_release_decreases_reserved(base_url):
    item = _create(base_url, quantity=8)
    requests.post(f"{base_url}/items/{item['sku']}/reserve", json={"quantity": 6}, timeout=TIMEOUT)
    resp = requests.post(
        f"{base_url}/items/{item['sku']}/release", json={"quantity": 2}, timeout=TIMEOUT
    )
    assert resp.status_code == 200
    assert resp.json()["reserved"] == 4
