"""The CLI's one error type, and its one settings loader.

A :class:`CliError` is a problem the user can fix: ``inspector`` prints it as
``inspector: error: <message>`` and exits with the error's own ``exit_code``.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.config import Settings

EXIT_ERROR = 1
EXIT_MISSING = 2  # a path the user named does not exist
EXIT_NOT_DEPLOYED = 2  # nothing could be deployed
EXIT_UNREADABLE = 3  # summary/failures: figures printed, but a sample's files could not be read


def _why_missing(path: Path) -> str:
    """``no such file or folder``, or what is wrong with the symlink at ``path``."""
    try:
        if not path.is_symlink():
            return "no such file or folder"
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "cannot read: symlink loop"
        if exc.errno == errno.ENOENT:
            return "a symlink to a file or folder that does not exist"
        return f"cannot read: {(exc.strerror or str(exc)).lower()}"
    return "no such file or folder"


class CliError(Exception):
    """A user error: printed as ``inspector: error: <message>``, exits with ``exit_code``."""

    def __init__(self, message: str, exit_code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.exit_code = exit_code

    @classmethod
    def missing(cls, path: Path | str) -> CliError:
        """``PATH: no such file or folder`` (or why a symlink there leads nowhere), exit 2."""
        return cls(f"{path}: {_why_missing(Path(path))}", EXIT_MISSING)

    @classmethod
    def of(cls, exc: BaseException) -> CliError:
        """A service error as is: exit 2 when it comes from a file that does not exist,
        else 1."""
        return cls(str(exc), EXIT_MISSING if _from_missing_file(exc) else EXIT_ERROR)


def _from_missing_file(exc: BaseException) -> bool:
    """Whether ``exc`` was raised while handling a :class:`FileNotFoundError`."""
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        if isinstance(cur, FileNotFoundError):
            return True
        seen.add(id(cur))
        cur = cur.__cause__ or cur.__context__
    return False


def cli_settings(exit_code: int = EXIT_ERROR) -> Settings:
    """The user's settings; a config problem is a :class:`CliError` with ``exit_code``."""
    from inspector.config import ConfigError, load_settings

    try:
        return load_settings()
    except ConfigError as exc:
        raise CliError(str(exc), exit_code) from None
