"""LineIndex on real files: sparse line index, lazy reads, incremental indexing, follow mode."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.services.logs.index import LineIndex, LineRead, LogOpenError


def ref_lines(data: bytes) -> list[bytes]:
    """The reference split: lines by "\\n", no trailing empty element, one "\\r" stripped."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return [line[:-1] if line.endswith(b"\r") else line for line in lines]


@pytest.fixture
def make_index(tmp_path: Path) -> Iterator[Callable[..., LineIndex]]:
    opened: list[LineIndex] = []

    def make(data: bytes, *, build: bool = True, name: str = "x.log", **kw: int) -> LineIndex:
        path = tmp_path / name
        path.write_bytes(data)
        idx = LineIndex(path, **kw)
        opened.append(idx)
        if build:
            assert idx.build()
        return idx

    yield make
    for idx in opened:
        idx.close()


def texts(idx: LineIndex) -> list[str]:
    return [r.text for r in idx.read_range(0, len(idx))]


def test_empty_file(make_index: Callable[..., LineIndex]) -> None:
    idx = make_index(b"")
    assert len(idx) == 0 and idx.complete and idx.file_size == 0 == idx.indexed_bytes
    assert not idx.partial_last_line and not idx.has_nul
    assert idx.read_range(0, 10) == []
    assert list(idx.iter_blocks()) == []
    for bad in (lambda: idx.read(0), lambda: idx.span(0), lambda: idx.line_of_offset(0)):
        with pytest.raises(IndexError):
            bad()


def test_open_does_not_index(make_index: Callable[..., LineIndex]) -> None:
    idx = make_index(b"a\nb\n", build=False)
    assert len(idx) == 0 and idx.indexed_bytes == 0 and idx.file_size == 4
    assert not idx.complete


@pytest.mark.parametrize(("data", "lines", "partial"), [
    (b"hello\n", ["hello"], False),
    (b"hello", ["hello"], True),
    (b"\n", [""], False),
    (b"a\r\nb\r\n", ["a", "b"], False),
    (b"a\r\nb\r", ["a", "b"], True),
    (b"a\r\r\nb", ["a\r", "b"], True),  # only one "\r" is part of the line end
    (b"\r\n\r\n", ["", ""], False),
    (b"x\ry\n", ["x\ry"], False),
    (b"\n\n\nx\n\n", ["", "", "", "x", ""], False),
])
def test_line_splitting(make_index: Callable[..., LineIndex], data: bytes, lines: list[str],
                        partial: bool) -> None:
    idx = make_index(data)
    assert len(idx) == len(lines) and idx.complete
    assert idx.partial_last_line is partial
    assert texts(idx) == lines
    assert [idx.read(i).text for i in range(len(idx))] == lines
    assert [idx.raw(i) for i in range(len(idx))] == ref_lines(data)


def test_span_excludes_newline_and_cr(make_index: Callable[..., LineIndex]) -> None:
    idx = make_index(b"ab\r\n\ncd")
    assert [idx.span(i) for i in range(3)] == [(0, 2), (4, 4), (5, 7)]
    for bad in (-1, 3):
        with pytest.raises(IndexError):
            idx.span(bad)
        with pytest.raises(IndexError):
            idx.read(bad)


@pytest.mark.parametrize("block", [1, 2, 3, 7, 8, 16])
def test_lines_straddling_blocks(make_index: Callable[..., LineIndex], block: int) -> None:
    lengths = [block - 1, block, block + 1, 0, 2 * block, 2 * block + 1, 3 * block - 1, 0, 1]
    lines = [bytes([97 + k % 26]) * n for k, n in enumerate(lengths) if n >= 0]
    data = b"\n".join(lines) + b"\n"
    idx = make_index(data, block_size=block)
    assert [idx.raw(i) for i in range(len(idx))] == lines
    assert texts(idx) == [line.decode() for line in lines]
    for i in range(len(idx)):
        assert idx.read_range(i, 3) == [idx.read(j) for j in range(i, min(i + 3, len(idx)))]


