"""`inspector summary` on a copy of the bundled Java run whose generated repo's pom makes
Surefire ignore failing tests: the sample is named with its Maven finding, in text and JSON,
and the summary says such settings are in effect in the golden run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

RUN = "repo_readme_1125_dash_m2-mini_Java"
TASKS = ("javalin-task-manager", "spark-dashboard-backend", "springboot-chat-gateway")
IGNORE = """  <build>
    <plugins>
      <plugin>
        <artifactId>maven-surefire-plugin</artifactId>
        <configuration>
          <testFailureIgnore>true</testFailureIgnore>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>"""


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory, sample_runs: Path) -> Path:
    dest = tmp_path_factory.mktemp("java-tamper")
    shutil.copytree(sample_runs / "runs" / RUN, dest / "runs" / RUN)
    shutil.copytree(sample_runs / "predictions" / RUN, dest / "predictions" / RUN)
    for task in TASKS:
        shutil.copytree(sample_runs / "tasks" / "repo" / task, dest / "tasks" / "repo" / task)
    pom = dest / "predictions" / RUN / "javalin-task-manager" / "pom.xml"
    pom.write_text(pom.read_text(encoding="utf-8").replace("</project>", IGNORE),
                   encoding="utf-8")
    return dest


def cli(*args: str, cache: Path) -> str:
    env = {**os.environ, "GENESIS_INSPECTOR_CACHE": str(cache)}
    proc = subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True,
                          text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_summary_names_the_java_sample_whose_pom_ignores_failures(
        root: Path, tmp_path: Path) -> None:
    out = cli("summary", str(root), cache=tmp_path)
    assert ("Tampering attempts: 1 sample with tampering attempts, 1 deliberate (Python "
            "findings kept out of the golden test runs; Maven/JUnit settings are in effect in "
            "them: check those verdicts)") in out
    assert f"  {RUN}/javalin-task-manager/0: deliberate (maven_failures_ignored)" in out
    (row,) = json.loads(cli("summary", str(root), "--json", cache=tmp_path))
    (attempt,) = row["tampering"]["attempts"]
    (finding,) = attempt["findings"]
    assert finding["kind"] == "maven_failures_ignored" and finding["path"] == "pom.xml"
    pom = root / "predictions" / RUN / "javalin-task-manager" / "pom.xml"
    line = next(i for i, ln in enumerate(pom.read_text(encoding="utf-8").splitlines(), 1)
                if "<testFailureIgnore>" in ln)
    assert finding["detail"].startswith(f"pom.xml:{line}: <testFailureIgnore>true: failing "
                                        "tests do not fail the build; hides failing golden "
                                        "tests")
