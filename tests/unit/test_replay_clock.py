"""The replay clock, driven by a fake wall clock (no test sleeps)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.model.logs.replay_clock import SPEEDS, ReplayClock


class Times:
    """A time_of over a list that counts its calls."""

    def __init__(self, times: list[float | None]) -> None:
        self.times = times
        self.calls = 0

    def __call__(self, i: int) -> float | None:
        assert 0 <= i < len(self.times), i
        self.calls += 1
        return self.times[i]


def make(times: list[float | None], **kw: object) -> tuple[ReplayClock, Times]:
    time_of = Times(times)
    return ReplayClock(time_of, len(times), **kw), time_of  # type: ignore[arg-type]


T0 = 1000.0  # an arbitrary monotonic reading at which playing starts


def test_initial_state() -> None:
    clock, _ = make([0.0, 1.0])
    assert (clock.position, clock.elapsed, clock.playing, clock.finished) == (0, 0.0, False, False)
    assert clock.speed == 1.0 and clock.idle_limit is None and clock.line_count == 2
    assert clock.tick(T0) == 0  # not playing: nothing happens


def test_1x_reveals_lines_at_their_times() -> None:
    clock, _ = make([0.0, 1.0, 2.0, 3.5])
    clock.play(T0)
    assert clock.tick(T0) == 1
    assert clock.tick(T0 + 0.99) == 0
    assert clock.tick(T0 + 1.0) == 1
    assert clock.tick(T0 + 3.49) == 1 and clock.position == 3
    assert clock.elapsed == pytest.approx(3.49)
    assert clock.tick(T0 + 3.5) == 1
    assert clock.finished and not clock.playing
    assert clock.tick(T0 + 10) == 0


def test_10x_is_ten_times_faster() -> None:
    clock, _ = make([0.0, 10.0, 20.0, 30.0], speed=10.0)
    clock.play(T0)
    clock.tick(T0 + 0.99)
    assert clock.position == 1
    clock.tick(T0 + 1.0)
    assert clock.position == 2
    clock.tick(T0 + 2.5)
    assert clock.position == 3 and clock.elapsed == pytest.approx(25.0)


def test_one_tick_reveals_every_due_line() -> None:
    clock, _ = make([0.0, 0.1, 0.2, 0.3, 5.0])
    clock.play(T0)
    assert clock.tick(T0 + 1) == 4


def test_pause_freezes_and_play_resumes_where_it_was() -> None:
    clock, _ = make([0.0, 1.0, 2.0, 3.0])
    clock.play(T0)
    clock.tick(T0 + 1.2)
    assert clock.position == 2
    clock.pause(T0 + 1.5)
    assert not clock.playing and clock.elapsed == pytest.approx(1.5)
    assert clock.tick(T0 + 100) == 0 and clock.position == 2
    assert clock.next_due(T0 + 100) is None
    clock.play(T0 + 200)
    assert clock.tick(T0 + 200.49) == 0
    assert clock.tick(T0 + 200.5) == 1  # line 2 at 2.0 = 1.5 + 0.5
    clock.toggle(T0 + 201)
    assert not clock.playing
    clock.toggle(T0 + 202)
    assert clock.playing


def test_pause_reveals_what_is_due_first() -> None:
    clock, _ = make([0.0, 1.0, 2.0])
    clock.play(T0)
    clock.pause(T0 + 1.0)
    assert clock.position == 2


def test_step_hides_and_reveals_and_pauses() -> None:
    clock, _ = make([0.0, 1.0, 2.0, 3.0, 4.0])
    clock.play(T0)
    clock.step(2)
    assert (clock.position, clock.elapsed, clock.playing) == (2, 1.0, False)
    clock.step()
    assert (clock.position, clock.elapsed) == (3, 2.0)
    clock.step(-1)
    assert (clock.position, clock.elapsed) == (2, 1.0)
    clock.step(-10)
    assert (clock.position, clock.elapsed) == (0, 0.0)
    clock.step(99)
    assert (clock.position, clock.elapsed) == (5, 4.0) and clock.finished


def test_seek_line_clips_and_keeps_playing_state() -> None:
    clock, _ = make([0.0, 1.0, 2.0, 3.0])
    clock.seek_line(3)
    assert (clock.position, clock.elapsed, clock.playing) == (3, 2.0, False)
    clock.seek_line(-5)
    assert (clock.position, clock.elapsed) == (0, 0.0)
    clock.seek_line(50)
    assert clock.position == 4
    clock.play(T0)  # finished: restarts
    assert clock.position == 0
    clock.seek_line(2)
    assert clock.playing and clock.elapsed == 1.0
    clock.tick(T0 + 0.5)
    assert clock.position == 2
    clock.tick(T0 + 1.0)
    assert clock.position == 3  # line 2 at 2.0 is due one second after the seek


def test_seek_time() -> None:
    clock, _ = make([0.0, 1.0, 1.0, 2.0, 3.0])
    clock.seek_time(1.0)
    assert (clock.position, clock.elapsed) == (3, 1.0)
    clock.seek_time(1.5)
    assert (clock.position, clock.elapsed) == (3, 1.5)
    clock.seek_time(-1.0)
    assert (clock.position, clock.elapsed) == (0, 0.0)
    clock.seek_time(0.0)
    assert clock.position == 1
    clock.seek_time(1e9)
    assert clock.finished
    clock.play(T0)
    clock.seek_time(2.5)
    assert clock.playing
    clock.tick(T0 + 0.49)
    assert clock.position == 4
    clock.tick(T0 + 0.5)
    assert clock.finished


def test_idle_limit_compresses_a_long_gap() -> None:
    clock, _ = make([0.0, 1.0, 61.0, 62.0], idle_limit=2.0)
    clock.play(T0)
    clock.tick(T0 + 1.0)
    assert clock.position == 2
    assert clock.elapsed == pytest.approx(59.0)  # exactly idle_limit ahead of the next line
    assert clock.next_due(T0 + 1.0) == pytest.approx(2.0)
    assert clock.tick(T0 + 2.99) == 0
    assert clock.tick(T0 + 3.0) == 1
    assert clock.tick(T0 + 4.0) == 1 and clock.finished


def test_idle_limit_leaves_short_gaps_and_counts_time_already_waited() -> None:
    clock, _ = make([0.0, 1.0, 31.0], idle_limit=5.0)
    clock.play(T0)
    clock.tick(T0 + 1.5)  # line 1 was due at 1.0: the half second counts toward the gap
    assert clock.position == 2
    assert clock.tick(T0 + 5.99) == 0
    assert clock.tick(T0 + 6.0) == 1


def test_idle_limit_also_shortens_a_late_first_line() -> None:
    clock, _ = make([30.0, 31.0], idle_limit=1.0)
    clock.play(T0)
    assert clock.tick(T0 + 0.9) == 0
    assert clock.tick(T0 + 1.0) == 1


def test_untimed_lines_count_as_the_previous_time() -> None:
    clock, _ = make([None, 0.5, None, None, 2.0, None])
    clock.play(T0)
    assert clock.tick(T0) == 1
    assert clock.tick(T0 + 0.5) == 3
    assert clock.tick(T0 + 2.0) == 2 and clock.finished
    clock.seek_line(4)
    assert clock.elapsed == 0.5
    clock.seek_time(0.7)
    assert clock.position == 4


def test_all_untimed() -> None:
    clock, _ = make([None] * 5)
    clock.play(T0)
    assert clock.tick(T0) == 5


def test_backwards_times_use_the_running_maximum() -> None:
    clock, _ = make([0.0, 1.0, 0.9, 2.0, 1.95, 3.0])
    clock.play(T0)
    clock.tick(T0 + 0.95)
    assert clock.position == 1  # line 2 (0.9) comes with line 1 (1.0), never before it
    clock.tick(T0 + 1.0)
    assert clock.position == 3
    clock.tick(T0 + 2.0)
    assert clock.position == 5
    clock.step(-1)
    assert clock.elapsed == 2.0  # effective time of line 3
    clock.step(-4)
    clock.step(3)
    assert clock.elapsed == 1.0  # line 2 (0.9) is effectively at 1.0


def test_step_forward_reads_the_revealed_lines_for_exact_effective_times() -> None:
    clock, time_of = make([0.0, 5.0, 1.0, None])
    clock.step(3)
    assert clock.elapsed == 5.0 and time_of.calls == 3
    clock.step()
    assert clock.elapsed == 5.0


def test_many_small_ticks_do_not_drift() -> None:
    clock, _ = make([0.0, 3.7, 4.0], speed=3.7)
    clock.play(T0)
    for k in range(1, 11):
        clock.tick(T0 + k / 10)
    assert clock.position == 2  # elapsed is (now - start) * speed, not a sum of ten pieces


def test_backwards_time_after_a_long_wait_does_not_rewind_elapsed() -> None:
    clock, _ = make([0.0, 5.0, 1.0, 6.0], idle_limit=2.0)
    clock.play(T0)
    clock.tick(T0 + 2.0)  # line 1 at 5.0 comes after an idle-limited 2 s
    assert clock.position == 3 and clock.elapsed == pytest.approx(5.0)
    assert clock.next_due(T0 + 2.0) == pytest.approx(1.0)  # line 3: 6.0 - 5.0


def test_max_speed_reveals_lines_per_second() -> None:
    clock, _ = make([float(i) for i in range(1000)], speed=None, max_lines_per_second=100)
    clock.play(T0)
    assert clock.tick(T0) == 1  # at least one line
    assert clock.tick(T0 + 0.5) == 50
    assert clock.position == 51 and clock.elapsed == 50.0
    assert clock.next_due(T0 + 0.5) == 0.0
    assert clock.speed_label() == "max"
    clock.set_speed(1.0, T0 + 0.5)  # no jump: the replay goes on at the same place
    assert clock.position == 51
    assert clock.tick(T0 + 1.49) == 0
    assert clock.tick(T0 + 1.5) == 1  # line 51 at 51.0
    assert clock.tick(T0 + 2.5) == 1


def test_burst_of_lines_sharing_a_time_spreads_over_ticks() -> None:
    clock, _ = make([0.0] * 30_000, max_lines_per_second=50_000)
    clock.play(T0)
    assert clock.tick(T0) == 5_000  # a tenth of a second's worth
    assert clock.next_due(T0) == 0.0
    assert clock.tick(T0 + 0.2) == 10_000


def test_finished_then_play_restarts_from_zero() -> None:
    clock, _ = make([0.0, 1.0])
    clock.play(T0)
    clock.tick(T0 + 5)
    assert clock.finished and not clock.playing and clock.next_due(T0 + 5) is None
    clock.play(T0 + 10)
    assert clock.playing and clock.position == 0 and clock.elapsed == 0.0
    assert clock.tick(T0 + 10) == 1


def test_empty_log() -> None:
    clock, time_of = make([])
    assert clock.finished
    clock.play(T0)
    assert clock.tick(T0 + 1) == 0 and not clock.playing
    clock.seek_time(5.0)
    clock.step(3)
    assert clock.position == 0 and time_of.calls == 0


def test_set_line_count_growth_while_playing_continues() -> None:
    times: list[float | None] = [0.0, 1.0, 2.0, 3.0, 4.0]
    time_of = Times(times)
    clock = ReplayClock(time_of, 3)
    clock.play(T0)
    clock.tick(T0 + 1.5)
    assert clock.position == 2
    clock.set_line_count(5)
    assert clock.playing
    clock.tick(T0 + 4.0)
    assert clock.position == 5 and clock.finished


def test_set_line_count_shrink_clips_position() -> None:
    clock, _ = make([0.0, 1.0, 2.0, 3.0])
    clock.seek_line(4)
    clock.set_line_count(2)
    assert (clock.position, clock.line_count, clock.elapsed) == (2, 2, 1.0)
    clock.set_line_count(-1)
    assert (clock.position, clock.line_count) == (0, 0)


def test_next_due() -> None:
    clock, _ = make([0.0, 2.0, 10.0], speed=2.0)
    assert clock.next_due(T0) is None  # paused
    clock.play(T0)
    assert clock.next_due(T0) == 0.0  # line 0 is due now
    clock.tick(T0)
    assert clock.next_due(T0) == pytest.approx(1.0)
    assert clock.next_due(T0 + 0.25) == pytest.approx(0.75)
    assert clock.next_due(T0 + 3.0) == 0.0
    clock.tick(T0 + 1.0)
    assert clock.next_due(T0 + 1.0) == pytest.approx(4.0)
    clock.idle_limit = 3.0
    assert clock.next_due(T0 + 1.0) == pytest.approx(1.5)


def test_set_speed_counts_time_played_at_the_old_speed() -> None:
    clock, _ = make([float(i) for i in range(10)])
    clock.play(T0)
    clock.tick(T0 + 2.5)
    assert clock.position == 3
    clock.set_speed(10.0, T0 + 2.5)
    assert clock.position == 3
    clock.tick(T0 + 2.6)
    assert clock.position == 4 and clock.elapsed == pytest.approx(3.5)
    clock.set_speed(1.0, T0 + 3.0)  # 0.4 s at 10x: elapsed 7.5
    assert clock.position == 4
    clock.tick(T0 + 3.0)
    assert clock.position == 8


def test_set_speed_while_paused() -> None:
    clock, _ = make([0.0, 1.0])
    clock.set_speed(5.0, T0)
    assert clock.speed == 5.0 and clock.speed_label() == "5x"
    with pytest.raises(ValueError):
        clock.set_speed(0.0, T0)
    with pytest.raises(ValueError):
        ReplayClock(lambda i: 0.0, 1, speed=-1.0)
    with pytest.raises(ValueError):
        ReplayClock(lambda i: 0.0, 1, idle_limit=0.0)


def test_faster_and_slower_walk_through_speeds() -> None:
    clock, _ = make([0.0])
    labels = [clock.speed_label()]
    for _ in range(len(SPEEDS) + 2):
        clock.faster(T0)
        labels.append(clock.speed_label())
    assert labels == ["1x", "2x", "5x", "10x", "50x", "max", "max", "max", "max"]
    for _ in range(len(SPEEDS) + 2):
        clock.slower(T0)
    assert clock.speed == 1.0
    clock.set_speed(3.0, T0)
    clock.faster(T0)
    assert clock.speed == 5.0
    clock.set_speed(3.0, T0)
    clock.slower(T0)
    assert clock.speed == 2.0
    clock.set_speed(0.5, T0)
    assert clock.speed_label() == "0.5x"


def test_repeated_ticks_do_not_reread_lines() -> None:
    clock, time_of = make([0.0, 100.0])
    clock.play(T0)
    clock.tick(T0)
    calls = time_of.calls
    for k in range(50):
        clock.tick(T0 + k)
        clock.next_due(T0 + k)
    assert time_of.calls == calls


def test_ten_million_lines_are_never_walked() -> None:
    n = 10_000_000
    time_of = Times([])
    time_of.times = _Lazy(n, lambda i: i * 0.001)  # type: ignore[assignment]
    clock = ReplayClock(time_of, n)
    clock.seek_time(5000.0)
    assert clock.position == 5_000_001
    assert time_of.calls <= 2 * math.ceil(math.log2(n)) + 2
    before = time_of.calls
    clock.seek_line(n - 1)
    clock.step(1)
    clock.step(-n)
    assert clock.position == 0
    assert time_of.calls - before <= 5
    clock.play(T0)
    clock.seek_line(n // 2)
    before = time_of.calls
    clock.tick(T0 + 1.0)  # 1000 lines due
    assert clock.position == n // 2 + 1000
    assert time_of.calls - before <= 1001 + 1


def test_long_untimed_runs_take_logarithmic_reads() -> None:
    n = 10_000_000
    time_of = Times([])
    time_of.times = _Lazy(n, lambda i: 7.0 if i == 0 else None)  # type: ignore[assignment]
    clock = ReplayClock(time_of, n)
    clock.seek_line(n // 2)
    assert clock.elapsed == 7.0
    assert time_of.calls <= 32 + 2 * math.ceil(math.log2(n))


class _Lazy:
    """A list-like of computed times, so a 10-million-line log costs no memory."""

    def __init__(self, n: int, f: object) -> None:
        self.n, self.f = n, f

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> float | None:
        return self.f(i)  # type: ignore[operator]


# --- properties --------------------------------------------------------------------------------

nondecreasing = st.lists(st.floats(0, 5, allow_nan=False), max_size=40).map(
    lambda steps: [round(sum(steps[: k + 1]), 3) for k in range(len(steps))])


@settings(max_examples=300, deadline=None)
@given(nondecreasing, st.sampled_from([0.5, 1.0, 2.0, 5.0, 10.0, 50.0, 3.7]),
       st.lists(st.floats(0, 3, allow_nan=False), max_size=30))
def test_revealed_lines_follow_speed_times_wall_time(
        times: list[float], speed: float, waits: list[float]) -> None:
    clock, time_of = make(list(times), speed=speed)
    clock.play(T0)
    now = T0
    for wait in waits:
        now += wait
        before = time_of.calls
        revealed = clock.tick(now)
        assert clock.position == sum(1 for t in times if t <= (now - T0) * speed)
        assert revealed >= 0 and time_of.calls - before <= revealed + 1
        assert 0 <= clock.position <= clock.line_count
        assert clock.playing == (not clock.finished)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.none(), st.floats(0, 5, allow_nan=False)), max_size=30),
       st.floats(-1, 80, allow_nan=False))
def test_seek_time_reveals_exactly_the_lines_up_to_t(
        steps: list[float | None], t: float) -> None:
    times: list[float | None] = []
    total = 0.0
    for step in steps:  # untimed lines mixed into non-decreasing times
        if step is None:
            times.append(None)
        else:
            total += step
            times.append(total)
    effective, last = [], 0.0
    for time in times:
        last = last if time is None else max(time, last)
        effective.append(last)
    clock, time_of = make(times)
    clock.seek_time(t)
    assert clock.position == sum(1 for e in effective if e <= t)
    assert clock.elapsed == max(t, 0.0)


operations = st.one_of(
    st.tuples(st.just("tick"), st.floats(0, 5, allow_nan=False)),
    st.tuples(st.just("step"), st.integers(-50, 50)),
    st.tuples(st.just("seek_line"), st.integers(-50, 100)),
    st.tuples(st.just("seek_time"), st.floats(-5, 200, allow_nan=False)),
    st.tuples(st.just("toggle"), st.just(0)),
    st.tuples(st.just("faster"), st.just(0)),
    st.tuples(st.just("slower"), st.just(0)),
    st.tuples(st.just("grow"), st.integers(-10, 10)),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.none(), st.floats(0, 100, allow_nan=False)), max_size=60),
       st.one_of(st.none(), st.floats(0.5, 10)), st.lists(operations, max_size=40))
def test_any_sequence_keeps_the_clock_consistent(
        times: list[float | None], idle_limit: float | None,
        ops: list[tuple[str, float]]) -> None:
    time_of = Times(times)
    count = len(times) // 2
    clock = ReplayClock(time_of, count, idle_limit=idle_limit, max_lines_per_second=1000)
    now = T0
    for name, arg in ops:
        if name == "tick":
            now += arg
            before = time_of.calls
            revealed = clock.tick(now)
            assert time_of.calls - before <= revealed + 33 + 2 * 7
        elif name == "step":
            clock.step(int(arg))
        elif name == "seek_line":
            clock.seek_line(int(arg))
        elif name == "seek_time":
            clock.seek_time(arg)
        elif name == "toggle":
            clock.toggle(now)
        elif name == "faster":
            clock.faster(now)
        elif name == "slower":
            clock.slower(now)
        else:
            count = min(max(0, count + int(arg)), len(times))
            clock.set_line_count(count)
        assert 0 <= clock.position <= clock.line_count == count
        assert clock.elapsed >= 0.0
        due = clock.next_due(now)
        assert due is None or due >= 0.0
        assert (due is None) == (not clock.playing or clock.finished)


def test_a_late_last_frame_stops_the_clock_at_the_last_line() -> None:
    """The demo's big clock showed 0:02.0 for a 1.41 s log when the frame came late (seen
    in CI); the clock stops where the log ends, however late the frame that ends it."""
    clock, _ = make([0.0, 0.5, 1.41])
    clock.play(100.0)
    clock.tick(100.6)
    assert clock.position == 2 and clock.elapsed == pytest.approx(0.6)
    clock.tick(102.0)  # 2.0 s after the start: a frame that came 0.59 s late
    assert clock.finished and not clock.playing
    assert clock.elapsed == pytest.approx(1.41)