def test_huge_line_is_capped_and_not_read_whole(
        make_index: Callable[..., LineIndex], monkeypatch: pytest.MonkeyPatch) -> None:
    big = b"x" * (3 << 20)
    idx = make_index(b"first\n" + big + b"\r\nlast\n")
    reads: list[int] = []
    real_pread = os.pread

    def spy(fd: int, n: int, offset: int) -> bytes:
        reads.append(n)
        return real_pread(fd, n, offset)

    monkeypatch.setattr(os, "pread", spy)
    got = idx.read(1)
    assert got == LineRead("x" * (64 * 1024), (3 << 20) - 64 * 1024, False)
    assert idx.read_range(0, 3) == [LineRead("first", 0, False), got, LineRead("last", 0, False)]
    assert max(reads) < 256 * 1024
    assert idx.span(1) == (6, 6 + (3 << 20))
    assert len(idx.raw(1)) == 64 * 1024 and idx.raw(1, 10) == b"x" * 10
    assert len(idx.raw(1, 10 << 20)) == 3 << 20


def test_cap_trims_to_utf8_boundary(make_index: Callable[..., LineIndex]) -> None:
    line = "é" * 10  # 2 bytes each
    idx = make_index(line.encode() + b"\n", max_line_bytes=7)
    assert idx.read(0) == LineRead("é" * 3, 20 - 6, False)
    idx = make_index(b"ab\xff\xfe" * 10 + b"\n", max_line_bytes=5, name="bad.log")
    got = idx.read(0)
    assert got.cut_bytes == 35 and got.invalid_utf8 and got.text == "ab\ufffd\ufffda"


def test_invalid_utf8_and_nul(make_index: Callable[..., LineIndex]) -> None:
    idx = make_index(b"ok\nbad \xff\xfe here\nnul\x00byte\n")
    assert idx.has_nul
    assert idx.read(0) == LineRead("ok", 0, False)
    assert idx.read(1) == LineRead("bad \ufffd\ufffd here", 0, True)
    assert idx.read(2) == LineRead("nul\x00byte", 0, False)  # not sanitised here
    assert not make_index(b"plain\n", name="p.log").has_nul


def test_incremental_indexing_matches_build(make_index: Callable[..., LineIndex]) -> None:
    data = b"".join(b"line %d %s\n" % (k, b"y" * (k % 37)) for k in range(500))
    whole = make_index(data, block_size=64)
    idx = make_index(data, build=False, block_size=64, name="step.log")
    assert not idx.index_more(100)
    assert 0 < len(idx) < 500 and not idx.complete and idx.indexed_bytes == 100
    assert idx.read_range(0, 3) == whole.read_range(0, 3)
    steps = 1
    while not idx.index_more(97):
        steps += 1
        # The indexed region's last line is the part indexed so far.
        last = len(idx) - 1
        start, end = idx.span(last)
        assert end <= idx.indexed_bytes
        assert idx.raw(last) == data[start:end].rstrip(b"\r")
    assert steps > 10 and idx.complete and len(idx) == 500
    assert idx.read_range(0, 500) == whole.read_range(0, 500)


def test_partial_last_line_while_indexing(make_index: Callable[..., LineIndex]) -> None:
    idx = make_index(b"abcdefgh\nij\n", build=False)
    idx.index_more(5)
    assert len(idx) == 1 and idx.partial_last_line and idx.read(0).text == "abcde"
    idx.index_more(4)
    assert len(idx) == 1 and not idx.partial_last_line and idx.read(0).text == "abcdefgh"
    assert list(idx.iter_blocks()) == [(0, b"abcdefgh\n")]  # never beyond the indexed region


def test_build_progress_and_cancel(make_index: Callable[..., LineIndex]) -> None:
    data = b"z" * 99 + b"\n"
    idx = make_index(data * (90 * 1024), build=False)  # 9 MiB: two 8 MiB steps
    seen: list[tuple[int, int]] = []
    assert idx.build(progress=lambda a, b: seen.append((a, b)), cancelled=lambda: bool(seen)) \
        is False
    assert seen == [(8 << 20, len(data) * 90 * 1024)] and not idx.complete
    assert idx.build(progress=lambda a, b: seen.append((a, b))) is True
    assert idx.complete and len(idx) == 90 * 1024 and seen[-1] == (idx.file_size,) * 2
    assert make_index(b"a\n", build=False, name="c.log").build(cancelled=lambda: True) is False


def test_poll_grown_and_append_completes_partial_line(
        make_index: Callable[..., LineIndex], tmp_path: Path) -> None:
    idx = make_index(b"one\ntw")
    assert idx.poll() == "same"
    assert texts(idx) == ["one", "tw"] and idx.partial_last_line
    with open(tmp_path / "x.log", "ab") as fh:
        fh.write(b"o\nthree\n")
    assert idx.poll() == "grown" and idx.file_size == 14 and not idx.complete
    assert idx.poll() == "same"
    assert idx.build()
    assert texts(idx) == ["one", "two", "three"] and not idx.partial_last_line


