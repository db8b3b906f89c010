"""The login a README documents, and the bearer token its response carries.

:func:`login_endpoint` finds the endpoint that logs in (``POST /auth/login``, ``/token``,
``/signin``...; never a refresh, logout or registration), :func:`token_keys` the response
fields that may hold the token (the README's own first), :func:`find_token` the token in a
response body and :func:`with_bearer` the request headers carrying it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from inspector.model.benchmark.task import Endpoint, Task
from inspector.model.readme.contract_types import ERROR, QUERY, REQUEST
from inspector.model.request.http_request import Pairs
from inspector.model.request.schema_body import contract_of

TOKEN_KEYS = ("access_token", "accessToken", "token", "access", "jwt", "id_token", "idToken",
              "auth_token", "authToken", "bearer")
_KINDS = (  # the last static segment of the path, best first
    re.compile(r"(?i)^(log-?in|sign-?in)$"),
    re.compile(r"(?i)^(access[-_]?)?tokens?$|^jwt$"),
    re.compile(r"(?i)^(auth|authenticate|authentication|sessions?)$"),
)
_NOT_TOKEN = re.compile(r"(?i)refresh|type|expir|ttl")


def _last_segment(path: str) -> str:
    parts = [p for p in path.partition("?")[0].split("/")
             if p and not p.startswith(("{", ":"))]
    return parts[-1] if parts else ""


def login_endpoint(task: Task) -> Endpoint | None:
    """The task's ``POST`` endpoint that logs in, or None."""
    best: tuple[int, Endpoint] | None = None
    for ep in task.required_endpoints:
        if ep.method.upper() != "POST":
            continue
        last = _last_segment(ep.path)
        for rank, kind in enumerate(_KINDS):
            if kind.match(last) and (best is None or rank < best[0]):
                best = (rank, ep)
    return best[1] if best else None


def token_keys(task: Task, endpoint: Endpoint) -> tuple[str, ...]:
    """Response fields that may hold the token: the README's for ``endpoint`` that look like
    one, then the usual names."""
    contract = contract_of(task.readme)
    ep = contract.endpoint_for(endpoint.method.upper(), endpoint.path.partition("?")[0])
    documented: list[str] = []
    if ep is not None:
        for f in contract.fields:
            if (ep.key in f.endpoints and f.role not in (REQUEST, QUERY, ERROR)
                    and not _NOT_TOKEN.search(f.name)
                    and ("token" in f.name.lower() or f.name in TOKEN_KEYS)
                    and f.name not in documented):
                documented.append(f.name)
    return tuple(documented) + tuple(k for k in TOKEN_KEYS if k not in documented)


def _search(value: Any, key: str) -> str | None:
    if isinstance(value, dict):
        got = value.get(key)
        if isinstance(got, str) and got.strip():
            return got.strip()
        children = list(value.values())
    elif isinstance(value, list):
        children = value
    else:
        return None
    for child in children:
        found = _search(child, key)
        if found:
            return found
    return None


def find_token(body: str, keys: tuple[str, ...] = TOKEN_KEYS) -> str | None:
    """The token in a JSON response ``body`` (nested envelopes such as ``data`` searched too),
    the first of ``keys`` found; None when the body is not JSON or holds none."""
    try:
        data = json.loads(body)
    except ValueError:
        return None
    for key in keys:
        token = _search(data, key)
        if token and not re.search(r"\s", token):
            return token
    return None


def with_bearer(headers: Pairs, token: str) -> Pairs:
    """``headers`` with ``Authorization: Bearer <token>`` instead of any Authorization."""
    kept = tuple((k, v) for k, v in headers if k.strip().lower() != "authorization")
    return (*kept, ("Authorization", f"Bearer {token}"))
