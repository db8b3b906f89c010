"""Generate a large, realistic deployment log in our run format (for ``bench_log_index.py``).

Usage::

    python bench/make_log.py OUT [--size-mb 1024] [--seed 0]

One record per line, ``<ISO-8601 timestamp, microseconds, +00:00> TAB <out|err|meta> TAB <text>``
(``docs/run-format.md``, "Logs"), timestamps increasing by small random steps with some
multi-second gaps. The text mixes pip output, uvicorn/Flask start-up and access lines, pytest
``-v`` output with failures, Python tracebacks and warnings, plus a few oddities a viewer must
survive: lines of about 1 MB, invalid UTF-8 bytes and ANSI colour sequences.

Fast: a pool of randomised "episodes" (a pip install, a server session, a test run, ...) is
built once, then episodes are drawn from it and stamped; only the timestamps are formatted per
line, and output goes out in 8 MiB writes (1 GB takes about 10-20 s).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

_START = datetime(2026, 11, 21, 6, 20, 4, tzinfo=UTC)
_FLUSH = 8 << 20
_POOL = 1500  # episodes in the pool

_PKGS = ["flask", "fastapi", "uvicorn", "pydantic", "starlette", "werkzeug", "jinja2",
         "itsdangerous", "click", "markupsafe", "anyio", "sniffio", "idna", "h11", "requests",
         "urllib3", "certifi", "charset-normalizer", "sqlalchemy", "greenlet", "pytest",
         "pluggy", "iniconfig", "packaging", "typing-extensions", "annotated-types",
         "pydantic-core", "httpx", "httpcore", "blinker", "python-dotenv", "marshmallow"]
_ROUTES = ["/todos", "/todos/{id}", "/users", "/users/{id}", "/items", "/items/{id}",
           "/auth/login", "/auth/register", "/health", "/orders", "/orders/{id}/items",
           "/notes", "/books", "/books/{id}/reviews", "/search"]
_METHODS = ["GET", "GET", "GET", "POST", "PUT", "DELETE", "PATCH"]
_ERRORS = [("AssertionError", "assert 404 == 200"),
           ("KeyError", "'id'"),
           ("TypeError", "'NoneType' object is not subscriptable"),
           ("AttributeError", "'dict' object has no attribute 'json'"),
           ("ModuleNotFoundError", "No module named 'routes'"),
           ("ValueError", "invalid literal for int() with base 10: 'abc'"),
           ("sqlalchemy.exc.OperationalError", "(sqlite3.OperationalError) no such table: todo"),
           ("pydantic_core._pydantic_core.ValidationError", "1 validation error for TodoCreate"),
           ("OSError", "[Errno 98] Address already in use"),
           ("json.decoder.JSONDecodeError", "Expecting value: line 1 column 1 (char 0)")]
_CODE = ["assert resp.status_code == 200", "return jsonify(todos[todo_id])",
         "data = request.get_json()['title']", "from routes import todos_bp",
         "item = db.session.get(Item, item_id)", "resp = client.post('/todos', json=payload)",
         "app.run(host='0.0.0.0', port=port)", "user = users[int(user_id)]"]
_FUNCS = ["create_todo", "get_item", "update_user", "login", "list_books", "delete_order",
          "search", "add_review", "health", "register"]
_ANSI = ["\x1b[32m", "\x1b[31m", "\x1b[33m", "\x1b[1m", "\x1b[36m"]


def _ver(r: random.Random) -> str:
    return f"{r.choice([0, 1, 1, 2, 2, 3, 4, 23, 68])}.{r.randint(0, 30)}.{r.randint(0, 12)}"


def _tmp(r: random.Random) -> str:
    return f"/tmp/gi-{r.choice(_FUNCS).replace('_', '-')}-{r.getrandbits(40):010x}"


def _pip(r: random.Random) -> list[str]:
    venv = f"/tmp/gi-cold/venvs/{r.getrandbits(80):020x}"
    pkgs = r.sample(_PKGS, r.randint(3, 14))
    out = [f"meta\t$ {venv}/bin/python -m pip install -r requirements.txt"]
    for p in pkgs:
        v = _ver(r)
        if r.random() < 0.3:
            out.append(f"out\tRequirement already satisfied: {p}>={v} in {venv}/lib/python3.11/"
                       "site-packages (from -r requirements.txt (line 2))")
            continue
        kb = r.randint(8, 4000)
        out.append(f"out\tCollecting {p}=={v} (from -r requirements.txt (line {r.randint(1, 9)}))")
        out.append(f"out\t  Downloading {p.replace('-', '_')}-{v}-py3-none-any.whl ({kb} kB)")
        out.append(f"out\t     {'━' * 40} {kb}.0/{kb}.0 kB {r.uniform(0.5, 40):.1f} MB/s "
                   "eta 0:00:00")
    if r.random() < 0.15:
        bad = r.choice(pkgs)
        out.append(f"err\tERROR: Could not find a version that satisfies the requirement "
                   f"{bad}==99.0 (from versions: {_ver(r)}, {_ver(r)}, {_ver(r)})")
        out.append(f"err\tERROR: No matching distribution found for {bad}==99.0")
        out.append("meta\tpip exited with status 1")
        return out
    out.append(f"out\tInstalling collected packages: {', '.join(pkgs)}")
    out.append("out\tSuccessfully installed " + " ".join(f"{p}-{_ver(r)}" for p in pkgs))
    if r.random() < 0.4:
        out.append("err\t\x1b[33mWARNING: You are using pip version 23.0.1; however, version "
                   "24.0 is available.\x1b[0m")
    return out


def _traceback(r: random.Random, stream: str = "err") -> list[str]:
    tmp = _tmp(r)
    out = [f"{stream}\tTraceback (most recent call last):"]
    for _ in range(r.randint(1, 6)):
        mod = r.choice(["app.py", "routes.py", "models.py", "tests/test_api.py",
                        "/usr/lib/python3.11/site-packages/flask/app.py"])
        path = mod if mod.startswith("/") else f"{tmp}/repo/{mod}"
        out.append(f'{stream}\t  File "{path}", line {r.randint(1, 900)}, in {r.choice(_FUNCS)}')
        out.append(f"{stream}\t    {r.choice(_CODE)}")
    exc, msg = r.choice(_ERRORS)
    out.append(f"{stream}\t{exc}: {msg}")
    return out


def _server(r: random.Random) -> list[str]:
    port = r.randint(18000, 18999)
    out = [f"meta\t$ bash start.sh   (cwd: repo root, PORT={port})"]
    if r.random() < 0.5:
        pid = r.randint(1000, 99999)
        info = "\x1b[32mINFO\x1b[0m:" if r.random() < 0.3 else "INFO:"
        out += [f"err\t{info}     Started server process [{pid}]",
                f"err\t{info}     Waiting for application startup.",
                f"err\t{info}     Application startup complete.",
                f"err\t{info}     Uvicorn running on http://0.0.0.0:{port} (Press CTRL+C to quit)"]
        for _ in range(r.randint(2, 40)):
            code = r.choice([200, 200, 200, 201, 204, 404, 422, 500])
            out.append(f'out\t{info}     127.0.0.1:{r.randint(30000, 60000)} - '
                       f'"{r.choice(_METHODS)} {r.choice(_ROUTES)} HTTP/1.1" {code}')
            if code == 500 and r.random() < 0.5:
                out.append("err\tERROR:    Exception in ASGI application")
                out += _traceback(r)
    else:
        out += [" * Serving Flask app 'app'", " * Debug mode: off",
                "\x1b[31m\x1b[1mWARNING: This is a development server. Do not use it in a "
                "production deployment. Use a production WSGI server instead.\x1b[0m",
                f" * Running on http://127.0.0.1:{port}", "Press CTRL+C to quit"]
        out = [out[0]] + [f"err\t{line}" for line in out[1:]]
        for _ in range(r.randint(2, 40)):
            code = r.choice([200, 200, 201, 404, 405, 500])
            out.append(f'err\t127.0.0.1 - - [21/Nov/2026 06:{r.randint(0, 59):02d}:'
                       f'{r.randint(0, 59):02d}] "{r.choice(_METHODS)} {r.choice(_ROUTES)} '
                       f'HTTP/1.1" {code} -')
            if code == 500:
                out.append(f"err\t[2026-11-21 06:20:05,{r.randint(0, 999):03d}] ERROR in app: "
                           f"Exception on {r.choice(_ROUTES)} [{r.choice(_METHODS)}]")
                out += _traceback(r)
    if r.random() < 0.2:
        out.append(f"err\t{_tmp(r)}/repo/models.py:{r.randint(1, 200)}: DeprecationWarning: "
                   "datetime.datetime.utcnow() is deprecated and scheduled for removal")
        out.append("err\t  created = datetime.utcnow()")
    return out


def _pytest(r: random.Random) -> list[str]:
    n = r.randint(5, 60)
    tmp = _tmp(r)
    out = ["out\t============================= test session starts "
           "==============================",
           f"out\tplatform linux -- Python 3.11.7, pytest-8.1.1, pluggy-1.4.0 -- "
           f"{tmp}/venv/bin/python",
           f"out\trootdir: {tmp}/repo", f"out\tcollecting ... collected {n} items", "out\t"]
    failed: list[str] = []
    for k in range(n):
        name = f"tests/test_{r.choice(_FUNCS)}.py::test_{r.choice(_FUNCS)}_{k}"
        verdict = "PASSED" if r.random() < 0.8 else r.choice(["FAILED", "FAILED", "ERROR"])
        if verdict != "PASSED":
            failed.append(name)
        pct = f"[{(k + 1) * 100 // n:3d}%]"
        if r.random() < 0.1:
            verdict = ("\x1b[32mPASSED\x1b[0m" if verdict == "PASSED"
                       else f"\x1b[31m{verdict}\x1b[0m")
        out.append(f"out\t{name} {verdict}{' ' * max(1, 70 - len(name))}{pct}")
    if failed:
        out.append("out\t" + "=" * 30 + " FAILURES " + "=" * 30)
        for name in failed[:5]:
            out.append(f"out\t{'_' * 20} {name.split('::')[1]} {'_' * 20}")
            out.append(f"out\t    def {name.split('::')[1]}(client):")
            out.append(f"out\t>       {r.choice(_CODE)}")
            exc, msg = r.choice(_ERRORS)
            out.append(f"out\tE       {exc}: {msg}")
            out.append(f"out\t{name.split('::')[0]}:{r.randint(5, 300)}: {exc}")
        for name in failed:
            out.append(f"out\tFAILED {name} - {r.choice(_ERRORS)[1]}")
    out.append(f"out\t{'=' * 20} {len(failed)} failed, {n - len(failed)} passed in "
               f"{r.uniform(0.2, 40):.2f}s {'=' * 20}")
    return out


def _health(r: random.Random) -> list[str]:
    port = r.randint(18000, 18999)
    out = [f"meta\tport {port} not open yet (attempt {k})" for k in range(1, r.randint(1, 6))]
    out.append(f"meta\tGET http://127.0.0.1:{port}{r.choice(_ROUTES)} -> "
               f"{r.choice([200, 200, 404, 500])} in {r.uniform(0.001, 0.3):.3f}s")
    if r.random() < 0.1:  # a response body that is not UTF-8 (lone bytes, via surrogateescape)
        out.append("out\tresponse body: \udcff\udcfe\udc80garbage\udcc3 (binary)")
    return out


def _episode(r: random.Random) -> list[str]:
    kind = r.random()
    if kind < 0.25:
        return _pip(r)
    if kind < 0.5:
        return _server(r)
    if kind < 0.8:
        return _pytest(r)
    if kind < 0.9:
        return _health(r)
    return _traceback(r, r.choice(["err", "meta"]))


def _huge_line(r: random.Random) -> str:
    """A ~1 MB record: a dumped JSON response body on one line."""
    item = '{"id": %d, "title": "todo item %d", "done": false, "tags": ["a", "b"]}, '
    body = "".join(item % (k, k) for k in range(14_000))
    return f"out\tresponse: [{body}]"


def make_log(path: Path, size_bytes: int, seed: int = 0) -> int:
    """Write a synthetic deployment log of about ``size_bytes`` (whole lines) to ``path``.

    Returns the number of lines written. Deterministic for a given size and seed.
    """
    r = random.Random(seed)
    pool = [
        [line.encode("utf-8", "surrogateescape") for line in _episode(r)] for _ in range(_POOL)
    ]
    huge = _huge_line(r).encode()
    # Steps between records, in microseconds: mostly small, sometimes a pause.
    steps = [r.choices([r.randint(5, 400), r.randint(100, 30_000), r.randint(1000, 900_000)],
                       [70, 25, 5])[0] for _ in range(4093)]
    gaps = [r.randint(1_000_000, 45_000_000) for _ in range(97)]
    t = int(_START.timestamp() * 1_000_000)
    last_sec = -1
    prefix = b""
    written = lines = si = gi = 0
    out: list[bytes] = []
    pending = 0
    with open(path, "wb", buffering=0) as fh:
        while written + pending < size_bytes:
            # ~1 MB lines: about one per 50 MB of log.
            episode = [huge] if r.random() < 0.00005 else pool[r.randrange(_POOL)]
            if r.random() < 0.05:
                t += gaps[gi]
                gi = (gi + 1) % len(gaps)
            for body in episode:
                t += steps[si]
                si = (si + 1) % len(steps)
                sec, us = divmod(t, 1_000_000)
                if sec != last_sec:
                    last_sec = sec
                    prefix = datetime.fromtimestamp(sec, UTC).strftime("%Y-%m-%dT%H:%M:%S.")
                    prefix = prefix.encode()
                rec = b"%s%06d+00:00\t%s\n" % (prefix, us, body)
                out.append(rec)
                pending += len(rec)
            lines += len(episode)
            if pending >= _FLUSH:
                fh.write(b"".join(out))
                written += pending
                out.clear()
                pending = 0
        fh.write(b"".join(out))
    return lines


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="log file to write (replaced)")
    ap.add_argument("--size-mb", type=float, default=1024, help="size in MiB (default 1024)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    n = make_log(args.out, int(args.size_mb * (1 << 20)), args.seed)
    size = args.out.stat().st_size
    print(f"{args.out}: {size / (1 << 20):.1f} MiB, {n:,} lines in "
          f"{time.perf_counter() - t0:.1f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
