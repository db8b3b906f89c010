"""Dependency readings (issue 30 item 3) and golden-suite imports (item 4): real pip output,
real tracebacks of pydantic 2, SQLAlchemy 2, Flask 3, passlib with bcrypt 5, FastAPI without
python-multipart, and repo files written in tmp_path."""

from __future__ import annotations

from inspector.model.labels.label_file import Anchor
from inspector.model.results.outcomes import Outcome, Phase
from inspector.services.triage.exception_rules import suggest
from tests.unit.triage.test_label_suggest import LIB, REPO_PREFIX, case, sample

PIP = ("meta", "$ /v/bin/python -m pip install --no-input -r /tmp/gi-x/repo/requirements.txt")


def install_failure(tmp_path, reqs: str, lines: list) -> object:
    return sample(tmp_path, repo={"requirements.txt": reqs, "app.py": "import flask\n"},
                  logs={Phase.INSTALL: [PIP, *lines]}, success=False,
                  failed_phase=Phase.INSTALL)


def start_failure(tmp_path, tb: list[str], repo: dict[str, str],
                  logs_extra: dict | None = None) -> object:
    """The service's start failed with traceback ``tb``; other phase logs as given."""
    start = [("meta", "entry point: start.sh"),
             ("meta", "$ bash start.sh   (cwd: repo root, PORT=18080)"), *tb]
    logs = {Phase.START: start,
            Phase.HEALTH: [("meta", "process exited with code 1 after 0.3s")],
            **(logs_extra or {})}
    return sample(tmp_path, logs=logs, repo=repo, success=False, failed_phase=Phase.START,
                  message="process exited with code 1 after 0.3s")


# --- pip's verdict read closer

def test_an_import_name_given_as_a_distribution(tmp_path) -> None:
    s = install_failure(tmp_path, "flask==3.0.3\nyaml\n", [
        ("out", "Collecting flask==3.0.3"),
        "ERROR: Could not find a version that satisfies the requirement yaml (from versions: "
        "none)",
        "ERROR: No matching distribution found for yaml"])
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("dependency", "pip-import-name-as-distribution")
    assert "'yaml' is the name code imports, not a distribution" in got.reason
    assert "pyyaml" in got.reason
    assert Anchor.file("requirements.txt", 2) in got.evidence


def test_a_name_no_index_has_is_a_hallucinated_package(tmp_path) -> None:
    s = install_failure(tmp_path, "fastapi==0.110.0\nfastapi-magic-auth==1.0\n", [
        "ERROR: Could not find a version that satisfies the requirement "
        "fastapi-magic-auth==1.0 (from versions: none)",
        "ERROR: No matching distribution found for fastapi-magic-auth==1.0"])
    got = suggest(s)
    assert got is not None and (got.category, got.rule) == ("dependency", "pip-no-distribution")
    assert "no distribution named 'fastapi-magic-auth' exists" in got.reason
    assert "hallucinated" in got.reason
    assert any(a.kind == "log" and a.line == 2 for a in got.evidence)  # the versions line


def test_a_pin_no_release_matches(tmp_path) -> None:
    s = install_failure(tmp_path, "pydantic==3.1.0\n", [
        "ERROR: Could not find a version that satisfies the requirement pydantic==3.1.0 (from "
        "versions: 0.0.1, 1.10.13, 2.5.3, 2.7.1)",
        "ERROR: No matching distribution found for pydantic==3.1.0"])
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("dependency", "pip-no-matching-version")
    assert "the index has pydantic, but no release matching 'pydantic==3.1.0'" in got.reason
    assert "2.7.1" in got.reason


def test_a_conflict_names_what_pip_says_conflicts(tmp_path) -> None:
    s = install_failure(tmp_path, "fastapi==0.110.0\nstarlette==0.20.0\nuvicorn\n", [
        "ERROR: Cannot install -r /tmp/gi-x/repo/requirements.txt (line 1) and "
        "starlette==0.20.0 because these package versions have conflicting dependencies.",
        ("out", ""),
        ("out", "The conflict is caused by:"),
        ("out", "    The user requested starlette==0.20.0"),
        ("out", "    fastapi 0.110.0 depends on starlette<0.37.0 and >=0.36.3"),
        ("out", ""),
        ("out", "To fix this you could try to:"),
        "ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/"
        "dependency-resolution/#dealing-with-dependency-conflicts"])
    got = suggest(s)
    assert got is not None and (got.category, got.rule) == ("dependency", "pip-conflict")
    assert "The user requested starlette==0.20.0; fastapi 0.110.0 depends on " \
           "starlette<0.37.0 and >=0.36.3" in got.reason
    assert Anchor.file("requirements.txt", 1) in got.evidence  # fastapi
    assert Anchor.file("requirements.txt", 2) in got.evidence  # starlette
    assert got.evidence[0].line == 2


