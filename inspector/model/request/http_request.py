"""An HTTP request a user composes against a deployed sample, and the response it got.

Pure data: building URLs and curl commands, validation and pretty-printing only. Sending lives
in :mod:`inspector.services.rerun.http_client`.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal
from urllib.parse import parse_qsl, quote, quote_plus, urlencode

BodyKind = Literal["none", "json", "form", "raw"]
BODY_KINDS: tuple[str, ...] = ("none", "json", "form", "raw")
DEFAULT_CONTENT_TYPES = {"json": "application/json", "form": "application/x-www-form-urlencoded"}

_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_PARAM = re.compile(r"\{([^{}/?#]+)\}")
# Characters left as they are in a path: RFC 3986 pchar, "/", "?" (a query typed into the path)
# and "%" (already percent-encoded input is not encoded twice).
_PATH_SAFE = "/:@!$&'()*+,;=-._~%?"
_QUERY_SAFE = "/:@,"
_CURL_GLOB = re.compile(r"[\[\]{}]")

Pairs = tuple[tuple[str, str], ...]


def _pairs(value: Any, field: str) -> Pairs:
    if not isinstance(value, list | tuple):
        raise ValueError(f"request spec: {field!r} must be a list of [name, value] pairs, "
                         f"not {type(value).__name__}")
    out: list[tuple[str, str]] = []
    for i, item in enumerate(value):
        if (not isinstance(item, list | tuple) or len(item) != 2
                or not all(isinstance(x, str) for x in item)):
            raise ValueError(f"request spec: {field!r} item {i} must be a [name, value] pair "
                             f"of strings, not {item!r}")
        out.append((item[0], item[1]))
    return tuple(out)


def _str_field(data: Mapping[str, Any], key: str, default: str | None = None) -> str:
    if key not in data:
        if default is None:
            raise ValueError(f"request spec: missing {key!r}")
        return default
    value = data[key]
    if not isinstance(value, str):
        raise ValueError(f"request spec: {key!r} must be a string, not {type(value).__name__}")
    return value


@dataclass(frozen=True, slots=True)
class RequestSpec:
    """A request as composed: ``path`` may still hold ``{param}`` placeholders.

    ``body`` is JSON text (``json``), ``application/x-www-form-urlencoded`` text such as
    ``a=1&b=two+words`` (``form``), sent as typed (``raw``) or ignored (``none``).
    """

    method: str
    path: str
    query: Pairs = ()
    headers: Pairs = ()
    body_kind: BodyKind = "none"
    body: str = ""

    # ------------------------------------------------------------------ (de)serialisation

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; :meth:`from_dict` reads it back."""
        return {
            "method": self.method,
            "path": self.path,
            "query": [list(p) for p in self.query],
            "headers": [list(p) for p in self.headers],
            "body_kind": self.body_kind,
            "body": self.body,
        }

    @classmethod
    def from_dict(cls, data: Any) -> RequestSpec:
        """Read :meth:`to_dict` output; ``ValueError`` names the first bad field."""
        if not isinstance(data, Mapping):
            raise ValueError(f"request spec must be an object, not {type(data).__name__}")
        method = _str_field(data, "method")
        if not method:
            raise ValueError("request spec: 'method' must not be empty")
        path = _str_field(data, "path")
        body_kind = _str_field(data, "body_kind", "none")
        if body_kind not in BODY_KINDS:
            raise ValueError(f"request spec: unknown body_kind {body_kind!r} "
                             f"(expected one of {', '.join(BODY_KINDS)})")
        return cls(
            method=method,
            path=path,
            query=_pairs(data.get("query", []), "query"),
            headers=_pairs(data.get("headers", []), "headers"),
            body_kind=body_kind,  # type: ignore[arg-type]
            body=_str_field(data, "body", ""),
        )

    # ------------------------------------------------------------------ path parameters

    def path_params(self) -> list[str]:
        """Names of the ``{param}`` placeholders still in the path, in order, without repeats."""
        return list(dict.fromkeys(_PARAM.findall(self.path)))

    def with_params(self, values: Mapping[str, str]) -> RequestSpec:
        """A copy with placeholders replaced by percent-encoded values.

        Names missing from ``values`` or mapped to ``""`` stay as ``{name}`` (still unfilled).
        """
        def sub(m: re.Match[str]) -> str:
            value = values.get(m.group(1), "")
            return quote(value, safe="") if value else m.group(0)

        return replace(self, path=_PARAM.sub(sub, self.path))

    # ------------------------------------------------------------------ what goes on the wire

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (case-insensitive), or None."""
        lower = name.lower()
        return next((v for n, v in self.headers if n.lower() == lower), None)

    def effective_headers(self) -> Pairs:
        """``headers`` plus the ``Content-Type`` a json or form body implies, unless set."""
        default = DEFAULT_CONTENT_TYPES.get(self.body_kind)
        if default and self.header("Content-Type") is None:
            return (*self.headers, ("Content-Type", default))
        return self.headers

    def form_pairs(self) -> list[tuple[str, str]]:
        """A form body decoded into (name, value) pairs (``+`` and ``%xx`` decoded)."""
        return parse_qsl(self.body, keep_blank_values=True)

    def body_bytes(self) -> bytes | None:
        """The body as sent: None for ``none``; a form body is re-encoded canonically."""
        if self.body_kind == "none":
            return None
        if self.body_kind == "form":
            return urlencode(self.form_pairs()).encode("ascii")
        return self.body.encode("utf-8")

    def url(self, base_url: str) -> str:
        """``base_url`` joined with the path and the percent-encoded query."""
        path = self.path if self.path.startswith("/") else "/" + self.path
        url = base_url.rstrip("/") + quote(path, safe=_PATH_SAFE)
        if self.query:
            encoded = urlencode(self.query, quote_via=quote, safe=_QUERY_SAFE)
            if "?" not in url:
                url += "?"
            elif not url.endswith(("?", "&")):
                url += "&"
            url += encoded
        return url

    # ------------------------------------------------------------------ validation

    def validate(self) -> list[str]:
        """Problems a user should fix before sending; empty when the request looks sendable."""
        problems: list[str] = []
        if not _TOKEN.fullmatch(self.method):
            problems.append(f"method {self.method!r} is not a valid HTTP method")
        if not self.path.strip():
            problems.append("path is empty")
        elif "://" in self.path or self.path.startswith("//"):
            problems.append(f"path {self.path!r} must be a path such as /items, not a URL")
        problems.extend(f"path parameter {{{name}}} is not filled in"
                        for name in self.path_params())
        for name, value in self.headers:
            if not name:
                problems.append("a header has an empty name")
            elif not _TOKEN.fullmatch(name):
                problems.append(f"header name {name!r} is not valid: use letters, digits and "
                                "!#$%&'*+-.^_`|~ only")
            if any(c in value for c in "\r\n\0"):
                problems.append(f"header {name!r} value contains a line break or NUL")
        for name, _value in self.query:
            if not name:
                problems.append("a query parameter has an empty name")
        if self.body_kind == "json":
            if not self.body.strip():
                problems.append("JSON body is empty")
            else:
                try:
                    json.loads(self.body)
                except json.JSONDecodeError as exc:
                    problems.append(f"JSON body is not valid JSON: {exc.msg} "
                                    f"(line {exc.lineno}, column {exc.colno})")
        elif self.body_kind == "none" and self.body.strip():
            problems.append("body text is ignored because the body kind is none")
        return problems


def to_curl(spec: RequestSpec, base_url: str, *, multiline: bool = False) -> str:
    """A copy-pasteable POSIX-shell curl command sending the same request as the client.

    Every argument is quoted with :func:`shlex.quote`; ``multiline`` puts each header and body
    option on its own line with backslash continuations.
    """
    url = spec.url(base_url)
    first: list[str] = ["curl"]
    if _CURL_GLOB.search(url):
        first.append("--globoff")  # brackets in IPv6 hosts or paths are not curl URL globs
    if spec.method.upper() == "HEAD":
        first.append("--head")  # `-X HEAD` would wait for a body that never comes
    else:
        first += ["-X", spec.method.upper()]  # as httpx sends it
    first.append(url)
    groups: list[list[str]] = [first]
    for name, value in spec.effective_headers():
        # "Name:" tells curl to drop the header; "Name;" sends it with an empty value
        groups.append(["-H", f"{name}: {value}" if value else f"{name};"])
    if spec.body_kind == "raw" and spec.header("Content-Type") is None:
        groups.append(["-H", "Content-Type:"])  # curl would otherwise add a form content type
    if spec.body_kind in ("json", "raw"):
        groups.append(["--data-raw", spec.body])
    elif spec.body_kind == "form":
        pairs = spec.form_pairs()
        if pairs and all(name for name, _ in pairs):
            # curl encodes the content after the first "=", never the name
            groups += [["--data-urlencode", f"{quote_plus(name)}={value}"]
                       for name, value in pairs]
        else:
            groups.append(["--data-raw", (spec.body_bytes() or b"").decode("ascii")])
    lines = [" ".join(shlex.quote(a) for a in group) for group in groups]
    return " \\\n  ".join(lines) if multiline else " ".join(lines)


# ---------------------------------------------------------------------------- responses

_TEXT_TYPES = ("json", "xml", "javascript", "x-www-form-urlencoded", "yaml", "csv", "html")
_BINARY_MAJOR = ("image/", "audio/", "video/", "font/")


@dataclass(frozen=True, slots=True)
class ResponseRecord:
    """What came back, or why nothing did (``error`` set; ``status`` 0 if no response)."""

    status: int
    reason: str = ""
    http_version: str = ""
    headers: Pairs = ()
    elapsed_ms: float = 0.0
    body: bytes = b""
    body_truncated: bool = False
    error: str | None = None
    sent_at: str = ""

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (case-insensitive), or None."""
        lower = name.lower()
        return next((v for n, v in self.headers if n.lower() == lower), None)

    @property
    def content_type(self) -> str:
        """The media type without parameters, lower-cased (``""`` when absent)."""
        return (self.header("Content-Type") or "").split(";")[0].strip().lower()

    def _charset(self) -> str | None:
        m = re.search(r"charset\s*=\s*\"?([\w.:-]+)", self.header("Content-Type") or "", re.I)
        return m.group(1) if m else None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; the body is text when it is UTF-8, else base64."""
        try:
            body, encoding = self.body.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            body, encoding = base64.b64encode(self.body).decode("ascii"), "base64"
        return {
            "status": self.status,
            "reason": self.reason,
            "http_version": self.http_version,
            "headers": [list(p) for p in self.headers],
            "elapsed_ms": self.elapsed_ms,
            "body": body,
            "body_encoding": encoding,
            "body_truncated": self.body_truncated,
            "error": self.error,
            "sent_at": self.sent_at,
        }

    @classmethod
    def from_dict(cls, data: Any) -> ResponseRecord:
        """Read :meth:`to_dict` output; ``ValueError`` names the first bad field."""
        if not isinstance(data, Mapping):
            raise ValueError(f"response must be an object, not {type(data).__name__}")
        status = data.get("status")
        if not isinstance(status, int) or isinstance(status, bool) or status < 0:
            raise ValueError(f"response: 'status' must be a non-negative integer, not {status!r}")
        elapsed = data.get("elapsed_ms", 0.0)
        if not isinstance(elapsed, int | float) or isinstance(elapsed, bool):
            raise ValueError(f"response: 'elapsed_ms' must be a number, not {elapsed!r}")
        text = data.get("body", "")
        if not isinstance(text, str):
            raise ValueError("response: 'body' must be a string")
        encoding = data.get("body_encoding", "utf-8")
        if encoding == "utf-8":
            body = text.encode("utf-8")
        elif encoding == "base64":
            try:
                body = base64.b64decode(text.encode("ascii"), validate=True)
            except (binascii.Error, UnicodeEncodeError) as exc:
                raise ValueError(f"response: 'body' is not valid base64: {exc}") from None
        else:
            raise ValueError(f"response: unknown body_encoding {encoding!r} "
                             "(expected utf-8 or base64)")
        error = data.get("error")
        if error is not None and not isinstance(error, str):
            raise ValueError("response: 'error' must be a string or null")
        truncated = data.get("body_truncated", False)
        if not isinstance(truncated, bool):
            raise ValueError("response: 'body_truncated' must be true or false")
        try:
            headers = _pairs(data.get("headers", []), "headers")
        except ValueError as exc:
            raise ValueError(str(exc).replace("request spec", "response", 1)) from None
        return cls(
            status=status,
            reason=_resp_str(data, "reason"),
            http_version=_resp_str(data, "http_version"),
            headers=headers,
            elapsed_ms=float(elapsed),
            body=body,
            body_truncated=truncated,
            error=error,
            sent_at=_resp_str(data, "sent_at"),
        )

    def looks_binary(self) -> bool:
        """True when the body is not meant to be read as text."""
        ctype = self.content_type
        if ctype.startswith("text/") or any(t in ctype for t in _TEXT_TYPES):
            return False
        if ctype.startswith(_BINARY_MAJOR) or ctype in ("application/octet-stream",
                                                        "application/pdf", "application/zip",
                                                        "application/gzip"):
            return True
        sample = self.body[:8192]
        if b"\0" in sample:
            return True
        if self._charset():
            return False
        try:
            sample.decode("utf-8")
        except UnicodeDecodeError as exc:
            # a multi-byte character cut by the 8 KiB sample (or the body cap) is still text
            return exc.start < len(sample) - 3
        return False

    def pretty_body(self) -> str:
        """The body for reading: JSON indented, text decoded, binary as a one-line summary."""
        if not self.body:
            return ""
        note = (f"\n… body truncated after {len(self.body):,} bytes"
                if self.body_truncated else "")
        if self.looks_binary():
            head = " ".join(f"{b:02x}" for b in self.body[:32])
            more = " …" if len(self.body) > 32 else ""
            kind = self.content_type or "unknown type"
            return f"<binary body: {len(self.body):,} bytes, {kind}> {head}{more}{note}"
        charset = self._charset() or "utf-8"
        try:
            text = self.body.decode(charset, errors="replace")
        except LookupError:
            text = self.body.decode("utf-8", errors="replace")
        if text.startswith("\ufeff"):
            text = text[1:]
        if "json" in self.content_type or text.lstrip()[:1] in ("{", "[", '"') \
                or text.strip() in ("true", "false", "null") or _is_number(text.strip()):
            try:
                return json.dumps(json.loads(text), indent=2, ensure_ascii=False) + note
            except ValueError:
                pass
        return text + note


def _is_number(text: str) -> bool:
    return bool(re.fullmatch(r"-?\d+(\.\d+)?([eE][+-]?\d+)?", text))


def _resp_str(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        raise ValueError(f"response: {key!r} must be a string, not {type(value).__name__}")
    return value
