"""The replay timeline: phases as proportional bars, the playhead and where the sample failed."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.widget import Widget

from inspector.services.logs.deployment_log import PhaseSpan
from inspector.ui.safe import sanitize
from inspector.ui.styles import colour


@dataclass(frozen=True)
class TimelineState:
    spans: tuple[PhaseSpan, ...]
    timed: bool
    playhead_line: int
    playhead_time: float | None
    failure_line: int | None = None


def _fmt_duration(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    if seconds < 60:
        return f"{seconds:.1f}s"
    m, s = divmod(seconds, 60)
    return f"{m:.0f}m{s:02.0f}s"


class Timeline(Widget):
    """Three rows: the phase bar, markers (▲ playhead, ✖ failure), and phase durations."""

    DEFAULT_CSS = """
    Timeline { height: 3; padding: 0 1; }
    """

    class Seek(Message):
        """The user clicked the timeline: go to ``fraction`` of phase ``index``."""

        def __init__(self, index: int, fraction: float) -> None:
            super().__init__()
            self.index = index
            self.fraction = fraction

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.state: TimelineState | None = None
        self._cells: list[tuple[int, int]] = []

    def update_state(self, state: TimelineState) -> None:
        """Show ``state``; redraws only when a cell would change (phases, failure mark or the
        playhead's column), so a playback frame inside one column costs nothing."""
        old, self.state = self.state, state
        if old is not None and self._cells and old.timed == state.timed \
                and old.failure_line == state.failure_line \
                and (old.spans is state.spans or old.spans == state.spans) \
                and self._x_of(old.playhead_line, old.playhead_time, old) \
                == self._x_of(state.playhead_line, state.playhead_time, state):
            return
        self.refresh()

    # ------------------------------------------------------------------ geometry

    def _weights(self, spans: tuple[PhaseSpan, ...], timed: bool) -> list[float]:
        out = []
        for s in spans:
            if timed and s.start is not None and s.end is not None:
                out.append(max(s.end - s.start, 0.0))
            else:
                out.append(float(s.line_count))
        total = sum(out) or 1.0
        return [w / total for w in out]

    def _layout(self, width: int) -> list[tuple[int, int]]:
        assert self.state is not None
        spans = self.state.spans
        if not spans or width <= 0:
            return []
        minimum = 3 if width >= 4 * len(spans) else 1
        free = max(0, width - minimum * len(spans))
        cells: list[tuple[int, int]] = []
        x = 0
        weights = self._weights(spans, self.state.timed)
        acc = 0.0
        for i, w in enumerate(weights):
            acc += w
            end = width if i == len(weights) - 1 else \
                round(acc * free) + minimum * (i + 1)
            end = max(end, x + minimum)
            cells.append((x, min(end, width)))
            x = min(end, width)
        return cells

    def _x_of(self, line: int | None, time: float | None,
              state: TimelineState | None = None) -> int | None:
        state = state or self.state
        assert state is not None
        if line is None:
            return None
        for (x0, x1), s in zip(self._cells, state.spans, strict=False):
            if s.first_line <= line < s.first_line + max(1, s.line_count):
                if state.timed and time is not None and s.start is not None \
                        and s.end is not None and s.end > s.start:
                    f = (time - s.start) / (s.end - s.start)
                else:
                    f = (line - s.first_line) / max(1, s.line_count)
                return x0 + min(x1 - x0 - 1, max(0, int(f * (x1 - x0))))
        return self._cells[-1][1] - 1 if self._cells else None

    # ------------------------------------------------------------------ rendering

    def render(self) -> Text:
        width = self.content_region.width
        if self.state is None or not self.state.spans:
            return Text("no phases", style="dim")
        st = self.state
        self._cells = self._layout(width)
        theme = self.app.current_theme
        ok = colour(self.app, "outcome-pass")
        bad = theme.error if theme and theme.error else "red"
        idle = theme.panel if theme and theme.panel else "grey23"
        bar = Text(no_wrap=True, overflow="crop")
        head = self._x_of(st.playhead_line, st.playhead_time)
        for (x0, x1), s in zip(self._cells, st.spans, strict=False):
            w = x1 - x0
            name = sanitize(s.label)
            label = name if len(name) <= w - 2 else name[:max(0, w - 2)]
            cell = f" {label}".ljust(w)[:w]
            bg = bad if s.failed else (ok if s.status == "ok" else idle)
            played = 0 if head is None else max(0, min(w, head - x0 + 1))
            fg = "black" if s.failed or s.status == "ok" else ""
            bar.append(cell[:played], style=f"bold {fg} on {bg}")
            bar.append(cell[played:], style=f"{fg} on {bg} dim" if bg != idle else f"on {bg}")
        marks = [" "] * width
        fail_x = self._x_of(st.failure_line, None) if st.failure_line is not None else None
        if fail_x is not None and 0 <= fail_x < width:
            marks[fail_x] = "✖"
        if head is not None and 0 <= head < width:
            marks[head] = "▲"
        mark_text = Text("".join(marks), no_wrap=True)
        if fail_x is not None and 0 <= fail_x < width and fail_x != head:
            mark_text.stylize(f"bold {bad}", fail_x, fail_x + 1)
        if head is not None and 0 <= head < width:
            mark_text.stylize("bold", head, head + 1)
        labels = Text(no_wrap=True, overflow="ellipsis")
        for i, s in enumerate(st.spans):
            if i:
                labels.append("  │  ", style="dim")
            labels.append(sanitize(s.label), style="bold" if s.failed else "")
            amount = _fmt_duration(s.duration) if st.timed else f"{s.line_count:,} lines"
            labels.append(f" {amount}", style="dim")
            if s.status:
                labels.append(f" {s.status}", style=bad if s.failed else "dim")
            if s.failed:
                labels.append(" ✖", style=f"bold {bad}")
        return Text("\n").join([bar, mark_text, labels])

    def on_click(self, event: Click) -> None:
        x = event.x - 1
        for i, (x0, x1) in enumerate(self._cells):
            if x0 <= x < x1:
                self.post_message(self.Seek(i, (x - x0) / max(1, x1 - x0)))
                return