# --- code for another major version

def test_pydantic_1_code_on_pydantic_2(tmp_path) -> None:
    install = [PIP, ("out", "Successfully installed annotated-types-0.7.0 fastapi-0.110.0 "
                            "pydantic-2.7.1 pydantic-core-2.18.2 starlette-0.36.3")]
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        f'  File "{REPO_PREFIX}/main.py", line 1, in <module>',
        "    from config import settings",
        f'  File "{REPO_PREFIX}/config.py", line 2, in <module>',
        "    from pydantic import BaseSettings",
        f'  File "{LIB}/pydantic/__init__.py", line 374, in __getattr__',
        "    return _getattr_migration(attr_name)",
        f'  File "{LIB}/pydantic/_migration.py", line 296, in wrapper',
        "    raise PydanticImportError(",
        "pydantic.errors.PydanticImportError: `BaseSettings` has been moved to the "
        "`pydantic-settings` package. See https://docs.pydantic.dev/2.7/migration/"
        "#basesettings-has-moved-to-pydantic-settings for more details."],
        repo={"main.py": "from config import settings\n",
              "config.py": "import os\nfrom pydantic import BaseSettings\n",
              "requirements.txt": "fastapi==0.110.0\npydantic>=2\n"},
        logs_extra={Phase.INSTALL: install})
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("dependency", "major-version-mismatch")
    assert "pydantic 2 moved BaseSettings to the pydantic-settings package" in got.reason
    assert "the install log shows pydantic 2.7.1" in got.reason
    assert "requirements.txt has pydantic>=2" in got.reason
    assert Anchor.file("config.py", 2) in got.evidence  # the import site
    assert Anchor.file("requirements.txt", 2) in got.evidence
    assert any(a.kind == "log" and a.phase == "install" for a in got.evidence)


def test_pydantic_2_code_on_pydantic_1_is_not_cross_file(tmp_path) -> None:
    """``model_dump`` missing on the repo's own model is pydantic 1 installed, not two repo
    files disagreeing."""
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        f'  File "{REPO_PREFIX}/routes.py", line 6, in create',
        "    return item.model_dump()",
        "AttributeError: 'Item' object has no attribute 'model_dump'"],
        repo={"models.py": "from pydantic import BaseModel\n\nclass Item(BaseModel):\n"
                           "    name: str\n    price: float\n",
              "routes.py": "from models import Item\n\n\n\ndef create(item: Item):\n"
                           "    return item.model_dump()\n",
              "requirements.txt": "fastapi==0.95.0\n"})
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("dependency", "major-version-mismatch")
    assert "model_dump is pydantic 2 API" in got.reason
    assert "requirements.txt does not pin pydantic" in got.reason
    assert Anchor.file("routes.py", 6) in got.evidence


def test_sqlalchemy_1_code_on_sqlalchemy_2(tmp_path) -> None:
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        f'  File "{REPO_PREFIX}/db.py", line 4, in <module>',
        "    engine.execute('CREATE TABLE IF NOT EXISTS items (id INTEGER)')",
        "AttributeError: 'Engine' object has no attribute 'execute'"],
        repo={"db.py": "from sqlalchemy import create_engine\n\nengine = create_engine("
                       "'sqlite:///x.db')\nengine.execute('CREATE TABLE IF NOT EXISTS items "
                       "(id INTEGER)')\n",
              "requirements.txt": "flask\nSQLAlchemy\n"})
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("dependency", "major-version-mismatch")
    assert "SQLAlchemy 2 removed Engine.execute" in got.reason
    assert Anchor.file("db.py", 4) in got.evidence
    assert Anchor.file("requirements.txt", 2) in got.evidence


def test_flask_before_first_request_removed(tmp_path) -> None:
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        f'  File "{REPO_PREFIX}/app.py", line 5, in <module>',
        "    @app.before_first_request",
        "     ^^^^^^^^^^^^^^^^^^^^^^^^",
        "AttributeError: 'Flask' object has no attribute 'before_first_request'. Did you "
        "mean: '_got_first_request'?"],
        repo={"app.py": "from flask import Flask\n\napp = Flask(__name__)\n\n"
                        "@app.before_first_request\ndef init():\n    pass\n",
              "requirements.txt": "Flask\n"})
    got = suggest(s)
    assert got is not None and got.rule == "major-version-mismatch"
    assert "Flask 2.3 removed app.before_first_request" in got.reason


