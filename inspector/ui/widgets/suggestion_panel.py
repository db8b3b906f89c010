"""What is suggested for the queue's current row: a sample's suggestion, or one failure item's
(category or "unsure" with the competing readings and their weights, confidence, reason,
rule, the group it belongs to, its remedy and a causal confirmation), plus the progress line
of a confirmation running in the background."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.timer import Timer
from textual.widgets import Static

from inspector.model.failures.triage import Confirmation, RootGroup, TestSuggestion
from inspector.model.labels.label_file import Suggestion
from inspector.model.labels.taxonomy import Taxonomy
from inspector.ui.label_text import item_name, taxonomy_category_text
from inspector.ui.safe import sanitize
from inspector.ui.widgets.progress_line import ProgressLine


def confirmation_text(c: Confirmation) -> Text:
    """``Confirmed: with pandas installed, 64 tests collect; 37 pass (docker)``."""
    verdict, style = {True: ("Confirmed", "bold green"), False: ("Not confirmed", "bold red"),
                      None: ("Inconclusive", "bold yellow")}[c.supports]
    t = Text(f"{verdict}: ", style=style)
    t.append(sanitize(c.outcome))
    counts = [f"{n} {what}" for n, what in ((c.collected, "collected"), (c.passed, "passed"),
                                            (c.failed, "failed")) if n]
    extra = ", ".join(counts + ([c.backend] if c.backend else []))
    if extra:
        t.append(f"  ({sanitize(extra)})", style="dim")
    t.append(f"\n  re-run: {sanitize(c.remedy)}", style="dim")
    if c.log:
        t.append(f"  · log {sanitize(c.log)}", style="dim")
    return t


class SuggestionPanel(Vertical):
    """The suggestion of the current row and the confirmation progress line."""

    DEFAULT_CSS = """
    SuggestionPanel { height: auto; margin-bottom: 1; }
    SuggestionPanel > #suggestion { height: auto; }
    SuggestionPanel > #confirm-progress { display: none; margin-top: 1; }
    SuggestionPanel > #confirm-progress.running { display: block; }
    """

    def __init__(self, taxonomy: Taxonomy, *, id: str | None = None,  # noqa: A002 - Textual's Widget id=
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.taxonomy = taxonomy
        self._latest = ""  # the newest line of a running confirmation (set from its thread)
        self._ticker: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="suggestion")
        yield ProgressLine(id="confirm-progress")

    # ------------------------------------------------------------------ public API

    @property
    def text(self) -> str:
        """The suggestion as shown (plain text)."""
        return str(self.query_one("#suggestion", Static).render())

    def show_sample(self, suggestion: Suggestion | None, items: int = 0,
                    groups: int = 0, own: RootGroup | None = None) -> None:
        """A whole sample's suggestion, how many items it has to label one by one, and
        ``own``: the group rooted at the sample's own failure (labelled with the sample)."""
        t = Text("Suggested: ", style="bold")
        if suggestion is None:
            t.append("none — no rule matched the evidence", style="dim")
        else:
            t.append_text(taxonomy_category_text(self.taxonomy, suggestion.category))
            t.append("   g takes it", style="dim")
            t.append(f"\n{sanitize(suggestion.reason)}")
            t.append(f"  [{sanitize(suggestion.rule)}]", style="dim")
        if own is not None:
            t.append(f"\nThe sample's own failure ({sanitize(item_name(own.root))})",
                     style="bold")
            if own.members:
                t.append(f" roots {len(own.members)} more: label it on its row (↓) to label "
                         "them all", style="dim")
        if items:
            t.append(f"\n{items} failure item{'s' if items != 1 else ''} in {groups} "
                     f"group{'s' if groups != 1 else ''}: ↓ labels them one by one",
                     style="dim")
        self.query_one("#suggestion", Static).update(t)

    def show_item(self, suggestion: TestSuggestion | None, group: RootGroup,
                  is_member: bool, confirmation: Confirmation | None = None,
                  note: str = "") -> None:
        """One failure item's suggestion; ``confirmation`` is this session's re-run (else the
        suggestion's own, if any)."""
        t = Text("Suggested: ", style="bold")
        s = suggestion
        if s is None:
            t.append(sanitize(note) if note else "none for this item", style="dim")
        elif s.category is not None:
            t.append_text(taxonomy_category_text(self.taxonomy, s.category))
            t.append(f"  {s.confidence:.0%} confident", style="bold")
            t.append("   g takes it", style="dim")
        elif s.unsure:
            t.append("unsure", style="bold yellow")
            t.append(f"  ({s.confidence:.0%})" if s.confidence else "", style="dim")
            t.append(" — no reading is strong enough; the readings weighed:", style="dim")
        else:
            t.append("none", style="dim")
        if s is not None:
            others = list(s.competing) if s.category is None else \
                [r for r in s.competing if r.category != s.category]
            if others and s.category is not None:
                t.append("\n  other readings:", style="dim")
            for r in others:
                t.append("\n  ")
                t.append_text(taxonomy_category_text(self.taxonomy, r.category))
                t.append(f"  {r.weight:.2f}", style="bold")
                t.append(f"  {sanitize(r.reason)[:240]}")
                t.append(f"  [{sanitize(r.rule)}]", style="dim")
            if s.reason:
                t.append(f"\n{sanitize(s.reason)}")
            if s.rule:
                t.append(f"  [{sanitize(s.rule)}]", style="dim")
        if is_member:
            t.append("\nIn the group of ", style="dim")
            t.append(sanitize(item_name(group.root)), style="bold")
            t.append(f"{': ' + sanitize(group.why) if group.why else ''} — labelling the "
                     "root labels this one; a key here overrides it", style="dim")
        elif group.members:
            n = len(group.members)
            t.append(f"\nRoot of {n} more like it", style="bold")
            t.append(f"{': ' + sanitize(group.why) if group.why else ''} — a key here "
                     "labels all of them", style="dim")
        remedy = s.remedy if s is not None else None
        if remedy is not None:
            t.append("\nRemedy: ", style="bold")
            t.append(sanitize(remedy.describe()))
            t.append("   r re-runs with it to confirm", style="dim")
        shown = confirmation or (s.confirmation if s is not None else None)
        if shown is not None:
            t.append("\n")
            t.append_text(confirmation_text(shown))
        self.query_one("#suggestion", Static).update(t)

    def show_text(self, text: Text | str) -> None:
        self.query_one("#suggestion", Static).update(text)

    @property
    def progress(self) -> ProgressLine:
        return self.query_one("#confirm-progress", ProgressLine)

    def confirming(self, message: str) -> None:
        """Show the confirmation progress line, running; :meth:`feed` gives it the newest
        output line."""
        self._latest = ""
        line = self.progress
        line.add_class("running")
        line.start(message)
        if self._ticker is None:
            self._ticker = self.set_interval(0.25, self._tick)

    def feed(self, *parts: str) -> None:
        """The re-run's newest output line or step (``(stream, text)`` or ``(text,)``); safe
        to call from the worker thread: the line shows at the next tick."""
        text = parts[-1].strip() if parts else ""
        if text:
            self._latest = text[:200]

    def cancelling(self) -> None:
        self._latest = ""
        self.progress.say("cancelling…")

    def confirmed(self, final: Text | str) -> None:
        """Stop the progress line with ``final`` (kept visible)."""
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None
        self.progress.stop(final)

    def _tick(self) -> None:
        if self._latest:
            self.progress.say(self._latest)
            self._latest = ""
