"""Bytecode for cached venvs the boxed service may only read.

uv installs without compiling, and a boxed service cannot write ``__pycache__`` into its
read-only venv, so every start would compile every import again (about a second for a
FastAPI stack). The service writes its bytecode under ``PYTHONPYCACHEPREFIX`` instead (a
folder of the session); after it stopped, :func:`adopt` compiles the same sources of the venv
itself — the service's own ``.pyc`` files are never trusted — so later samples reuse them.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import py_compile
from pathlib import Path

LIMIT = 20_000


def adopt(prefix: Path, venv: Path) -> int:
    """Compile into ``venv`` the sources the service compiled under ``prefix``; how many."""
    root = Path(os.path.realpath(venv))
    base = prefix / root.relative_to(root.anchor)
    done = 0
    for dirpath, _, filenames in os.walk(base):
        for name in filenames:
            if not name.endswith(".pyc") or done >= LIMIT:
                continue
            rel = Path(dirpath).relative_to(prefix)
            source = Path(root.anchor) / rel / (name.split(".", 1)[0] + ".py")
            if source.is_symlink() or not source.is_file():
                continue
            target = Path(importlib.util.cache_from_source(str(source)))
            if target.exists():
                continue
            with contextlib.suppress(OSError, py_compile.PyCompileError, ValueError):
                py_compile.compile(str(source), cfile=str(target), doraise=True)
                done += 1
    return done
