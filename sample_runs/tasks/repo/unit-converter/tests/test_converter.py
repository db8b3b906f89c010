"""Black-box tests for the unit converter."""
import pytest
import requests

TIMEOUT = 5


def _convert(base_url, value, from_unit, to_unit):
    return requests.get(
        f"{base_url}/convert",
        params={"value": value, "from_unit": from_unit, "to_unit": to_unit},
        timeout=TIMEOUT,
    )


def test_health(base_url):
    resp = requests.get(f"{base_url}/health", timeout=TIMEOUT)
    assert resp.status_code == 200
    assert resp.json() == {"status": "ok"}


def test_units(base_url):
    resp = requests.get(f"{base_url}/units", timeout=TIMEOUT)
    assert resp.status_code == 200
    data = resp.json()
    assert sorted(data["temperature"]) == ["c", "f", "k"]
    assert sorted(data["length"]) == ["ft", "km", "m", "mi"]


def test_celsius_to_fahrenheit(base_url):
    resp = _convert(base_url, 100, "c", "f")
    assert resp.status_code == 200
    assert resp.json() == {"value": 100.0, "from_unit": "c", "to_unit": "f", "result": 212.0}


def test_kelvin_to_celsius(base_url):
    resp = _convert(base_url, 0, "k", "c")
    assert resp.status_code == 200
    assert resp.json()["result"] == pytest.approx(-273.15)


def test_km_to_miles_rounded(base_url):
    resp = _convert(base_url, 10, "km", "mi")
    assert resp.status_code == 200
    assert resp.json()["result"] == 6.2137


def test_incompatible_units_is_400(base_url):
    resp = _convert(base_url, 1, "c", "m")
    assert resp.status_code == 400
    assert "detail" in resp.json()


def test_unknown_unit_is_400(base_url):
    resp = _convert(base_url, 1, "parsec", "m")
    assert resp.status_code == 400


def test_batch(base_url):
    items = [
        {"value": 100, "from_unit": "c", "to_unit": "f"},
        {"value": 1, "from_unit": "ft", "to_unit": "m"},
    ]
    resp = requests.post(f"{base_url}/convert/batch", json={"items": items}, timeout=TIMEOUT)
    assert resp.status_code == 200
    results = resp.json()["results"]
    assert [r["result"] for r in results] == [212.0, 0.3048]
    assert results[1]["from_unit"] == "ft"
