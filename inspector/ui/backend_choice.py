"""Docker or local for re-runs and requests, chosen in the app with the CLI's safety.

Local runs generated code as the user's own processes, so it is allowed only when the app was
started with ``--allow-local-exec`` (or the config's ``allow_local_exec``, or
``GENESIS_INSPECTOR_ALLOW_LOCAL_EXEC``, as for the CLI); otherwise choosing it is refused with
the reason. The choice is app-wide (:attr:`InspectorApp.rerun_backend`): the next re-run or
request of any sample deploys on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.config import local_exec_from_env
from inspector.ui.app_access import inspector_app

if TYPE_CHECKING:
    from textual.widget import Widget

    from inspector.ui.app import InspectorApp

REFUSED = ("Local backend refused: the app was not started with --allow-local-exec "
           "(local runs the generated code as your own processes, outside the sandbox).")


def local_allowed_by(app: InspectorApp) -> str | None:
    """What allows the local backend ('--allow-local-exec', ...), or None when nothing does."""
    if getattr(app, "local_exec_flag", False):
        return "--allow-local-exec"
    if not app.settings.allow_local_exec:
        return None
    if local_exec_from_env():
        return "GENESIS_INSPECTOR_ALLOW_LOCAL_EXEC"
    return "allow_local_exec in the config"


def shown_backend(app: InspectorApp, backend: str | None) -> str:
    """The backend a screen will deploy on, as far as known without asking Docker."""
    if backend:
        return backend
    if local_allowed_by(app) is None:
        return "docker"  # without permission the default is always Docker
    return ""


def backend_label(app: InspectorApp, backend: str | None) -> str:
    """``backend: docker`` / ``backend: local (allowed by --allow-local-exec)``."""
    name = shown_backend(app, backend)
    if name == "local":
        return f"backend: local (allowed by {local_allowed_by(app) or 'nothing'})"
    return f"backend: {name}" if name else "backend: docker if an engine answers, else local"


def choose_backend(widget: Widget, current: str | None) -> str | None:
    """Switch between Docker and local app-wide; the new backend, or None when refused
    (the reason is shown)."""
    app = inspector_app(widget)
    wanted = "docker" if shown_backend(app, current) == "local" else "local"
    if wanted == "local" and local_allowed_by(app) is None:
        app.notify(REFUSED, title="Backend", severity="error", timeout=10)
        return None
    app.rerun_backend = wanted
    app.notify(f"Re-runs and requests now deploy on {wanted}.", title="Backend", timeout=4)
    return wanted
