"""The review queue: failing samples one after another, one keystroke per category."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Key
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, OptionList, ProgressBar, Static
from textual.widgets.option_list import Option

from inspector.model.entries import SampleEntry
from inspector.model.errors import LoadError
from inspector.model.labels import CONFIDENCES, Anchor, ItemRef, Label, Suggestion
from inspector.model.results import SampleResult
from inspector.model.verdict import Verdict
from inspector.services.label_session import LabelSession
from inspector.ui.messages import LabelsChanged, OpenSample
from inspector.ui.safe import plain, sanitize
from inspector.ui.screens.replay import PromptScreen


@dataclass
class Loaded:
    """A queue item's evidence, loaded off the event loop."""

    sample: SampleResult | None
    suggestion: Suggestion | None
    candidates: list[Anchor]
    error: str = ""


def category_text(session: LabelSession, category: str | None, *, key: bool = False) -> Text:
    """A category's name in its colour (``— `` for none)."""
    if category is None:
        return Text("—", style="dim")
    cat = session.taxonomy.get(category)
    if cat is None:
        return plain(category, style="italic")
    t = Text()
    if key:
        t.append(f"{sanitize(cat.key)} ", style="bold reverse")
    t.append(sanitize(cat.name), style=f"bold {cat.colour}")
    return t


