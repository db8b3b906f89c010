"""Replay a log with its original timing (pure Python; the UI drives it with wall-clock readings).

Lines are 0-based; ``time_of(i)`` is the number of seconds since the log's start at which line
``i`` was written, or None when the line has no timestamp (it then counts as the previous
line's time, 0.0 for line 0). Two interleaved streams can make time go slightly backwards, so
moving forwards line by line uses each line's *effective* time: ``max(time_of(i), effective
time of i - 1)``. Seeking assumes non-decreasing times (a binary search) and reads the time of
the line before the new position instead of walking the whole log: logs may have 10 million
lines and ``time_of`` may read the disk, so nothing here ever iterates over all lines.
"""

from __future__ import annotations

from collections.abc import Callable

SPEEDS: tuple[float | None, ...] = (1.0, 2.0, 5.0, 10.0, 50.0, None)  # None = as fast as possible

_CACHE_SIZE = 1024  # time_of results and effective times kept for recent lines
_LOOKBACK = 32  # untimed lines searched one by one before galloping backwards
_WALK_LIMIT = 256  # a step forward this short computes effective times exactly


class ReplayClock:
    """Which lines of a log are revealed at a given moment of a timed replay.

    `position` lines (``[0, position)``) are shown. While playing, `tick(now)` advances the
    replay time `elapsed` (log seconds) by ``(now - last) * speed`` and reveals every line whose
    effective time has come. With `idle_limit`, a gap between consecutive lines longer than the
    limit plays as exactly the limit (asciinema-style). At speed None, `tick` reveals
    ``max_lines_per_second`` lines per second of wall time instead. At other speeds one tick
    reveals at most ``max(max_lines_per_second * dt, max_lines_per_second / 10)`` lines, so a
    million lines sharing one timestamp arrive over a few ticks instead of freezing one.
    """

    def __init__(self, time_of: Callable[[int], float | None], line_count: int, *,
                 speed: float | None = 1.0, idle_limit: float | None = None,
                 max_lines_per_second: int = 50_000) -> None:
        _check_speed(speed)
        if idle_limit is not None and idle_limit <= 0:
            raise ValueError(f"idle_limit must be positive or None, not {idle_limit!r}")
        if max_lines_per_second < 1:
            raise ValueError("max_lines_per_second must be at least 1")
        self._time_of = time_of
        self.line_count = max(0, line_count)
        self.speed = speed
        self.idle_limit = idle_limit
        self.max_lines_per_second = max_lines_per_second
        self.position = 0
        self.elapsed = 0.0
        self.playing = False
        self._last = 0.0  # wall-clock reading of the last play/tick/speed change
        self._anchor_now = 0.0  # elapsed == _anchor_elapsed + (now - _anchor_now) * speed
        self._anchor_elapsed = 0.0
        self._eff_last = 0.0  # effective time of line position - 1 (0.0 when none)
        self._idle_done = -1  # the line whose gap idle_limit has already shortened
        self._raw: dict[int, float | None] = {}
        self._eff: dict[int, float] = {}

    # --- state ------------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        """Every line is revealed."""
        return self.position >= self.line_count

    def speed_label(self) -> str:
        """The speed for display: "1x", "2x", "0.5x", ... or "max"."""
        return "max" if self.speed is None else f"{self.speed:g}x"

    # --- playing ----------------------------------------------------------------------------
    def play(self, now: float) -> None:
        """Start (or go on) playing from the current position; restart from 0 when finished."""
        if self.finished:
            self._move_to(0)
        self.playing = True
        self._last = now
        self._anchor(now)

    def pause(self, now: float) -> None:
        """Reveal what is due at `now`, then freeze."""
        if self.playing:
            self.tick(now)
        self.playing = False

    def toggle(self, now: float) -> None:
        """Pause when playing, play otherwise."""
        if self.playing:
            self.pause(now)
        else:
            self.play(now)

    def tick(self, now: float) -> int:
        """Advance to wall-clock `now`; returns how many lines were newly revealed."""
        if not self.playing:
            return 0
        now = max(now, self._last)
        dt = now - self._last
        self._last = now
        before = self.position
        if self.speed is None:
            self._reveal_fast(max(1, int(self.max_lines_per_second * dt)))
            self._anchor(now)
        else:
            self.elapsed = self._anchor_elapsed + (now - self._anchor_now) * self.speed
            burst = max(int(self.max_lines_per_second * dt), self.max_lines_per_second // 10, 1)
            self._reveal_due(burst)
            if self.finished:  # a late frame does not run the clock past the last line
                self.elapsed = min(self.elapsed, self._eff_last)
        if self.finished:
            self.playing = False
        return self.position - before

    def next_due(self, now: float) -> float | None:
        """Wall-clock seconds until the next line is due (0.0 if it already is, or at speed
        max); None when paused or finished."""
        if not self.playing or self.finished:
            return None
        if self.speed is None:
            return 0.0
        due = self._effective(self.position)
        limit = self.idle_limit
        if limit is not None and self._idle_done != self.position:
            due -= max(0.0, due - self._eff_last - limit)
        elapsed = self._anchor_elapsed + (max(now, self._last) - self._anchor_now) * self.speed
        return max(0.0, (due - elapsed) / self.speed)

    def set_speed(self, speed: float | None, now: float) -> None:
        """Change speed from `now` on; time played so far counts at the old speed (no line is
        revealed here, the next tick does that)."""
        _check_speed(speed)
        if self.playing:
            now = max(now, self._last)
            if self.speed is not None:
                self.elapsed = self._anchor_elapsed + (now - self._anchor_now) * self.speed
            self._last = now
        self.speed = speed
        self._anchor(now)

    def faster(self, now: float) -> None:
        """The next speed in SPEEDS (max is the fastest)."""
        current = _rank(self.speed)
        for speed in SPEEDS:
            if _rank(speed) > current:
                self.set_speed(speed, now)
                return

    def slower(self, now: float) -> None:
        """The previous speed in SPEEDS (1x is the slowest listed)."""
        current = _rank(self.speed)
        for speed in reversed(SPEEDS):
            if _rank(speed) < current:
                self.set_speed(speed, now)
                return

    # --- moving -----------------------------------------------------------------------------
    def step(self, n: int = 1) -> None:
        """Reveal `n` more lines (hide with n < 0), clipped; pauses."""
        self.playing = False
        self._move_to(self.position + n, walk=True)

    def seek_line(self, position: int) -> None:
        """Show lines [0, position), clipped; keeps playing or paused."""
        self._move_to(position)

    def seek_time(self, t: float) -> None:
        """Show exactly the lines whose time is <= t (binary search: assumes non-decreasing
        times); `elapsed` becomes t. Keeps playing or paused."""
        lo, hi = 0, self.line_count
        while lo < hi:
            mid = (lo + hi) // 2
            if self._approx_effective(mid) <= t:
                lo = mid + 1
            else:
                hi = mid
        self._move_to(lo)
        self.elapsed = max(self.elapsed, t)
        self._anchor_elapsed = self.elapsed

    def set_line_count(self, n: int) -> None:
        """The log grew (followed) or shrank (reset: cached times are dropped)."""
        n = max(0, n)
        if n < self.line_count:
            self._raw.clear()
            self._eff.clear()
            self.line_count = n
            self._move_to(min(self.position, n))
        else:
            self.line_count = n

    # --- internals ----------------------------------------------------------------------------
    def _anchor(self, now: float) -> None:
        self._anchor_now = now
        self._anchor_elapsed = self.elapsed

    def _raw_time(self, i: int) -> float | None:
        cache = self._raw
        if i in cache:
            return cache[i]
        t = self._time_of(i)
        if len(cache) >= _CACHE_SIZE:
            del cache[next(iter(cache))]
        cache[i] = t
        return t

    def _effective(self, i: int) -> float:
        """Effective time of line i == position (the next line), from `_eff_last`."""
        t = self._raw_time(i)
        return self._eff_last if t is None or t < self._eff_last else t

    def _remember(self, i: int, eff: float) -> None:
        cache = self._eff
        if len(cache) >= _CACHE_SIZE:
            del cache[next(iter(cache))]
        cache[i] = eff

    def _approx_effective(self, i: int) -> float:
        """Effective time of any line without walking from 0: a remembered value, else the line's
        own time, else that of the nearest timed line before it (one by one for _LOOKBACK lines,
        then galloping); exact for non-decreasing times and short untimed runs."""
        if i < 0:
            return 0.0
        if i in self._eff:
            return self._eff[i]
        j, gap = i, 1
        while True:
            t = self._raw_time(j)
            if t is not None:
                return max(t, 0.0)
            if j == 0:
                return 0.0
            if i - j >= _LOOKBACK:
                gap *= 2
            j = max(0, j - gap)

    def _move_to(self, position: int, *, walk: bool = False) -> None:
        """Jump to `position`; `walk` reads each newly revealed line's time (a short step forward
        then gets exact effective times, like a tick), else O(log n) reads at most."""
        position = min(max(position, 0), self.line_count)
        if walk and 0 < position - self.position <= _WALK_LIMIT:
            while self.position < position:  # short walk forwards: exact effective times
                eff = self._effective(self.position)
                self._remember(self.position, eff)
                self._eff_last = eff
                self.position += 1
        else:
            self.position = position
            self._eff_last = self._approx_effective(position - 1)
        self.elapsed = self._eff_last
        self._anchor_elapsed = self.elapsed
        self._anchor_now = self._last
        self._idle_done = -1

    def _reveal_due(self, burst: int) -> None:
        limit = self.idle_limit
        end = min(self.line_count, self.position + burst)
        while self.position < end:
            i = self.position
            eff = self._effective(i)
            if limit is not None and self._idle_done != i:
                self._idle_done = i
                skip = eff - self._eff_last - limit
                if skip > 0:  # a long gap plays as exactly idle_limit
                    self.elapsed += skip
                    self._anchor_elapsed += skip
            if eff > self.elapsed:
                return
            self._remember(i, eff)
            self._eff_last = eff
            self.position = i + 1

    def _reveal_fast(self, n: int) -> None:
        self.position = min(self.line_count, self.position + n)
        eff = self._approx_effective(self.position - 1)
        self._eff_last = max(self._eff_last, eff)
        self.elapsed = max(self.elapsed, self._eff_last)
        self._idle_done = -1


def _check_speed(speed: float | None) -> None:
    if speed is not None and not speed > 0:
        raise ValueError(f"speed must be positive or None, not {speed!r}")


def _rank(speed: float | None) -> float:
    return float("inf") if speed is None else speed
