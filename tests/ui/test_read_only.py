"""A read-only app (``inspector --read-only``, ``inspector serve --read-only``): every write
kind is refused with a message and nothing is written — re-runs, label keys, evidence,
adjudication, exports, sandbox stops — while browsing, themes and the header's marker work."""

from __future__ import annotations

import hashlib
from pathlib import Path

from textual.widgets import TabbedContent

from inspector.model.labels.label_file import Anchor, ItemRef
from inspector.services.labels.store import LabelFileError
from inspector.ui.dialogs.prompt import PromptScreen
from inspector.ui.messages import OpenSample
from inspector.ui.screens.adjudication import DisagreementScreen
from inspector.ui.screens.labelling import LabelScreen
from inspector.ui.screens.rerun import RerunScreen
from inspector.ui.screens.sample import SampleScreen

from .conftest import open_sample, settle

FORGE = "repo_readme_1118_forge_m1-large_Python"
SAMPLE = f"{FORGE}/todo-service/0"
SIZE = (160, 50)


def _digest(folder: Path) -> str:
    """Every file under ``folder`` (names and bytes): unchanged means nothing was written."""
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        h.update(str(p.relative_to(folder)).encode())
        if p.is_file():
            h.update(p.read_bytes())
    return h.hexdigest()


def _messages(app) -> list[str]:  # type: ignore[no-untyped-def]
    return [str(n.message) for n in app._notifications]


def _refused(app, what: str) -> bool:  # type: ignore[no-untyped-def]
    return any(m == f"Read-only session: {what}." for m in _messages(app))


async def test_rerun_keys_refuse_with_a_message_and_start_nothing(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app(read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "read-only" in str(app.format_title("Genesis Inspector", ""))
        entry = app.catalog.find_sample(SAMPLE)
        assert entry is not None and entry.verdict.label != "passed"
        app.post_message(OpenSample(entry.key))
        await settle(app, pilot)
        assert isinstance(app.screen, SampleScreen)
        await pilot.press("R")
        await settle(app, pilot)
        assert isinstance(app.screen, SampleScreen)  # no RerunScreen was pushed
        assert _refused(app, "re-runs are off")
        await pilot.press("A")
        await settle(app, pilot)
        assert not any(isinstance(s, RerunScreen) for s in app.screen_stack)
        assert not app.has_deployments  # nothing was deployed or asked for


async def test_label_keys_and_evidence_write_nothing(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app(annotator="zoe", read_only=True)
    labels = tmp_path / "labels"
    before = _digest(labels)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.labels is not None and app.labels.read_only and not app.labels.writable
        await pilot.press("2", "L")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, LabelScreen)
        assert "read-only" in screen.sub_title
        first = screen.entry.sample_id
        await pilot.press("3")  # a category key
        await settle(app, pilot)
        assert _refused(app, "labels, evidence and adjudications are not written")
        assert screen.entry.sample_id == first  # the queue did not move on
        app._notifications.clear()
        for key in ("a", "c", "g", "x"):
            await pilot.press(key)
            await settle(app, pilot)
            assert not isinstance(app.screen, PromptScreen), key
        assert len([m for m in _messages(app) if m.startswith("Read-only session")]) == 4
        # the session itself refuses, whatever path a write takes
        try:
            app.labels.save(ItemRef(first), "cross-file")
        except LabelFileError as exc:
            assert "read-only session" in str(exc)
        else:
            raise AssertionError("a read-only LabelSession saved a label")
        assert app.labels.add_evidence(ItemRef(first), Anchor.for_test("t::x")) == "pending"
        app.labels.flush()
    assert _digest(labels) == before


async def test_adjudication_key_is_refused(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app(annotator="zoe", read_only=True)
    before = _digest(tmp_path / "labels")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.push_screen(DisagreementScreen())
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, DisagreementScreen) and screen.items
        await pilot.press("1")
        await settle(app, pilot)
        assert not isinstance(app.screen, PromptScreen)
        assert _refused(app, "labels, evidence and adjudications are not written")
    assert _digest(tmp_path / "labels") == before


async def test_analysis_export_is_refused_and_writes_nothing(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app(read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("5")
        await settle(app, pilot)
        app.screen.query_one("#analysis-views", TabbedContent).active = "analysis-compare"
        await settle(app, pilot)
        app.screen.query_one("#analysis-views Tabs").focus()
        before = sorted(p.name for p in tmp_path.iterdir())
        await pilot.press("e")
        await settle(app, pilot)
        assert not isinstance(app.screen, PromptScreen)  # no "where to?" prompt
        assert _refused(app, "exports are off")
        assert sorted(p.name for p in tmp_path.iterdir()) == before


async def test_themes_change_but_are_not_saved(make_app, isolated_user_dirs: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app(read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.theme
        await pilot.press("ctrl+t")
        await settle(app, pilot)
        assert app.theme != first
    assert not isolated_user_dirs.exists()  # the config file was never written


async def test_a_writable_app_is_unchanged(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "read-only" not in str(app.format_title("Genesis Inspector", ""))
        assert app.labels is not None and app.labels.writable
        await pilot.press("ctrl+t")
        await settle(app, pilot)
        assert not any(m.startswith("Read-only") for m in _messages(app))


async def test_request_send_and_sandbox_stops_are_refused(make_app) -> None:  # type: ignore[no-untyped-def]
    from inspector.ui.screens.request import RequestScreen
    from inspector.ui.screens.sandboxes import SandboxesScreen

    app = make_app(read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await open_sample(app, pilot, SAMPLE)
        await pilot.press("Q")  # the composer opens, to read
        await settle(app, pilot)
        assert isinstance(app.screen, RequestScreen)
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert _refused(app, "sending requests to the sample is off")
        assert not app.has_deployments
        await pilot.press("escape")
        await settle(app, pilot)
        await pilot.press("ctrl+d")
        await settle(app, pilot)
        assert isinstance(app.screen, SandboxesScreen)
        await pilot.press("S")
        await pilot.press("s")
        await settle(app, pilot)
        assert len([m for m in _messages(app)
                    if m == "Read-only session: stopping sandboxes is off."]) == 2


async def test_log_export_is_refused(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from inspector.ui.screens.replay import ReplayScreen

    app = make_app(read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await open_sample(app, pilot, SAMPLE)
        await pilot.press("l")
        await settle(app, pilot)
        assert isinstance(app.screen, ReplayScreen)
        assert "read-only" in str(app.screen.query_one("#replay-head").render())  # its own header
        before = sorted(p.name for p in tmp_path.iterdir())
        await pilot.press("x")
        await settle(app, pilot)
        assert not isinstance(app.screen, PromptScreen)
        assert _refused(app, "exports are off")
        await pilot.press("a")  # a log line as evidence
        await settle(app, pilot)
        assert _refused(app, "labels, evidence and adjudications are not written")
        assert sorted(p.name for p in tmp_path.iterdir()) == before
