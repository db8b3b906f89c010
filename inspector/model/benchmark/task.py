"""Benchmark tasks: the README an agent is given and the golden test suite."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One endpoint the task README requires (``method`` is ``FEATURE`` for pseudo-endpoints)."""

    method: str
    path: str
    description: str = ""
    # The path as the README writes it when the stock extraction cut it short at a ':param'
    # segment ('/api/items/' from '/api/items/:id'); '' otherwise. Not part of the key.
    spec_path: str = ""
    # Set on spec endpoints (see :mod:`inspector.model.readme.spec_endpoints`), not part of
    # equality: the README line it was read from (1-based, 0 unknown), whether the stock extraction
    # sees it ("stock") or only the spec extraction does ("spec"), and how it was built.
    readme_line: int = field(default=0, compare=False)
    source: str = field(default="", compare=False)
    note: str = field(default="", compare=False)
    stock_key: str = field(default="", compare=False)  # the stock endpoint it corresponds to

    @property
    def key(self) -> str:
        return f"{self.method}:{self.path}"

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


@dataclass(frozen=True, slots=True)
class Task:
    """A benchmark task as found on disk (``<root>/repo/<name>/``)."""

    name: str
    language: str  # "python" | "java"
    framework: str  # hint: fastapi, flask, any, springboot, ...
    port: int | None
    readme: str
    root: Path | None = None
    tests_dir: Path | None = None
    expected_tests: int | None = None
    endpoints: tuple[Endpoint, ...] = field(default_factory=tuple)  # stock extraction rules
    test_notes: tuple[str, ...] = ()  # e.g. disabled JUnit tests found while counting
    # What the README really requires (strict AC); empty when not known (then use endpoints).
    spec_endpoints: tuple[Endpoint, ...] = ()

    @property
    def required_endpoints(self) -> tuple[Endpoint, ...]:
        """The endpoints strict AC is over: the spec list, or the stock list without one."""
        return self.spec_endpoints or self.endpoints

    @property
    def readme_path(self) -> Path | None:
        return self.root / "README.md" if self.root else None
