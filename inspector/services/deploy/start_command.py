"""How a generated repo is started: the stock entrypoint's command (both backends)."""

from __future__ import annotations

from pathlib import Path


def find_start_command(repo: Path, port: int) -> tuple[list[str], str] | None:
    """The command the stock entrypoint would run, and a description of how it was found."""
    for rel in ("start.sh", "scripts/start.sh", "bin/start.sh"):
        if (repo / rel).is_file():
            return ["bash", rel], rel
    for path in sorted(repo.rglob("start.sh"), key=lambda p: (len(p.parts), str(p))):
        rel_path = path.relative_to(repo)
        if len(rel_path.parts) <= 3 and not any(p in ("venv", ".venv", "node_modules")
                                                for p in rel_path.parts):
            return ["bash", rel_path.as_posix()], rel_path.as_posix()
    for name in ("app.py", "main.py", "run.py"):
        if (repo / name).is_file():
            return ["python", name], f"no start.sh; fallback `python {name}`"
    if (repo / "manage.py").is_file():
        return (["python", "manage.py", "runserver", f"127.0.0.1:{port}"],
                "no start.sh; fallback Django runserver")
    if (repo / "server.py").is_file():
        return ["python", "server.py"], "no start.sh; fallback `python server.py`"
    return None