def test_poll_truncated(make_index: Callable[..., LineIndex], tmp_path: Path) -> None:
    idx = make_index(b"aaa\nbbb\nccc\n")
    with open(tmp_path / "x.log", "r+b") as fh:
        fh.truncate(0)
        fh.write(b"new\n")
    assert idx.poll() == "truncated"
    assert len(idx) == 0 and idx.indexed_bytes == 0 and idx.file_size == 4
    assert idx.build() and texts(idx) == ["new"]
    assert idx.poll() == "same"


def test_poll_rotated(make_index: Callable[..., LineIndex], tmp_path: Path) -> None:
    idx = make_index(b"old 1\nold 2\n")
    (tmp_path / "new.log").write_bytes(b"fresh\n")
    os.replace(tmp_path / "new.log", tmp_path / "x.log")
    assert idx.poll() == "rotated"
    assert len(idx) == 0 and idx.file_size == 6
    assert idx.build() and texts(idx) == ["fresh"]
    assert idx.poll() == "same"


def test_poll_deleted_then_recreated(make_index: Callable[..., LineIndex], tmp_path: Path) -> None:
    idx = make_index(b"kept 1\nkept 2\n")
    (tmp_path / "x.log").unlink()
    assert idx.poll() == "deleted"
    assert texts(idx) == ["kept 1", "kept 2"]  # the old descriptor stays readable
    assert idx.poll() == "deleted"
    assert b"".join(b for _, b in idx.iter_blocks()) == b"kept 1\nkept 2\n"
    (tmp_path / "x.log").write_bytes(b"again\n")
    assert idx.poll() == "rotated"
    assert idx.build() and texts(idx) == ["again"]


def test_open_errors(tmp_path: Path) -> None:
    with pytest.raises(LogOpenError, match=r"missing\.log.*no such file"):
        LineIndex(tmp_path / "missing.log")
    with pytest.raises(LogOpenError, match="is a directory"):
        LineIndex(tmp_path)
    assert str(tmp_path) in str(pytest.raises(LogOpenError, LineIndex, tmp_path).value)
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(LogOpenError, match="not a regular file"):  # and does not block
        LineIndex(tmp_path / "fifo")


def test_open_permission_denied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "secret.log"
    path.write_bytes(b"x\n")

    def denied(*args: object, **kwargs: object) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "open", denied)  # chmod 0 does not stop root
    with pytest.raises(LogOpenError, match=r"secret\.log: permission denied"):
        LineIndex(path)


def test_file_shrunk_before_poll(make_index: Callable[..., LineIndex], tmp_path: Path) -> None:
    idx = make_index(b"".join(b"line %d\n" % k for k in range(1000)), block_size=64)
    os.truncate(tmp_path / "x.log", 100)
    assert [r.text for r in idx.read_range(0, 5)] == [f"line {k}" for k in range(5)]
    assert idx.read_range(900, 10) == []  # what can be read, never an exception
    with pytest.raises(OSError):
        idx.read(900)
    assert idx.index_more() is True
    assert idx.poll() == "truncated" and len(idx) == 0


def test_iter_blocks(make_index: Callable[..., LineIndex]) -> None:
    data = b"".join(b"%d:%s\n" % (k, b"q" * (k * 7 % 50)) for k in range(300)) + b"tail"
    idx = make_index(data, block_size=32)
    for block_bytes in (1, 10, 100, 1000, 1 << 20):
        blocks = list(idx.iter_blocks(block_bytes=block_bytes))
        assert b"".join(b for _, b in blocks) == data
        for first, chunk in blocks:
            assert idx.span(first)[0] == data.find(chunk)
            assert chunk.startswith(b"%d:" % first) or first == 300
            assert chunk.endswith(b"\n") or chunk.endswith(b"tail")
            assert len(chunk) <= block_bytes or chunk.count(b"\n") <= 1
    sub = list(idx.iter_blocks(10, 20, block_bytes=64))
    assert sub[0][0] == 10
    assert b"".join(b for _, b in sub) == b"".join(
        line + b"\n" for line in data.split(b"\n")[10:20])
    assert list(idx.iter_blocks(300, 500)) == [(300, b"tail")]
    assert list(idx.iter_blocks(5, 5)) == [] and list(idx.iter_blocks(400)) == []


