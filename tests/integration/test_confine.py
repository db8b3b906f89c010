"""What the local service's box guarantees, for real: a command started by
:class:`confine.Service` reports what it could see and do into its writable folder."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from inspector.services.host import confine

pytestmark = pytest.mark.slow

PROBE = r"""
out=result.txt
id -u > $out
grep -E '^(CapEff|CapBnd|NoNewPrivs)' /proc/self/status >> $out
ls "$HIDDEN" >/dev/null 2>&1 && echo hidden-visible >> $out
touch "$OUTSIDE/x" 2>/dev/null && echo outside-writable >> $out
ls /tmp/$HOST_TMP >/dev/null 2>&1 && echo host-tmp-visible >> $out
echo ok > "/tmp/$HOST_TMP-file" && echo tmp-writable >> $out
echo ok > "$HOME/f" && echo home-writable >> $out
cat "$READABLE/data" >> $out
n=$(ls /proc | grep -c '^[0-9]'); [ "$n" -lt 8 ] && echo own-pids >> $out
echo done >> $out
"""


def _run(tmp_path: Path, mode: str) -> list[str]:
    repo, readable, hidden, outside = (tmp_path / n for n in ("repo", "ro", "hidden", "out"))
    for folder in (repo, readable, hidden, outside):
        folder.mkdir()
    (readable / "data").write_text("readable-data\n")
    (hidden / "secret").write_text("s")
    host_tmp = Path("/tmp") / f"gi-host-{os.getpid()}-{mode}"
    host_tmp.mkdir()
    try:
        (repo / "probe.sh").write_text(PROBE)
        box = confine.Box(writable=[repo], readable=[readable], hidden=[hidden])
        confine.give_to_service(repo, mode, box)
        env = dict(os.environ, HIDDEN=str(hidden), OUTSIDE=str(outside),
                   HOST_TMP=host_tmp.name, READABLE=str(readable))
        service = confine.Service(["bash", "probe.sh"], repo, env, box, mode)
        deadline = time.monotonic() + 20
        while service.alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert service.exited() == 0
        service.stop()
        leaked = [p.name for p in (outside / "x", Path(f"{host_tmp}-file")) if p.exists()]
    finally:
        host_tmp.rmdir()
        Path(f"{host_tmp}-file").unlink(missing_ok=True)
    return [*(repo / "result.txt").read_text().splitlines(), *leaked]


@pytest.mark.parametrize("mode", [m for m in confine.available() if m != "none"])
def test_the_box_hides_what_it_must_and_keeps_the_rest_read_only(mode: str,
                                                                 tmp_path: Path) -> None:
    lines = _run(tmp_path, mode)
    assert lines[0] == ("65534" if mode == "uid" else "0")
    assert lines[1:4] == ["CapEff:\t0000000000000000", "CapBnd:\t0000000000000000",
                          "NoNewPrivs:\t1"]
    # no hidden folder, no write outside the repo, no host /tmp nor host processes; a private
    # /tmp and HOME
    assert lines[4:] == ["tmp-writable", "home-writable", "readable-data", "own-pids", "done"]


def test_without_a_namespace_nothing_is_hidden(tmp_path: Path) -> None:
    """The ``none`` fallback: the service is merely this user's process, as the start log
    says."""
    lines = _run(tmp_path, "none")
    assert lines[0] == str(os.geteuid())
    assert {"hidden-visible", "outside-writable", "host-tmp-visible", "x"} <= set(lines)
    assert "it is not isolated" in confine.describe("none")


@pytest.mark.skipif(os.geteuid() != 0, reason="the uid mode needs root")
def test_a_box_that_cannot_be_built_is_an_infrastructure_error(tmp_path: Path) -> None:
    box = confine.Box(writable=[tmp_path / "missing"])
    service = confine.Service(["true"], tmp_path, dict(os.environ), box, "uid")
    deadline = time.monotonic() + 10
    while service.alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert service.exited() == 125
    assert "could not prepare the service's namespace" in service.setup_error
    assert "missing" in service.setup_error


@pytest.mark.parametrize("mode", [m for m in confine.available() if m != "none"])
def test_bytecode_the_service_compiled_is_compiled_again_into_its_venv(mode: str,
                                                                       tmp_path: Path) -> None:
    """The venv is read-only in the box: the service's bytecode goes to a prefix folder, and
    the inspector compiles the same sources into the venv itself afterwards."""
    import importlib.util
    import sys

    from inspector.services.host import bytecode

    repo, venv, prefix = tmp_path / "repo", tmp_path / "venv", tmp_path / "pycache"
    site = venv / "lib" / "site-packages"
    for folder in (repo, site, prefix):
        folder.mkdir(parents=True)
    (site / "mod_x.py").write_text("VALUE = 42\n")
    # the base interpreter (the box shows sys.base_prefix; the test's own venv may sit in a
    # private folder such as CI's mktemp one, which the box hides)
    python = os.path.realpath(sys.executable)
    (repo / "run.sh").write_text(f"exec {python} -c 'import sys; "
                                 f"sys.path.append(\"{site}\"); import mod_x'\n")
    box = confine.Box(writable=[repo, prefix], readable=[venv, Path(sys.base_prefix)])
    for folder in box.writable:
        confine.give_to_service(folder, mode, box)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(prefix)
    service = confine.Service(["bash", "run.sh"], repo, env, box, mode)
    deadline = time.monotonic() + 20
    while service.alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert service.exited() == 0
    assert not (site / "__pycache__").exists()  # the box could not write there
    assert list(prefix.rglob("mod_x.*.pyc"))
    assert bytecode.adopt(prefix, venv) == 1
    target = Path(importlib.util.cache_from_source(str(site / "mod_x.py")))
    assert target.is_file() and target.stat().st_uid == os.geteuid()
    assert bytecode.adopt(prefix, venv) == 0  # once


@pytest.mark.parametrize("mode", [m for m in confine.available() if m != "none"])
def test_a_folder_reached_through_a_symlink_is_there_by_both_paths(mode: str,
                                                                   tmp_path: Path) -> None:
    """A venv cache behind a symlink (as the app's cache root may be): the service finds it
    by the path it was given and by the real one."""
    repo, real = tmp_path / "repo", tmp_path / "real" / "venv"
    repo.mkdir()
    real.mkdir(parents=True)
    (real / "data").write_text("found\n")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    given = tmp_path / "link" / "venv"
    (repo / "run.sh").write_text(f"cat {given}/data {real}/data > out.txt\n")
    box = confine.Box(writable=[repo], readable=[given])
    confine.give_to_service(repo, mode, box)
    service = confine.Service(["bash", "run.sh"], repo, dict(os.environ), box, mode)
    deadline = time.monotonic() + 20
    while service.alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert service.exited() == 0
    assert (repo / "out.txt").read_text() == "found\nfound\n"


OWNER = r"""
import os, sys, time
from pathlib import Path
from inspector.services.host import confine
repo = Path(sys.argv[1])
box = confine.Box(writable=[repo], readable=[], hidden=[])
confine.give_to_service(repo, sys.argv[2], box)
service = confine.Service(["bash", "-c", "sleep 300 & sleep 300; wait"], repo,
                          dict(os.environ), box, sys.argv[2])
deadline = time.monotonic() + 20
while len(service.pids()) < 3 and time.monotonic() < deadline:
    time.sleep(0.05)
print(" ".join(str(p) for p in sorted(service.pids())), flush=True)
time.sleep(300)
"""


@pytest.mark.parametrize("mode", [m for m in confine.available() if m != "none"])
def test_a_service_dies_with_the_process_that_started_it(mode: str, tmp_path: Path) -> None:
    """A cluster worker or an evaluation killed outright (SIGKILL: no clean-up runs) takes
    its services along: nothing is left holding a port on the machine."""
    import subprocess
    import sys

    repo = tmp_path / "repo"
    repo.mkdir()
    owner = subprocess.Popen([sys.executable, "-c", OWNER, str(repo), mode],
                             stdout=subprocess.PIPE, text=True)
    assert owner.stdout is not None
    pids = [int(p) for p in owner.stdout.readline().split()]
    assert len(pids) >= 3, pids  # the namespace's init, bash and its sleeps
    assert all(os.path.exists(f"/proc/{p}") for p in pids)
    owner.kill()
    owner.wait(timeout=10)
    deadline = time.monotonic() + 10
    while (alive := [p for p in pids if _running(p)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert alive == []


def _running(pid: int) -> bool:
    """Alive and not a zombie."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