def test_passlib_with_bcrypt_5_fails_every_hash(tmp_path) -> None:
    tb = ["Traceback (most recent call last):",
          f'  File "{REPO_PREFIX}/auth.py", line 9, in hash_password',
          "    return pwd_context.hash(password)",
          f'  File "{LIB}/passlib/handlers/bcrypt.py", line 380, in detect_wrap_bug',
          "    if verify(secret, bug_hash):",
          f'  File "{LIB}/passlib/handlers/bcrypt.py", line 655, in _calc_checksum',
          "    hash = _bcrypt.hashpw(secret, config)",
          "ValueError: password cannot be longer than 72 bytes, truncate manually if necessary "
          "(e.g. my_password[:72])"]
    trapped = ["(trapped) error reading bcrypt version", "Traceback (most recent call last):",
               f'  File "{LIB}/passlib/handlers/bcrypt.py", line 620, in _load_backend_mixin',
               "    version = _bcrypt.__about__.__version__",
               "AttributeError: module 'bcrypt' has no attribute '__about__'"]
    s = start_failure(tmp_path, [*trapped, *tb],
                      repo={"auth.py": "from passlib.context import CryptContext\n\n"
                                       "pwd_context = CryptContext(schemes=['bcrypt'])\n",
                            "requirements.txt": "fastapi\npasslib[bcrypt]==1.7.4\n"},
                      logs_extra={Phase.INSTALL: [PIP, ("out", "Successfully installed "
                                                               "bcrypt-5.0.0 passlib-1.7.4")]})
    got = suggest(s)
    assert got is not None and got.rule == "major-version-mismatch"
    assert got.reason.startswith("ValueError: password cannot be longer than 72 bytes")
    assert "the install log shows bcrypt 5.0.0" in got.reason
    assert Anchor.file("auth.py", 9) in got.evidence


def test_a_version_sign_needs_the_library_in_the_repo(tmp_path) -> None:
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        f'  File "{REPO_PREFIX}/app.py", line 2, in <module>',
        "    Store().model_dump()",
        "AttributeError: 'Store' object has no attribute 'model_dump'"],
        repo={"app.py": "class Store:\n    pass\nStore().model_dump()\n"})
    got = suggest(s)
    assert got is None or got.rule != "major-version-mismatch"


# --- a framework extra

def test_fastapi_form_endpoint_without_python_multipart(tmp_path) -> None:
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        f'  File "{REPO_PREFIX}/main.py", line 8, in <module>',
        '    @app.post("/upload")',
        f'  File "{LIB}/fastapi/dependencies/utils.py", line 145, in '
        "ensure_multipart_is_installed",
        "    raise RuntimeError(multipart_not_installed_error) from None",
        'RuntimeError: Form data requires "python-multipart" to be installed. ',
        'You can install "python-multipart" with: ',
        "",
        "pip install python-multipart"],
        repo={"main.py": "from fastapi import FastAPI, File, UploadFile\n\napp = FastAPI()"
                         "\n\n\n\n\n@app.post('/upload')\nasync def upload(file: UploadFile = "
                         "File(...)):\n    return {}\n",
              "requirements.txt": "fastapi==0.110.0\nuvicorn\n"})
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("dependency", "framework-extra-missing")
    assert "need python-multipart: requirements.txt does not list it (it lists " \
           "fastapi==0.110.0" in got.reason
    assert Anchor.file("main.py", 8) in got.evidence
    assert Anchor.file("requirements.txt", 1) in got.evidence


def test_email_str_without_email_validator(tmp_path) -> None:
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        f'  File "{LIB}/pydantic/networks.py", line 1040, in import_email_validator',
        "    import email_validator",
        "ModuleNotFoundError: No module named 'email_validator'",
        "",
        "The above exception was the direct cause of the following exception:",
        "",
        "Traceback (most recent call last):",
        f'  File "{REPO_PREFIX}/schemas.py", line 3, in <module>',
        "    class UserIn(BaseModel):",
        f'  File "{LIB}/pydantic/networks.py", line 1042, in import_email_validator',
        "    raise ImportError(\"email-validator is not installed, run `pip install "
        "'pydantic[email]'`\") from e",
        "ImportError: email-validator is not installed, run `pip install 'pydantic[email]'`"],
        repo={"schemas.py": "from pydantic import BaseModel, EmailStr\n\nclass UserIn("
                            "BaseModel):\n    email: EmailStr\n",
              "requirements.txt": "fastapi\npydantic==2.7.1\n"})
    got = suggest(s)
    assert got is not None and got.rule == "framework-extra-missing"
    assert "EmailStr" in got.reason and "need email-validator" in got.reason
    assert Anchor.file("schemas.py", 4) in got.evidence  # where EmailStr is used


