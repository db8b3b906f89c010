"""CSV reader / writer."""
import codecs
import csv
import io

from ..errors import ConversionError
from ..schemas import ConversionOptions
from .sniff import detect_binary_format
from .table import Table


def _codec(encoding: str) -> str:
    try:
        name = codecs.lookup(encoding.strip()).name
    except LookupError:
        raise ConversionError(f"Unknown encoding: '{encoding}'")
    return name


def _delimiter(delimiter: str) -> str:
    if delimiter in ("\\t", "tab"):
        return "\t"
    if len(delimiter) != 1 or delimiter in ('"', "\r", "\n"):
        raise ConversionError("CSV delimiter must be a single character (not a quote or newline)")
    return delimiter


def read_csv(data: bytes, options: ConversionOptions) -> Table:
    codec = _codec(options.encoding)
    delimiter = _delimiter(options.delimiter)
    binary = detect_binary_format(data)
    if binary:
        raise ConversionError(f"Invalid CSV data: the content looks like a {binary} file")
    try:
        # utf-8-sig transparently strips a byte-order mark.
        text = data.decode("utf-8-sig" if codec == "utf-8" else codec)
    except UnicodeDecodeError:
        raise ConversionError(f"Invalid CSV data: cannot decode using encoding '{options.encoding}'")
    if "\x00" in text:
        raise ConversionError("Invalid CSV data: content contains NUL bytes")
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True))
    except csv.Error as exc:
        raise ConversionError(f"Invalid CSV data: {exc}")
    table = Table(rows=rows, has_header=options.has_header)
    if not table.rows:
        raise ConversionError("Invalid CSV data: no rows found")
    return table


def write_csv(table: Table, options: ConversionOptions) -> bytes:
    codec = _codec(options.encoding)
    delimiter = _delimiter(options.delimiter)
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\n")
    writer.writerows(table.text_rows())
    try:
        return buffer.getvalue().encode(codec)
    except UnicodeEncodeError:
        raise ConversionError(f"Data cannot be encoded using encoding '{options.encoding}'")
