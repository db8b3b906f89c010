"""The generated repo as a tar for the sandbox's ``/repo``: owned by the sandbox user, readable
and writable by its group (the golden test runner, another user, is in it: white-box tests
import the app and may write next to it, as in a stock run), golden tests in ``tests/``."""

from __future__ import annotations

import io
import os
import tarfile
from pathlib import Path

from inspector.services.repo.files import COPY_IGNORE

MAX_BYTES = 512 * 1024 * 1024
SANDBOX_UID = 1000


class RepoTooLarge(ValueError):
    """The repo (without ignored folders) is larger than the sandbox accepts."""


def _walk(root: Path, skip_tests: bool) -> list[Path]:
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        d = Path(dirpath)
        ignored = COPY_IGNORE(dirpath, dirnames + filenames)
        if d == root and skip_tests:
            ignored = set(ignored) | {"tests"}
        dirnames[:] = sorted(n for n in dirnames if n not in ignored)
        for n in dirnames:
            if (d / n).is_symlink():
                out.append(d / n)
        out += [d / n for n in sorted(filenames) if n not in ignored]
        if d != root:
            out.append(d)
    return out


def repo_tar(repo: Path, tests_dir: Path | None) -> bytes:
    """A tar of ``repo`` (ignoring .git, venvs, caches) with ``tests/`` from ``tests_dir``."""
    buf = io.BytesIO()
    total = 0

    def owned(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = SANDBOX_UID
        info.uname = info.gname = "sandbox"
        info.mode |= 0o664 if info.isfile() else 0o775
        return info

    with tarfile.open(fileobj=buf, mode="w") as tar:
        sources = [(repo, p, p.relative_to(repo).as_posix()) for p in
                   _walk(repo, skip_tests=tests_dir is not None)]
        if tests_dir is not None:
            sources.append((tests_dir, tests_dir, "tests"))
            sources += [(tests_dir, p, "tests/" + p.relative_to(tests_dir).as_posix())
                        for p in _walk(tests_dir, skip_tests=False)]
        for _root, path, arc in sorted(sources, key=lambda s: s[2]):
            info = tar.gettarinfo(str(path), arcname=arc)
            if not (info.isfile() or info.isdir() or info.issym()):
                continue
            total += info.size if info.isfile() else 0
            if total > MAX_BYTES:
                raise RepoTooLarge(f"{repo}: more than {MAX_BYTES // 2**20} MiB of files")
            if info.isfile():
                with path.open("rb") as f:
                    tar.addfile(owned(info), f)
            else:
                tar.addfile(owned(info))
    return buf.getvalue()


def tar_space(data: bytes) -> int:
    """Bytes the tar's files take once extracted on a tmpfs (whole pages per file and folder)."""
    page = 4096
    total = 0
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for info in tar:
            total += page + (-(-info.size // page) * page if info.isfile() else 0)
    return total
