UNITS = {
    "temperature": ["c", "f", "k"],
    "length": ["m", "km", "mi", "ft"],
}

# meters per unit
LENGTH = {"m": 1.0, "km": 1000.0, "mi": 1609.344, "ft": 0.3048}


def unit_type(unit):
    for kind, names in UNITS.items():
        if unit in names:
            return kind
    return None


def convert_temperature(value, src, dst):
    # convert to celsius first
    if src == "f":
        value = (value - 32) * 5 / 9
    elif src == "k":
        value = value - 273.15
    if dst == "f":
        return value * 9 / 5 + 32
    if dst == "k":
        return value + 273.15
    return value


def convert(value, src, dst):
    src_type, dst_type = unit_type(src), unit_type(dst)
    if src_type is None or dst_type is None:
        raise ValueError("unknown unit")
    if src_type != dst_type:
        raise ValueError("incompatible units")
    if src_type == "temperature":
        result = convert_temperature(value, src, dst)
    else:
        result = value * LENGTH[src] / LENGTH[dst]
    return round(result, 4)
