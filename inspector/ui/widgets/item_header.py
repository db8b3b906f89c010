"""The head of the labelling screen's item: which sample, how it failed, and what a key
labels now (the whole sample, a sample-level failure, or a test — a group's root or member,
and whether the member follows its root or has a label of its own)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from inspector.model.labels.label_file import Label
from inspector.model.results.entries import SampleEntry
from inspector.ui.label_text import item_name
from inspector.ui.safe import plain, sanitize
from inspector.ui.widgets.failure_queue import QueueRow


class ItemHeader(Vertical):
    """``#item-head`` (the sample) and ``#scope`` (what is being labelled)."""

    DEFAULT_CSS = """
    ItemHeader { height: auto; }
    ItemHeader > Static { height: auto; margin-bottom: 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="item-head")
        yield Static("", id="scope")

    def say(self, message: str) -> None:
        """Only a message (loading, nothing to label)."""
        self.query_one("#item-head", Static).update(plain(message))
        self.query_one("#scope", Static).update("")

    def show(self, e: SampleEntry, error: str = "") -> None:
        """The sample: agent, model, task, id, verdict and the telling error line."""
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
        if error:
            head.append(f"\n{sanitize(error)}", style="yellow")
        self.query_one("#item-head", Static).update(head)

    def show_scope(self, row: QueueRow, mine: Label | None, roots: int) -> None:
        """What a category key labels on ``row``; ``mine`` is the annotator's label of it,
        ``roots`` how many root items the sample has."""
        t = Text("Labelling: ", style="bold")
        if row.item is None:
            t.append("the whole sample")
        elif row.item.test_id is None:
            t.append(f"{sanitize(item_name(row.item))} (the sample's own failure)")
        else:
            t.append(f"test {sanitize(row.item.test_id)}")
        group = row.group
        if row.is_member and group is not None:
            t.append("\n  in the group of ", style="dim")
            t.append(sanitize(item_name(group.root)))
            if mine is not None and mine.follows == group.root.key:
                t.append("  ↳ follows the root's label", style="bold")
            elif mine is not None:
                t.append("  ● own label (overrides the group; f follows again)", style="bold")
            else:
                t.append("  · follows once the root is labelled", style="dim")
        elif group is not None and group.members:
            t.append(f"\n  root of {len(group.members)} more like it: a key labels them all",
                     style="dim")
        if roots:
            t.append(f"   (t: {roots} failure item{'s' if roots != 1 else ''} can be labelled "
                     "one by one)", style="dim")
        self.query_one("#scope", Static).update(t)
