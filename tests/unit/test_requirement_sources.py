"""Install only from the configured package index: the requirements-line policy and where it
applies without an engine (the local backend's venv cache)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.config import ConfigError, load_settings
from inspector.model.repo.requirement_sources import check_requirement_sources
from inspector.services.host.venvs import VenvCache
from inspector.services.logs.phase_log import PhaseLog

ACCEPTED = """\
flask==3.0.3
Flask == 3.0.3  # pinned
uvicorn[standard]>=0.30,<1 ; python_version >= "3.8"
requests (>=2.0)
googletrans==4.0.0rc1
numpy \\
  ==1.26.*
django-filter
flask==3.0 --hash=sha256:0123abcd
--pre
--only-binary :all:
# git+https://example.com/in/a/comment
"""


def test_plain_index_requirements_are_accepted() -> None:
    assert check_requirement_sources(ACCEPTED) == []


@pytest.mark.parametrize(("line", "reason"), [
    ("git+https://github.com/pallets/flask", "is a VCS link"),
    ("flask @ git+https://github.com/pallets/flask", "is a VCS link"),
    ("pkg @ https://example.com/pkg-1.0-py3-none-any.whl", "is a direct URL reference"),
    ("https://example.com/pkg.tar.gz", "is a direct URL reference"),
    ("file:///tmp/pkg", "is a local file URL"),
    ("./vendor/pkg", "is a local path"),
    ("/opt/wheels/pkg", "is a local path"),
    ("pkg-1.0-py3-none-any.whl", "is a local archive"),
    ("-e .", "(option -e) installs an editable"),
    ("--editable=git+https://x/y", "(option --editable) installs an editable"),
    ("--index-url https://evil.example/simple", "(option --index-url) points pip at another"),
    ("-ihttps://evil.example/simple", "(option -i) points pip at another"),
    ("--extra-index-url=https://evil.example/simple", "(option --extra-index-url) adds"),
    ("--find-links /tmp/wheels", "(option --find-links) adds a find-links location"),
    ("--trusted-host evil.example", "(option --trusted-host) trusts another host"),
    ("-r more.txt", "(option -r) reads another requirements file"),
    ("-c constraints.txt", "(option -c) reads a constraints file"),
    ("--ind https://evil.example", "(option --ind) is not an option the harness allows"),
    ("${INDEX}/pkg", "is a local path"),
    ("pkg==${VERSION}", "is not a package name"),
])
def test_lines_pointing_elsewhere_are_refused_with_their_line(line: str, reason: str) -> None:
    text = "flask==3.0.3\n\n# next\n" + line + "\n"
    [problem] = check_requirement_sources(text)
    assert problem.line == 4 and problem.text == line
    assert problem.reason.startswith(reason), problem.reason
    msg = problem.message()
    assert msg.startswith(f"requirements.txt line 4: `{line}` {reason}")
    assert "--allow-any-package-source" in msg


def test_a_continued_line_is_reported_at_its_first_line() -> None:
    [problem] = check_requirement_sources("flask\npkg @ \\\n  https://x.example/p.whl\n")
    assert problem.line == 2 and problem.reason == "is a direct URL reference"


def test_the_local_backend_refuses_before_installing_and_the_opt_out_skips_the_check(
        tmp_path: Path) -> None:
    log = PhaseLog(tmp_path / "install.log")
    text = "requests\ngit+https://github.com/psf/requests\n"
    result = VenvCache(tmp_path / "venvs").get(text, ["-r", "unused"], log, 60, lambda: False)
    assert not result.ok and not result.cached and result.exit_code == 1
    assert result.message.startswith("requirements.txt line 2: "
                                     "`git+https://github.com/psf/requests` is a VCS link")
    assert not (tmp_path / "venvs").exists() or not any((tmp_path / "venvs").iterdir())
    log.close()
    assert "refused: requirements.txt line 2" in log.path.read_text()
    # opted out: the check is skipped and pip really runs (here it fails on the missing file)
    log2 = PhaseLog(tmp_path / "install2.log")
    opted = VenvCache(tmp_path / "venvs2", installer="pip", allow_any_source=True).get(
        text, ["-r", str(tmp_path / "missing.txt")], log2, 120, lambda: False)
    log2.close()
    assert not opted.ok and "refused" not in log2.path.read_text()
    assert "missing.txt" in log2.path.read_text()


def test_the_setting_is_read_from_the_config(tmp_path: Path) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text("allow_any_package_source = true\n")
    assert load_settings(cfg).allow_any_package_source is True
    assert load_settings(tmp_path / "none.toml").allow_any_package_source is False
    cfg.write_text('allow_any_package_source = "yes"\n')
    with pytest.raises(ConfigError, match="allow_any_package_source"):
        load_settings(cfg)
