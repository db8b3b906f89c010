"""Pure conversion logic, independent of the web layer."""

# Length factors relative to one metre.
LENGTH_TO_METRES = {"m": 1.0, "km": 1000.0, "mi": 1609.344, "ft": 0.3048}
TEMPERATURE_UNITS = ("c", "f", "k")


class ConversionError(ValueError):
    pass


def _to_celsius(value: float, unit: str) -> float:
    if unit == "c":
        return value
    if unit == "f":
        return (value - 32) * 5 / 9
    return value - 273.15  # kelvin


def _from_celsius(value: float, unit: str) -> float:
    if unit == "c":
        return value
    if unit == "f":
        return value * 9 / 5 + 32
    return value + 273.15  # kelvin


def dimension_of(unit: str) -> str:
    if unit in TEMPERATURE_UNITS:
        return "temperature"
    if unit in LENGTH_TO_METRES:
        return "length"
    raise ConversionError(f"unknown unit: {unit}")


def convert(value: float, from_unit: str, to_unit: str) -> float:
    src, dst = dimension_of(from_unit), dimension_of(to_unit)
    if src != dst:
        raise ConversionError(f"cannot convert {src} ({from_unit}) to {dst} ({to_unit})")
    if src == "temperature":
        result = _from_celsius(_to_celsius(value, from_unit), to_unit)
    else:
        result = value * LENGTH_TO_METRES[from_unit] / LENGTH_TO_METRES[to_unit]
    return round(result, 4)


def supported_units() -> dict:
    return {"temperature": list(TEMPERATURE_UNITS), "length": list(LENGTH_TO_METRES)}