class LabelScreen(Screen[None]):
    """Label failing samples (or one failing test of each) in a queue.

    A category key labels the item and moves on to the next unlabelled one; ``g`` takes the
    suggestion; ``a`` attaches the highlighted evidence; ``n``/``s``/``b`` navigate.
    """

    BINDINGS = [
        Binding("escape,q", "back", "Back"),
        Binding("g", "take_suggestion", "Take suggestion"),
        Binding("c", "confidence", "Confidence"),
        Binding("e", "edit_note", "Note"),
        Binding("a", "toggle_evidence", "Evidence"),
        Binding("t", "scope", "Sample/test"),
        Binding("n", "next_unlabelled", "Next unlabelled"),
        Binding("s", "skip", "Skip"),
        Binding("b", "previous", "Back one"),
        Binding("x", "retract", "Retract", show=False),
        Binding("o", "open_sample", "Open sample"),
        Binding("D", "disagreements", "Disagreements"),
    ]
    DEFAULT_CSS = """
    LabelScreen #progress-row { height: 1; padding: 0 1; }
    LabelScreen #progress-text { width: 1fr; }
    LabelScreen #progress { width: 32; }
    LabelScreen #queue { width: 44; min-width: 30; height: 1fr;
        border-right: solid $panel-lighten-2; }
    LabelScreen #item { width: 1fr; height: 1fr; padding: 0 1; }
    LabelScreen #item > Static { height: auto; margin-bottom: 1; }
    LabelScreen #evidence { height: auto; max-height: 12; border: round $panel-lighten-2; }
    LabelScreen #note { margin-bottom: 1; }
    LabelScreen #legend { dock: bottom; height: auto; padding: 0 1;
        border-top: solid $panel-lighten-2; }
    """

    def __init__(self, entries: list[SampleEntry], start: int = 0) -> None:
        super().__init__()
        self.entries = [e for e in entries if e.verdict is not Verdict.PASSED]
        current = entries[start] if 0 <= start < len(entries) else None
        self.index = self.entries.index(current) if current in self.entries else 0
        self.visited: list[int] = []
        self.scope: str | None = None  # None: the whole sample; else a failing test id
        self.confidence = "medium"
        self.loaded: dict[int, Loaded] = {}
        self._candidates: list[Anchor] = []  # the evidence list's rows, in order
        self._note_item: ItemRef | None = None

    @property
    def session(self) -> LabelSession:
        return self.app.labels  # type: ignore[attr-defined, no-any-return]

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="progress-row"):
            yield Static("", id="progress-text")
            yield ProgressBar(total=1, show_eta=False, id="progress")
        with Horizontal():
            yield OptionList(id="queue")
            with Vertical(id="item-col"):
                with VerticalScroll(id="item"):
                    yield Static("", id="item-head")
                    yield Static("", id="scope")
                    yield Static("", id="suggestion")
                    yield Static("Evidence  (a attaches/detaches the highlighted line)",
                                 id="evidence-title")
                    yield OptionList(id="evidence")
                    yield Static("", id="mine")
                    yield Input(placeholder="note — e to edit, Enter saves, Esc leaves",
                                id="note")
                    yield Static("", id="others")
                yield Static("", id="legend")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Label failures"
        self.sub_title = (f"{self.session.annotator}"
                          f"{' · blind' if self.session.blind else ''}")
        self.query_one("#legend", Static).update(self._legend())
        if not self.entries:
            self.query_one("#item-head", Static).update(
                "No failing samples here: nothing to label. Esc goes back.")
            return
        self._fill_queue()
        self.show(self.index)
        self.query_one("#queue", OptionList).focus()
        if not self.session.writable:
            self.notify("Your label file cannot be read, so nothing will be written to it: "
                        + "; ".join(self.session.problems), severity="error", timeout=15)

    def _legend(self) -> Text:
        t = Text()
        for cat in self.session.taxonomy.categories:
            t.append(f" {sanitize(cat.key)} ", style="bold reverse")
            t.append(f" {sanitize(cat.name)}   ", style=f"bold {cat.colour}")
        return t

    # ------------------------------------------------------------------ queue

    def _queue_prompt(self, i: int) -> Text:
        e = self.entries[i]
        item = ItemRef(e.sample_id)
        mine = self.session.mine(item)
        labelled = self.session.state(e.sample_id) == "labelled"
        t = Text(no_wrap=True, overflow="ellipsis")
        t.append("✓ " if labelled else "· ", style="bold green" if labelled else "dim")
        t.append(sanitize(f"{e.agent} {e.task}"))
        if e.sample:
            t.append(f" #{e.sample}")
        if "@" in e.run_id:  # a stock-format run of the same predictions: say which
            t.append(f"  @{sanitize(e.run_id.split('@', 1)[1][:12])}", style="dim")
        if mine is not None:
            t.append("  ")
            t.append_text(category_text(self.session, mine.category))
        elif labelled:
            t.append("  (tests)", style="dim")
        return t

    def _fill_queue(self) -> None:
        queue = self.query_one("#queue", OptionList)
        highlighted = queue.highlighted
        queue.clear_options()
        queue.add_options([Option(self._queue_prompt(i), id=str(i))
                           for i in range(len(self.entries))])
        queue.highlighted = self.index if highlighted is None else highlighted
        self._update_progress()

    def _refresh_queue_row(self, i: int) -> None:
        queue = self.query_one("#queue", OptionList)
        queue.replace_option_prompt_at_index(i, self._queue_prompt(i))
        self._update_progress()

    def _update_progress(self) -> None:
        done, total = self.session.progress(e.sample_id for e in self.entries)
        pct = f" ({done * 100 // total}%)" if total else ""
        self.query_one("#progress-text", Static).update(plain(
            f"{done} of {total} failing samples labelled by {self.session.annotator}{pct}"
            f" · item {self.index + 1}/{total}"))
        bar = self.query_one("#progress", ProgressBar)
        bar.update(total=max(1, total), progress=done)

    @on(OptionList.OptionSelected, "#queue")
    def _queue_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_index != self.index:
            self.go(event.option_index)

    def go(self, index: int, remember: bool = True) -> None:
        """Show queue item ``index``."""
        if not 0 <= index < len(self.entries):
            return
        if remember and index != self.index:
            self.visited.append(self.index)
        self.show(index)

    def show(self, index: int) -> None:
        self.index = index
        self.scope = None
        self.confidence = "medium"
        queue = self.query_one("#queue", OptionList)
        if queue.highlighted != index:
            queue.highlighted = index
        self._update_progress()
        if index in self.loaded:
            self._render_item()
        else:
            self.query_one("#item-head", Static).update(
                plain(f"Loading {self.entries[index].sample_id}…"))
            self.load(index)

    @work(thread=True, group="label-load")
    def load(self, index: int) -> None:
        """Read the sample, compute the suggestion and the evidence candidates; prefetch."""
        for i in (index, index + 1):
            if i in self.loaded or not 0 <= i < len(self.entries):
                continue
            loaded = self._load_one(self.entries[i])
            self.app.call_from_thread(self._loaded, i, loaded)

    def _load_one(self, entry: SampleEntry) -> Loaded:
        from inspector.services.label_evidence import evidence_candidates
        from inspector.services.label_suggest import suggest
        from inspector.services.suite_audit import audit_task

        catalog = self.app.catalog  # type: ignore[attr-defined]
        try:
            sample = catalog.load_sample(entry)
        except LoadError as exc:
            return Loaded(None, None, [], str(exc))
        task = catalog.task(entry.task, catalog.run(entry.run_key))
        readme = task.readme if task is not None else None
        try:
            suggestion = suggest(sample, task_readme=readme,
                                 audit=audit_task(task) if task is not None else None)
        except Exception as exc:  # a rule bug must never block labelling
            return Loaded(sample, None, evidence_candidates(sample), f"suggestion failed: {exc}")
        return Loaded(sample, suggestion, evidence_candidates(sample, suggestion))

    def _loaded(self, index: int, loaded: Loaded) -> None:
        self.loaded[index] = loaded
        if index == self.index and self.is_attached:
            self._render_item()

    # ------------------------------------------------------------------ the item

    @property
    def entry(self) -> SampleEntry:
        return self.entries[self.index]

    @property
    def item(self) -> ItemRef:
        return ItemRef(self.entry.sample_id, self.scope)

    def _render_item(self) -> None:
        e = self.entry
        loaded = self.loaded.get(self.index)
        head = Text()
        head.append(sanitize(f"{e.agent} · {e.model} · {e.task} #{e.sample}"), style="bold")
        head.append(sanitize(f"   {e.language}{' · ' + e.framework if e.framework else ''}\n"),
                    style="dim")
        head.append(sanitize(f"{e.sample_id}\n"), style="dim")
        what = e.verdict.value.replace("_", " ")
        if e.failed_phase:
            what += f" in {e.failed_phase}"
        head.append(sanitize(f"{what}: "), style="bold red")
        head.append(sanitize(e.message or "—"))
        if e.total:
            head.append(f"   tests {e.passed}/{e.total} passed", style="dim")
        if loaded is not None and loaded.error:
            head.append(f"\n{sanitize(loaded.error)}", style="yellow")
        self.query_one("#item-head", Static).update(head)
        self._render_scope()
        self._render_suggestion()
        self._render_evidence()
        self._render_labels()

    def _failing_tests(self) -> list[str]:
        loaded = self.loaded.get(self.index)
        if loaded is None or loaded.sample is None:
            return []
        return [c.id for c in loaded.sample.failing_tests]

    def _render_scope(self) -> None:
        tests = self._failing_tests()
        t = Text("Labelling: ", style="bold")
        if self.scope is None:
            t.append("the whole sample")
        else:
            t.append(f"test {sanitize(self.scope)}")
        if tests:
            t.append(f"   (t: {len(tests)} failing test{'s' if len(tests) != 1 else ''} can "
                     "be labelled one by one)", style="dim")
        self.query_one("#scope", Static).update(t)

    def _render_suggestion(self) -> None:
        loaded = self.loaded.get(self.index)
        s = loaded.suggestion if loaded else None
        t = Text("Suggested: ", style="bold")
        if s is None:
            t.append("none — no rule matched the evidence", style="dim")
        else:
            t.append_text(category_text(self.session, s.category))
            t.append("   g takes it", style="dim")
            t.append(f"\n{sanitize(s.reason)}")
            t.append(f"  [{s.rule}]", style="dim")
        self.query_one("#suggestion", Static).update(t)

    def _attached(self) -> list[Anchor]:
        mine = self.session.mine(self.item)
        return list(mine.evidence) if mine else self.session.pending_evidence(self.item)

    def _render_evidence(self) -> None:
        loaded = self.loaded.get(self.index)
        attached = self._attached()
        candidates = list(loaded.candidates) if loaded else []
        candidates += [a for a in attached if a not in candidates]
        ev = self.query_one("#evidence", OptionList)
        highlighted = ev.highlighted
        ev.clear_options()
        for a in candidates:
            on_ = a in attached
            t = Text("[x] " if on_ else "[ ] ", style="bold green" if on_ else "dim")
            t.append(sanitize(a.describe())[:200])
            ev.add_option(Option(t))
        self._candidates = candidates
        if candidates:
            ev.highlighted = min(highlighted or 0, len(candidates) - 1)

    def _render_labels(self) -> None:
        item = self.item
        mine = self.session.mine(item)
        t = Text("Your label: ", style="bold")
        if mine is None:
            t.append("none yet", style="dim")
            t.append(f"   confidence {self.confidence} (c)", style="dim")
        else:
            t.append_text(category_text(self.session, mine.category))
            t.append(f"   confidence {sanitize(mine.confidence)} (c)   ", style="dim")
            t.append(f"{len(mine.history)} edit{'s' if len(mine.history) != 1 else ''}, last "
                     f"{sanitize(mine.updated.at)}", style="dim")
        self.query_one("#mine", Static).update(t)
        note = self.query_one("#note", Input)
        if self._note_item != item:
            note.value = sanitize(mine.note) if mine else ""
            self._note_item = item
        others = self.session.others(item)
        o = Text("Others: ", style="bold")
        if not self.session.visible(item):
            o.append("hidden until you label this item (blind mode)", style="italic dim")
        elif not others:
            o.append("no other labels", style="dim")
        for name, lb in others.items():
            o.append(f"\n  {sanitize(name)}: ")
            o.append_text(category_text(self.session, lb.category))
            o.append(f"  ({sanitize(lb.confidence)})", style="dim")
            if lb.note:
                o.append(f"  {sanitize(lb.note)[:160]}", style="italic")
        adj = self.session.adjudicated(item)
        if adj is not None:
            o.append("\nAdjudicated: ", style="bold")
            o.append_text(category_text(self.session, adj.category))
            o.append(f"  by {sanitize(adj.updated.by)}", style="dim")
        self.query_one("#others", Static).update(o)

    # ------------------------------------------------------------------ keys

    def on_key(self, event: Key) -> None:
        if isinstance(self.focused, Input) or not event.character:
            return
        cat = self.session.taxonomy.by_key(event.character)
        if cat is not None and self.entries:
            event.stop()
            event.prevent_default()
            self.label(cat.id)

    def label(self, category: str) -> None:
        """Label the current item; a change of an existing label asks why (Enter skips)."""
        if self.index not in self.loaded:
            self.notify("Still loading this item's evidence; try again in a moment.",
                        severity="warning", timeout=3)
            return
        item = self.item
        old = self.session.mine(item)
        if old is not None and old.category != category:
            def after(reason: str | None) -> None:
                if reason is not None:
                    self._save(item, category, reason, advance=False)

            self.app.push_screen(PromptScreen(
                f"Why change {self.session.taxonomy.name_of(old.category)} → "
                f"{self.session.taxonomy.name_of(category)}? (Enter to skip, Esc cancels)",
                placeholder="reason, kept in the label's history"), after)
            return
        self._save(item, category, "", advance=old is None)

    def _save(self, item: ItemRef, category: str, reason: str, advance: bool) -> None:
        loaded = self.loaded.get(self.index)
        note = self.query_one("#note", Input).value.strip()
        name = self.session.taxonomy.name_of(category)
        saved = f"{item.key.split('/', 1)[-1]} → {name}"
        try:
            self.session.save(item, category, confidence=self.confidence if
                              self.session.mine(item) is None else None, note=note,
                              suggestion=loaded.suggestion if loaded else None, reason=reason,
                              done=lambda lb, err: self._written(lb, err, saved))
        except LoadError as exc:
            self.notify(f"Not saved: {exc}", severity="error", timeout=12)
            return
        if advance and self.scope is None:
            self.action_next_unlabelled(after_save=item.sample)

    def _written(self, label: Label | None, error: Exception | None, saved: str = "") -> None:
        """Called on the label writer thread once the file is on disk (or the write failed):
        only then is the save announced (``saved``), or the failure, naming the file."""
        sample = label.item.sample if label is not None else ""
        self.app.call_from_thread(self._after_write, sample, error, saved)

    def _after_write(self, sample: str, error: Exception | None, saved: str = "") -> None:
        if error is not None:
            self.notify(f"Not saved: {error}", severity="error", timeout=12)
        elif saved:
            self.notify(saved, timeout=2)
        self.app.post_message(LabelsChanged(sample))
        if not self.is_attached:
            return
        for i, e in enumerate(self.entries):
            if e.sample_id == sample:
                self._refresh_queue_row(i)
        self._render_labels()
        self._render_evidence()

    def action_take_suggestion(self) -> None:
        loaded = self.loaded.get(self.index)
        if loaded is None or loaded.suggestion is None:
            self.notify("No suggestion for this item.", severity="warning", timeout=3)
            return
        self.label(loaded.suggestion.category)

    def action_confidence(self) -> None:
        mine = self.session.mine(self.item)
        current = mine.confidence if mine else self.confidence
        nxt = CONFIDENCES[(CONFIDENCES.index(current) + 1) % len(CONFIDENCES)]
        self.confidence = nxt
        if mine is not None:
            self.session.save(self.item, mine.category, confidence=nxt, done=self._written)
        self._render_labels()

    def action_edit_note(self) -> None:
        self.query_one("#note", Input).focus()

    @on(Input.Submitted, "#note")
    def _note_submitted(self, event: Input.Submitted) -> None:
        mine = self.session.mine(self.item)
        if mine is not None and event.value.strip() != mine.note:
            try:
                self.session.save(self.item, mine.category, note=event.value.strip(),
                                  done=lambda lb, err: self._written(lb, err, "Note saved."))
            except LoadError as exc:
                self.notify(f"Not saved: {exc}", severity="error", timeout=12)
        elif mine is None:
            self.notify("The note is saved with your label (press a category key).",
                        timeout=3)
        self.query_one("#queue", OptionList).focus()

    def action_toggle_evidence(self) -> None:
        ev = self.query_one("#evidence", OptionList)
        candidates = self._candidates
        if ev.highlighted is None or not candidates:
            self.notify("No evidence to attach here.", severity="warning", timeout=3)
            return
        anchor = candidates[ev.highlighted]
        if anchor in self._attached():
            self.session.remove_evidence(self.item, anchor, done=self._written)
        else:
            state = self.session.add_evidence(self.item, anchor, done=self._written)
            if state == "pending":
                self.notify("Evidence kept; it is saved with your label.", timeout=2)
        self._render_evidence()

    def action_scope(self) -> None:
        tests = self._failing_tests()
        if not tests:
            self.notify("No individual failing tests were recorded for this sample.",
                        severity="warning", timeout=3)
            return
        options: list[str | None] = [None, *tests]
        i = options.index(self.scope) if self.scope in options else 0
        self.scope = options[(i + 1) % len(options)]
        self._render_scope()
        self._render_evidence()
        self._render_labels()

    def action_next_unlabelled(self, after_save: str | None = None) -> None:
        """The next sample (after this one, wrapping) the annotator has not labelled."""
        n = len(self.entries)
        for step in range(1, n + 1):
            i = (self.index + step) % n
            sid = self.entries[i].sample_id
            if sid == after_save:
                continue
            if self.session.state(sid) == "unlabelled":
                self.go(i)
                return
        if after_save is not None or self.session.state(self.entry.sample_id) == "labelled":
            self.notify("Every sample in this queue is labelled. D shows disagreements.",
                        timeout=5)

    def action_skip(self) -> None:
        if self.index + 1 < len(self.entries):
            self.go(self.index + 1)
        else:
            self.notify("End of the queue.", timeout=2)

    def action_previous(self) -> None:
        if self.visited:
            self.show(self.visited.pop())
        elif self.index > 0:
            self.show(self.index - 1)

    def action_retract(self) -> None:
        if self.session.mine(self.item) is None:
            self.notify("You have no label on this item.", severity="warning", timeout=3)
            return

        def after(reason: str | None) -> None:
            if reason is not None:
                self.session.retract(self.item, reason, done=self._written)

        self.app.push_screen(PromptScreen("Retract your label? Why (Enter to retract, Esc "
                                          "cancels)", placeholder="reason"), after)

    def action_open_sample(self) -> None:
        self.app.post_message(OpenSample(self.entry.key, test_id=self.scope))

    def action_disagreements(self) -> None:
        from inspector.ui.screens.adjudication import DisagreementScreen

        self.app.push_screen(DisagreementScreen())

    def action_back(self) -> None:
        if isinstance(self.focused, Input):
            self.query_one("#queue", OptionList).focus()
            return
        self.dismiss(None)

    def on_screen_resume(self) -> None:
        if self.entries and self.is_mounted:
            self._fill_queue()
            if self.index in self.loaded:
                self._render_item()
