"""The request composer's README body and login helper, and the app's backend choice.

``tests/ui/fixtures/login_svc``: a stdlib service whose ``GET /me`` needs the bearer token that
``POST /auth/login`` returns. Without ``--allow-local-exec`` choosing local is refused and the
header says docker; with it the composer deploys the service as a real local process, logs in
over loopback, fills ``Authorization`` and ``/me`` answers.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, Static, TextArea

from inspector.ui.app import InspectorApp
from inspector.ui.dialogs.prompt import PromptScreen
from inspector.ui.screens.request import RequestScreen
from tests.settle import until

from .conftest import open_sample, settle

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "login_svc"
SAMPLE = "login-run/login-svc/0"
SIZE = (120, 40)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    copy = tmp_path / "login_svc"
    shutil.copytree(FIXTURE, copy)
    return copy


def text_of(widget: Static) -> str:
    return str(widget.render())


async def open_composer(app: InspectorApp, pilot) -> RequestScreen:  # type: ignore[no-untyped-def]
    await open_sample(app, pilot, SAMPLE)
    await pilot.press("Q")
    await settle(app, pilot)
    screen = app.screen
    assert isinstance(screen, RequestScreen)
    return screen


async def test_without_the_flag_local_is_refused_and_the_body_comes_from_the_readme(
        make_app: Callable[..., InspectorApp], root: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GENESIS_INSPECTOR_ALLOW_LOCAL_EXEC", raising=False)
    app = make_app(root, labels_dir=root / "labels")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_composer(app, pilot)
        head = screen.query_one("#req-head", Static)
        assert "backend: docker" in text_of(head)
        endpoints = screen.query_one("#req-endpoints", OptionList)
        endpoints.focus()
        endpoints.highlighted = [ep.path for ep, _ in screen.templates].index("/auth/login")
        await pilot.press("enter")
        await pilot.pause()
        body = json.loads(screen.query_one("#req-body", TextArea).text)
        assert body == {"email": "user@example.com", "password": "Secret123!"}
        assert "optional, left out: remember" in text_of(
            screen.query_one("#req-body-note", Static))

        await pilot.press("ctrl+b")
        await pilot.pause()
        assert app.rerun_backend is None and screen.backend is None
        assert "backend: docker" in text_of(head) and "local" not in text_of(head)
        assert any("--allow-local-exec" in str(n.message) for n in app._notifications)


@pytest.mark.slow  # a real local deployment
async def test_with_the_flag_local_deploys_and_logs_in(
        make_app: Callable[..., InspectorApp], root: Path, tmp_path: Path,
        venv_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GENESIS_INSPECTOR_ALLOW_LOCAL_EXEC", raising=False)
    venv_cache.mkdir(parents=True, exist_ok=True)
    (tmp_path / "cache").mkdir(exist_ok=True)
    (tmp_path / "cache" / "venvs").symlink_to(venv_cache, target_is_directory=True)
    app = make_app(root, labels_dir=root / "labels", allow_local_exec=True)
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_composer(app, pilot)
            head = screen.query_one("#req-head", Static)
            await pilot.press("ctrl+b")
            await pilot.pause()
            assert app.rerun_backend == "local" == screen.backend
            assert "backend: local (allowed by --allow-local-exec)" in text_of(head)

            await pilot.press("ctrl+l")
            await pilot.pause()
            prompt = app.screen
            assert isinstance(prompt, PromptScreen)
            field = prompt.query_one(Input)
            assert json.loads(field.value) == {"email": "user@example.com",
                                               "password": "Secret123!"}
            field.value = '{"email": "ada@example.com", "password": "Secret123!"}'
            await pilot.press("enter")
            await until(pilot, lambda: screen.cancel is None and screen.response is not None,
                        "the login answer", 60, step=0.2)
            assert screen.response is not None and screen.response.status == 200, \
                screen.body_text
            headers = screen.query_one("#req-headers", TextArea).text
            assert "Authorization: Bearer tok-1-ada@example.com" in headers.splitlines()
            [live] = app.deployments().list()
            assert live.backend == "local"

            # the filled header is sent with the next request
            screen.query_one("#req-method").value = "GET"  # type: ignore[attr-defined]
            screen.query_one("#req-path", Input).value = "/me"
            screen.query_one("#req-body-kind").value = "none"  # type: ignore[attr-defined]
            await pilot.press("ctrl+s")
            await until(pilot, lambda: screen.cancel is None and len(screen.entries) == 2,
                        "the /me answer", 30, step=0.2)
            assert screen.response is not None and screen.response.status == 200
            assert json.loads(screen.body_text) == {"email": "ada@example.com"}
    finally:
        if app.has_deployments:
            app.deployments().close()
