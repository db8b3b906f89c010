"""Python import names and the distributions that provide them, and requirements files."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from inspector.model.repo.import_names import IMPORT_ALIASES as IMPORT_ALIASES

# Import names of well-known third-party distributions (beyond IMPORT_ALIASES): a golden test
# importing one of these needs it installed, it is not a module of the generated repo.
KNOWN_THIRD_PARTY = frozenset({
    *IMPORT_ALIASES, "requests", "httpx", "aiohttp", "pytest", "pytest_asyncio", "pytest_httpx",
    "pytest_mock", "pytest_timeout", "anyio", "websockets", "hypothesis", "faker", "freezegun",
    "responses", "respx", "urllib3", "flask", "fastapi", "starlette", "django", "eve",
    "pydantic", "sqlalchemy", "pandas", "numpy", "openpyxl", "reportlab", "pytz", "jinja2",
    "werkzeug", "uvicorn", "gunicorn", "redis", "pymongo", "bson", "boto3", "botocore", "click",
    "marshmallow", "peewee", "tortoise", "motor", "celery", "lxml", "markdown", "bcrypt",
    "passlib", "cryptography", "xlrd", "xlsxwriter", "tabulate", "simplejson", "ujson",
    "orjson", "toml", "tomli", "six", "mock", "nose", "googletrans", "babel", "arrow",
    "pendulum", "schema", "cerberus", "graphene", "strawberry", "grpc", "socketio",
    "sse_starlette", "itsdangerous", "deepdiff", "jsonpath_ng", "matplotlib", "scipy",
})


def norm_dist(name: str) -> str:
    """A distribution name normalised the way pip compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def dists_for(module: str) -> set[str]:
    """Normalised distribution names that may provide top-level import ``module``."""
    return {norm_dist(module)} | {norm_dist(a) for a in IMPORT_ALIASES.get(module, ())}


def is_stdlib(module: str) -> bool:
    return module.split(".")[0] in sys.stdlib_module_names


@dataclass(frozen=True, slots=True)
class Requirement:
    """One entry of a requirements file: normalised name, the raw line, its 1-based number."""

    name: str
    raw: str
    line: int


def parse_requirements(text: str) -> list[Requirement]:
    """The entries of a requirements file (options, comments and blank lines skipped)."""
    out: list[Requirement] = []
    for no, line in enumerate(text.splitlines(), start=1):
        body = line.split("#", 1)[0].strip()
        if not body or body.startswith("-"):
            continue
        m = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", body)
        if m:
            out.append(Requirement(norm_dist(m.group(0)), body, no))
    return out


def requirement_for(module: str, reqs: list[Requirement]) -> Requirement | None:
    """The entry of ``reqs`` that provides top-level import ``module``, if any."""
    names = dists_for(module)
    return next((r for r in reqs if r.name in names), None)
