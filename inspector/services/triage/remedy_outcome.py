"""What a causal re-run showed: the remedy's outcome next to the recorded one, in one sentence.

Pure comparison (no deploying here, see :mod:`.remedies`). ``supports`` follows one rule per
remedy kind:

* installing a package for the tests: True when the test files that did not collect in the
  recorded run now collect (none still failing with its recorded error), False when they all
  still fail the same way, None otherwise;
* installing a package with the repo's requirements: True when a service that never started
  now starts (or, for a service that did start, as for the other kinds below), False when it
  still does not start, None when the install itself fails;
* running a test alone, adding a task file: over the selected tests that failed in the
  recorded run, True when some now pass and none fails with its recorded error any more (the
  recorded failure is gone; what still fails, fails differently), False when none passes and
  each fails with its recorded error, None otherwise.

A re-run that did not finish (cancelled, timed out, not deployed for another reason) is
inconclusive (None).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from inspector.model import Outcome, TestCase
from inspector.model.failures.triage import (
    ADD_TASK_FILE,
    INSTALL_REPO_PACKAGE,
    INSTALL_TEST_PACKAGE,
    RUN_ALONE,
    Remedy,
)
from inspector.model.suite.testids import leaf_name
from inspector.services.rerun.runner import normalise_error


@dataclass
class RemedyRun:
    """What the re-run did: deployed or not (and why), the cases its tests produced."""

    deployed: bool
    failed_phase: str = ""  # install | start | health when not deployed
    failure: str = ""  # the failed phase's message
    start_error: str = ""  # the service's last error line (a failed start)
    cases: list[TestCase] = field(default_factory=list)
    tests_message: str = ""  # the test phase's outcome ("some tests failed", ...)
    tests_ran: bool = False
    stopped: str = ""  # "was cancelled" or "timed out after 900s", when it did not finish


@dataclass(frozen=True)
class Verdict:
    supports: bool | None
    outcome: str
    passed: int = 0
    failed: int = 0
    collected: int = 0


def is_collection_error(case: TestCase) -> bool:
    """A file that did not collect (pytest reports it as an error case named by the file)."""
    return case.outcome is Outcome.ERROR and "::" not in case.id and \
        case.message.strip().startswith("collection failure")


def counts(cases: list[TestCase]) -> tuple[int, int, int]:
    """``(collected, passed, failed)`` over real test cases (files that did not collect are
    not tests); errors count as failed."""
    real = [c for c in cases if not is_collection_error(c)]
    return (len(real), sum(c.outcome is Outcome.PASSED for c in real),
            sum(c.outcome.is_failure for c in real))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _of(passed: int, collected: int) -> str:
    """``29 of 33 tests pass``, ``1 of 1 test passes``."""
    return f"{passed} of {_plural(collected, 'test')} pass" + ("es" if collected == 1 else "")


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def judge(remedy: Remedy, recorded: dict[str, TestCase], recorded_deployed: bool,
          run: RemedyRun) -> Verdict:
    """The verdict of a finished (or stopped) re-run of ``remedy``."""
    lead = _lead(remedy)
    if run.stopped:
        return Verdict(None, f"{lead}: the re-run {run.stopped} before it finished; "
                       "nothing to compare")
    if not run.deployed:
        return _not_deployed(remedy, lead, recorded_deployed, run)
    collected, passed, failed = counts(run.cases)
    if not run.tests_ran or not run.cases:
        why = run.tests_message or "no test report"
        return Verdict(None, f"{lead}, the service starts but the tests did not run ({why})",
                       passed, failed, collected)
    if remedy.kind == INSTALL_TEST_PACKAGE:
        v = _collection(lead, recorded, run.cases)
        if v is not None:
            return Verdict(v[0], v[1], passed, failed, collected)
    if remedy.kind == INSTALL_REPO_PACKAGE and not recorded_deployed:
        return Verdict(True, f"{lead}, the service starts; {_of(passed, collected)}",
                       passed, failed, collected)
    supports, sentence = _tests(remedy, lead, recorded, run.cases)
    return Verdict(supports, sentence, passed, failed, collected)


def _lead(remedy: Remedy) -> str:
    if remedy.kind == INSTALL_TEST_PACKAGE:
        return f"with {remedy.target} installed for the tests"
    if remedy.kind == INSTALL_REPO_PACKAGE:
        return f"with {remedy.target} added to requirements.txt"
    if remedy.kind == ADD_TASK_FILE:
        return f"with the task's {remedy.target} added"
    if remedy.kind == RUN_ALONE:
        return "run alone on a fresh deployment"
    return remedy.describe()


def _not_deployed(remedy: Remedy, lead: str, recorded_deployed: bool,
                  run: RemedyRun) -> Verdict:
    why = _short(run.failure or "not deployed")
    if run.start_error and run.start_error not in why:
        why += f" ({_short(run.start_error)})"
    if run.failed_phase == "install":
        return Verdict(None, f"{lead}, the install fails: {why}")
    if remedy.kind == INSTALL_REPO_PACKAGE:
        return Verdict(False if not recorded_deployed else None,
                       f"{lead}, the service still does not start: {why}")
    return Verdict(None, f"{lead}, the service did not start on a fresh deployment: {why}")


def _collection(lead: str, recorded: dict[str, TestCase], cases: list[TestCase]
                ) -> tuple[bool | None, str] | None:
    """The verdict on the files that did not collect in the recorded run (None: none did)."""
    before = {c.id: c for c in recorded.values() if is_collection_error(c)}
    if not before:
        return None
    now = {c.id: c for c in cases if is_collection_error(c)}
    ran_files = {c.file or c.id.partition("::")[0] for c in cases}
    before = {k: v for k, v in before.items() if k in ran_files or k in now} or before
    still = [k for k in before if k in now]
    fixed = [k for k in before if k not in now]
    same = [k for k in still if normalise_error(now[k].first_message_line) ==
            normalise_error(before[k].first_message_line)]
    in_fixed = [c for c in cases if not is_collection_error(c)
                and (c.file or c.id.partition("::")[0]) in fixed]
    k, p = len(in_fixed), sum(c.outcome is Outcome.PASSED for c in in_fixed)
    files = _plural(len(before), "test file")
    if not still:
        that = "that did not collect now collect" if len(before) > 1 else \
            "that did not collect now collects"
        return True, f"{lead}, the {files} {that}: {_plural(k, 'test')}, {p} pass"
    err = _short(now[still[0]].first_message_line)
    if not fixed:
        do = "still do not collect" if len(still) > 1 else "still does not collect"
        return (False if len(same) == len(still) else None,
                f"{lead}, the {files} {do}: {err}")
    return (True if not same else None,
            f"{lead}, {len(fixed)} of the {files} now collect ({_plural(k, 'test')}, {p} "
            f"pass); {still[0]} still does not: {err}")


def _tests(remedy: Remedy, lead: str, recorded: dict[str, TestCase], cases: list[TestCase]
           ) -> tuple[bool | None, str]:
    """The verdict over the selected tests that failed in the recorded run."""
    new = {c.id: c for c in cases if not is_collection_error(c)}
    deciding = [i for i in new if i in recorded and recorded[i].outcome.is_failure]
    fixed = [i for i in deciding if not new[i].outcome.is_failure]
    same = [i for i in deciding if new[i].outcome.is_failure and
            normalise_error(new[i].first_message_line) ==
            normalise_error(recorded[i].first_message_line)]
    collected, passed, _ = counts(cases)
    if remedy.kind == RUN_ALONE and len(new) == 1:
        [(tid, case)] = new.items()
        name = leaf_name(tid)
        old = recorded.get(tid)
        if old is None or not old.outcome.is_failure:
            state = "passes" if not case.outcome.is_failure else \
                f"fails: {_short(case.first_message_line)}"
            was = "not recorded" if old is None else f"{old.outcome.value} in the recorded run"
            return None, f"{lead}, {name} {state} ({was})"
        if fixed:
            return True, f"{lead}, {name} passes (it failed in the recorded run)"
        if same:
            return False, (f"{lead}, {name} still fails the same way: "
                           f"{_short(case.first_message_line)}")
        return None, (f"{lead}, {name} fails with a different error: "
                      f"{_short(case.first_message_line)}")
    if not deciding:
        return None, (f"{lead}, {_of(passed, collected)}; none of them failed in the "
                      "recorded run")
    rec_pass = sum(1 for i in new if i in recorded and not recorded[i].outcome.is_failure)
    changed = len(deciding) - len(fixed) - len(same)
    notes = [f"{len(fixed)} of the {len(deciding)} that failed in the recorded run now pass"]
    if changed:
        notes.append(f"{changed} now fail{'s' if changed == 1 else ''} differently")
    if rec_pass:
        notes.append(f"{rec_pass} passed there")
    sentence = f"{lead}, {_of(passed, collected)} ({'; '.join(notes)})"
    if fixed and not same:
        return True, sentence
    if not fixed and len(same) == len(deciding):
        return False, sentence
    return None, sentence