def test_a_missing_module_names_its_distribution(tmp_path) -> None:
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        f'  File "{REPO_PREFIX}/auth.py", line 1, in <module>',
        "    import jwt",
        "ModuleNotFoundError: No module named 'jwt'"],
        repo={"auth.py": "import jwt\n", "requirements.txt": "flask\npython-jose\n"})
    got = suggest(s)
    assert got is not None and got.rule == "missing-third-party-module"
    assert "(the distribution that provides 'jwt' is pyjwt)" in got.reason
    assert Anchor.file("auth.py", 1) in got.evidence


# --- item 4: imports made by the golden suite

WHITE_BOX_TB = """ImportError while importing test module '/tmp/gi-x/repo/tests/test_service.py'.
Traceback:
/root/.pyenv/versions/3.11.7/lib/python3.11/importlib/__init__.py:126: in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
tests/test_service.py:4: in <module>
    from app.services.orders import OrderService
E   ImportError: cannot import name 'OrderService' from 'app.services.orders' \
(/tmp/gi-x/repo/app/services/orders.py)"""


def white_box(tmp_path, readme: str | None):
    c = case("tests/test_service.py", "collection failure", WHITE_BOX_TB, Outcome.ERROR)
    s = sample(tmp_path, repo={"app/__init__.py": "", "app/services/__init__.py": "",
                               "app/services/orders.py": "class OrdersManager:\n    pass\n"},
               cases=(c,))
    return suggest(s, "tests/test_service.py", task_readme=readme)


def test_golden_import_of_an_undocumented_layout_is_not_cross_file(tmp_path) -> None:
    got = white_box(tmp_path, "# Orders\n\nPOST /orders creates an order. Port 8080.\n")
    assert got is not None
    assert (got.category, got.rule) == ("not-model", "golden-test-undocumented-import")
    assert "tests/test_service.py" in got.reason and "never mentions" in got.reason


def test_golden_import_without_a_readme_says_nothing(tmp_path) -> None:
    assert white_box(tmp_path, None) is None


def test_golden_import_the_readme_describes_is_the_repo_not_following_it(tmp_path) -> None:
    got = white_box(tmp_path, "Put `OrderService` in `app/services/orders.py`.\n")
    assert got is not None and (got.category, got.rule) == ("other", "readme-name-missing")


def test_golden_import_from_conftest_under_a_package_layout(tmp_path) -> None:
    tb = ("tests/test_users.py:2: in <module>\n    from conftest import BASE_URL\n"
          "E   ImportError: cannot import name 'BASE_URL' from 'conftest' "
          "(/tmp/gi-x/repo/conftest.py)")
    c = case("tests/test_users.py", "collection failure", tb, Outcome.ERROR)
    s = sample(tmp_path, repo={"conftest.py": "import pytest\n", "app.py": ""}, cases=(c,))
    got = suggest(s, "tests/test_users.py", task_readme="# Users\n")
    assert got is not None
    assert (got.category, got.rule) == ("not-model", "golden-suite-harness-convention")


def test_the_repos_own_modules_disagreeing_stay_cross_file(tmp_path) -> None:
    """A golden test imports the app; the app's own import of a sibling fails: cross-file."""
    tb = ("tests/test_service.py:1: in <module>\n    from app.main import app\n"
          "app/main.py:2: in <module>\n    from app.services.orders import OrderService\n"
          "E   ImportError: cannot import name 'OrderService' from 'app.services.orders' "
          "(/tmp/gi-x/repo/app/services/orders.py)")
    c = case("tests/test_service.py", "collection failure", tb, Outcome.ERROR)
    s = sample(tmp_path, repo={"app/__init__.py": "", "app/services/__init__.py": "",
                               "app/main.py": "import os\nfrom app.services.orders import "
                                              "OrderService\n",
                               "app/services/orders.py": "class OrdersManager:\n    pass\n"},
               cases=(c,))
    got = suggest(s, "tests/test_service.py", task_readme="`app/main.py` holds the app.\n")
    assert got is not None and (got.category, got.rule) == ("cross-file", "repo-name-missing")
