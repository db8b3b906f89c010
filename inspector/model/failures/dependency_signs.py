"""What an exception says about the installed libraries: code written for another major
version of a library, or a framework feature whose optional distribution is not installed.

Pure data with the patterns that recognise it, read by the dependency rules of the triage. A
sign names the distribution whose version (or absence) is the cause, and says in one clause
what changed, so the reason can be read without knowing the library's history.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class VersionSign:
    """An exception text typical of code written for another major version of ``dist``.

    ``uses`` is a regex a repo source must match for the sign to count (the repo imports the
    library); ``frames`` a package that must appear among the traceback's library frames."""

    pattern: re.Pattern[str]
    dist: str
    change: str
    uses: re.Pattern[str]
    frames: str | None = None


def _uses(module: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*(?:from\s+{module}\b|import\s+{module}\b)", re.M)


_PYDANTIC = _uses("pydantic")
_SQLALCHEMY = _uses("sqlalchemy")
_FLASK = _uses("flask")
_PASSLIB = _uses("passlib")
_MARSHMALLOW = _uses("marshmallow")

VERSION_SIGNS: tuple[VersionSign, ...] = (
    # pydantic 2 installed, the code written for pydantic 1
    VersionSign(re.compile(r"`(?P<name>\w+)` has been moved to the `(?P<pkg>[\w-]+)` package"),
                "pydantic", "pydantic 2 moved {name} to the {pkg} package (pydantic 1 code)",
                _PYDANTIC),
    VersionSign(re.compile(r"`(?P<old>\w+)` is removed\. use `(?P<new>\w+)` instead"),
                "pydantic", "pydantic 2 replaced {old}= by {new}= (pydantic 1 code)", _PYDANTIC),
    VersionSign(re.compile(r"If you use `@root_validator` with pre=False"), "pydantic",
                "pydantic 2 requires skip_on_failure=True on @root_validator (pydantic 1 "
                "code; pydantic 2 spells it @model_validator)", _PYDANTIC),
    VersionSign(re.compile(r"A non-annotated attribute was detected"), "pydantic",
                "pydantic 2 requires a type annotation on every field (pydantic 1 code)",
                _PYDANTIC),
    VersionSign(re.compile(r"You must set the config attribute `from_attributes=True` to use "
                           r"from_orm"), "pydantic",
                "pydantic 2 renamed orm_mode to from_attributes (pydantic 1 code)", _PYDANTIC),
    VersionSign(re.compile(r"\bcon(?:list|set|frozenset|str|bytes)\(\) got an unexpected "
                           r"keyword argument '(?P<old>\w+)'"), "pydantic",
                "pydantic 2 renamed the constraint {old}= (pydantic 1 code)", _PYDANTIC),
    # pydantic 1 installed, the code written for pydantic 2
    VersionSign(re.compile(r"has no attribute '(?P<old>model_(?:dump|dump_json|validate|"
                           r"validate_json|copy|fields|json_schema|construct|config|"
                           r"rebuild))'"), "pydantic",
                "{old} is pydantic 2 API, the installed pydantic is older (pydantic 2 code)",
                _PYDANTIC),
    # SQLAlchemy 2 installed, the code written for SQLAlchemy 1
    VersionSign(re.compile(r"'Engine' object has no attribute '(?P<old>execute|table_names|"
                           r"has_table|scalar)'"), "sqlalchemy",
                "SQLAlchemy 2 removed Engine.{old} (SQLAlchemy 1 code)", _SQLALCHEMY),
    VersionSign(re.compile(r"Not an executable object: '"), "sqlalchemy",
                "SQLAlchemy 2 no longer executes plain SQL strings without text() "
                "(SQLAlchemy 1 code)", _SQLALCHEMY),
    VersionSign(re.compile(r"Did you mean to say select\("), "sqlalchemy",
                "SQLAlchemy 2 takes select(a, b), not select([a, b]) (SQLAlchemy 1 code)",
                _SQLALCHEMY),
    # Flask 2.3+
    VersionSign(re.compile(r"'Flask' object has no attribute '(?P<old>before_first_request|"
                           r"json_encoder|json_decoder)'"), "flask",
                "Flask 2.3 removed app.{old} (code for an older Flask)", _FLASK),
    # bcrypt releases that passlib 1.7 does not know
    VersionSign(re.compile(r"password cannot be longer than 72 bytes"), "bcrypt",
                "bcrypt 5 refuses the long test secret passlib 1.7 hashes when it starts, so "
                "every hash fails (passlib needs bcrypt < 5)", _PASSLIB, frames="passlib"),
    VersionSign(re.compile(r"module 'bcrypt' has no attribute '__about__'"), "bcrypt",
                "passlib 1.7 reads bcrypt.__about__, which bcrypt 4.1 removed", _PASSLIB),
    # marshmallow 3 / 4
    VersionSign(re.compile(r"(?:Field|Str|String|Int|Integer|Float|Bool|Boolean|Nested|List|"
                           r"DateTime|Date|Email|Dict|Raw|Number|Decimal|UUID|Url)\.__init__\(\) "
                           r"got an unexpected keyword argument '(?P<old>missing|default)'"),
                "marshmallow", "marshmallow 4 removed {old}= on fields (load_default= / "
                "dump_default=; marshmallow 3 code)", _MARSHMALLOW),
    VersionSign(re.compile(r"Schema\.__init__\(\) got an unexpected keyword argument "
                           r"'(?P<old>strict|context)'"), "marshmallow",
                "the installed marshmallow no longer takes Schema({old}=...) (code for an "
                "older marshmallow)", _MARSHMALLOW),
)
"""Most specific first: with several signs in one text the first of this list is reported."""


MOVED_NAMES: dict[tuple[str, str], str] = {
    ("pydantic", "BaseSettings"): "pydantic 2 moved BaseSettings to the pydantic-settings "
                                  "package",
    **{("pydantic", n): f"{n} is pydantic 2 API (the installed pydantic is 1.x)"
       for n in ("field_validator", "model_validator", "ConfigDict", "computed_field",
                 "field_serializer", "TypeAdapter")},
    **{("werkzeug.urls", n): f"Werkzeug 3 removed werkzeug.urls.{n}, which Flask < 2.3 imports"
       for n in ("url_quote", "url_parse", "url_encode", "url_unquote", "url_decode",
                 "url_join", "url_quote_plus")},
    ("werkzeug", "cached_property"): "Werkzeug 1.0 removed werkzeug.cached_property",
    ("flask.json", "JSONEncoder"): "Flask 2.3 removed flask.json.JSONEncoder",
    ("flask.json", "JSONDecoder"): "Flask 2.3 removed flask.json.JSONDecoder",
    ("flask", "escape"): "Flask 3 removed flask.escape (markupsafe.escape)",
    ("flask", "Markup"): "Flask 3 removed flask.Markup (markupsafe.Markup)",
    ("flask", "_app_ctx_stack"): "Flask 3 removed flask._app_ctx_stack",
    ("flask", "_request_ctx_stack"): "Flask 3 removed flask._request_ctx_stack",
    **{("sqlalchemy.orm", n): f"{n} is SQLAlchemy 2 API (the installed SQLAlchemy is 1.x)"
       for n in ("DeclarativeBase", "Mapped", "mapped_column", "MappedAsDataclass")},
    ("marshmallow", "missing"): "marshmallow 4 removed marshmallow.missing",
}
"""(module, name) -> the version story of a ``cannot import name`` from a library."""


@dataclass(frozen=True, slots=True)
class ExtraSign:
    """A framework feature that needs an optional distribution, said by the framework's own
    error; ``feature`` names what needs it, ``uses`` finds the repo code using the feature."""

    pattern: re.Pattern[str]
    dist: str
    feature: str
    uses: re.Pattern[str]
    framework: tuple[str, ...]


EXTRA_SIGNS: tuple[ExtraSign, ...] = (
    ExtraSign(re.compile(r'Form data requires "python-multipart"|`python-multipart` library '
                         r'must be installed|installed "multipart" instead of "python-multipart"'),
              "python-multipart", "form and file parameters of FastAPI/Starlette endpoints",
              re.compile(r"\b(?:Form|File|UploadFile)\b\s*[(\]|,)]"), ("fastapi", "starlette")),
    ExtraSign(re.compile(r"email-validator is not installed"), "email-validator",
              "pydantic's EmailStr / NameEmail fields", re.compile(r"\b(?:EmailStr|NameEmail)\b"),
              ("pydantic", "fastapi")),
    ExtraSign(re.compile(r"the greenlet library is required"), "greenlet",
              "SQLAlchemy's asyncio extension", re.compile(r"\bcreate_async_engine\b|"
                                                           r"\bAsyncSession\b"), ("sqlalchemy",)),
    ExtraSign(re.compile(r"MissingBackendError: bcrypt: no backends available"), "bcrypt",
              "passlib's bcrypt scheme", re.compile(r"""['"]bcrypt['"]"""), ("passlib",)),
    ExtraSign(re.compile(r"MissingBackendError: argon2: no backends available"), "argon2-cffi",
              "passlib's argon2 scheme", re.compile(r"""['"]argon2['"]"""), ("passlib",)),
    ExtraSign(re.compile(r"'?(?P<dist>aiofiles|jinja2|itsdangerous)'? must be installed to use"),
              "{dist}", "a Starlette feature", re.compile(r"\b(?:StaticFiles|Jinja2Templates|"
                                                          r"SessionMiddleware)\b"),
              ("starlette", "fastapi")),
)
"""Framework errors that name the optional distribution a feature needs."""