def test_iter_blocks_long_line_is_one_block(make_index: Callable[..., LineIndex]) -> None:
    data = b"a\n" + b"L" * 1000 + b"\nb\n"
    idx = make_index(data, block_size=16)
    assert list(idx.iter_blocks(block_bytes=100)) == [
        (0, b"a\n"), (1, b"L" * 1000 + b"\n"), (2, b"b\n")]
    idx = make_index(b"a\n" + b"L" * 1000, block_size=16, name="tail.log")
    assert list(idx.iter_blocks(block_bytes=100)) == [(0, b"a\n"), (1, b"L" * 1000)]


def test_line_of_offset(make_index: Callable[..., LineIndex]) -> None:
    data = b"ab\r\n\n" + b"c" * 40 + b"\nd"
    idx = make_index(data, block_size=8)
    assert [idx.line_of_offset(o) for o in range(len(data))] == [
        data[:o].count(b"\n") for o in range(len(data))]
    for bad in (-1, len(data)):
        with pytest.raises(IndexError):
            idx.line_of_offset(bad)


def test_read_range_clipping(make_index: Callable[..., LineIndex]) -> None:
    idx = make_index(b"a\nb\nc\n")
    assert [r.text for r in idx.read_range(1, 10)] == ["b", "c"]
    assert idx.read_range(3, 5) == [] and idx.read_range(0, 0) == []


def test_close_and_context_manager(tmp_path: Path) -> None:
    path = tmp_path / "x.log"
    path.write_bytes(b"a\n")
    with LineIndex(path) as idx:
        idx.build()
        assert idx.read(0).text == "a"
    with pytest.raises(ValueError, match="closed"):
        idx.read(0)
    idx.close()  # idempotent


def test_reading_while_building_in_a_thread(make_index: Callable[..., LineIndex]) -> None:
    data = b"".join(b"record %07d\n" % k for k in range(200_000))
    idx = make_index(data, build=False, block_size=512)
    done = threading.Event()

    def builder() -> None:
        while not idx.index_more(64 * 1024):
            pass
        done.set()

    thread = threading.Thread(target=builder)
    thread.start()
    checks = 0
    while not done.is_set() or checks == 0:
        n = len(idx)
        if n > 5:
            lines = idx.read_range(n - 5, 5)
            assert len(lines) == 5
            for k, line in enumerate(lines[:-1]):  # the last one may be partial
                assert line.text == f"record {n - 5 + k:07d}"
        checks += 1
    thread.join()
    assert len(idx) == 200_000 and idx.read(199_999).text == "record 0199999"


def test_memory_is_sparse(make_index: Callable[..., LineIndex]) -> None:
    idx = make_index(b"\n" * (1 << 20))  # 1M empty lines
    assert len(idx) == 1 << 20
    assert idx.memory_bytes() < 1024  # 64 blocks of 16 KiB, 8 bytes each


_line = st.lists(st.sampled_from([b"a", b"\xc3\xa9", b"\r", b"\xff", b"\x00", b"z" * 9]),
                 max_size=8).map(b"".join)


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(_line, max_size=25), final_newline=st.booleans(),
       block=st.integers(1, 40), step=st.integers(1, 60), limit=st.integers(1, 12))
def test_matches_reference_split(tmp_path: Path, lines: list[bytes], final_newline: bool,
                                 block: int, step: int, limit: int) -> None:
    data = b"\n".join(lines) + (b"\n" if final_newline and lines else b"")
    path = tmp_path / "prop.log"
    path.write_bytes(data)
    with LineIndex(path, block_size=block, max_line_bytes=limit) as idx:
        while not idx.index_more(step):
            pass
        ref = ref_lines(data) if data else []
        assert len(idx) == len(ref)
        assert [idx.raw(i, 1000) for i in range(len(idx))] == ref
        everything = idx.read_range(0, len(idx))
        assert everything == [idx.read(i) for i in range(len(idx))]
        for i, got in enumerate(everything):
            kept = len(ref[i]) - got.cut_bytes  # shown bytes: a prefix cut at a char boundary
            assert min(len(ref[i]), limit) - 3 <= kept <= min(len(ref[i]), limit)
            assert got.text == ref[i][:kept].decode("utf-8", "replace")
            assert got.invalid_utf8 == (got.text.encode("utf-8", "surrogatepass")
                                        != ref[i][:kept])
        assert b"".join(b for _, b in idx.iter_blocks(block_bytes=step)) == data
        assert [idx.line_of_offset(o) for o in range(len(data))] == [
            data[:o].count(b"\n") for o in range(len(data))]
