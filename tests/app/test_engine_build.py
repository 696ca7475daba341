"""Which build of the rules engine runs: the compiled one only while it matches its source."""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion import RulesFromSource, stale_sources

SUFFIX = ".cpython-311-x86_64-linux-gnu.so"
ROOT = Path(__file__).resolve().parents[2]


def _touch(path: Path, mtime: float) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("")
    os.utime(path, (mtime, mtime))


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A checkout with one compiled rules module, built at time 2000 from a source of 1000."""
    rules = tmp_path / "companion" / "rules"
    _touch(rules / "state.py", 1000)
    _touch(rules / f"state{SUFFIX}", 1500)  # a shim the last build left alone
    _touch(rules / "tiles.py", 3000)  # never compiled: edits to it are always live
    _touch(tmp_path / f"abc123__mypyc{SUFFIX}", 2000)
    return rules


def test_a_fresh_build_is_used(tree: Path) -> None:
    assert stale_sources(tree) == []


def test_a_source_edited_after_the_build_is_named(tree: Path) -> None:
    os.utime(tree / "state.py", (2500, 2500))
    assert stale_sources(tree) == [tree / "state.py"]


def test_nothing_compiled_is_never_stale(tmp_path: Path) -> None:
    rules = tmp_path / "companion" / "rules"
    _touch(rules / "state.py", 5000)
    assert stale_sources(rules) == []


def test_the_source_finder_skips_compiled_modules(tree: Path) -> None:
    spec = RulesFromSource().find_spec("companion.rules.state", [str(tree)])
    assert spec is not None and spec.origin == str(tree / "state.py")
    assert RulesFromSource().find_spec("companion.games", [str(tree.parent)]) is None


def test_pure_rules_env_loads_the_source() -> None:
    env = {**os.environ, "COMPANION_PURE_RULES": "1"}
    script = "import companion.rules.state as s, companion.rules.referee.reading as r; "
    script += "print(s.__file__); print(r.__file__)"
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert all(line.endswith(".py") for line in result.stdout.split()), result.stdout


SETUP_QUERY = '{"kind": "setup", "rules": {}, "players": 4}'


def run_in(
    folder: Path, checkout: Path, *args: str, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """Run Python in ``folder`` with ``checkout`` importable, as a service manager would."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    env.pop("COMPANION_PURE_RULES", None)
    return subprocess.run(
        [sys.executable, *args],
        cwd=folder,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_referee_command_runs_from_another_folder(tmp_path: Path) -> None:
    # Only the package is importable, as with `pip install -e .`: not the checkout's root.
    site = tmp_path / "site"
    site.mkdir()
    (site / "companion").symlink_to(ROOT / "companion", target_is_directory=True)
    result = run_in(tmp_path, site, "-m", "companion.rules", "check", "-", stdin=SETUP_QUERY)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["hand_size"] == 15
    assert result.stderr == ""  # no fallback warning: the build (if make made one) loads
    probe = "import companion; print(companion.rules_compiled())"
    compiled = run_in(tmp_path, site, "-c", probe)
    assert compiled.returncode == 0, compiled.stderr
    built = any((ROOT / "companion" / "rules").rglob("*.so"))
    assert compiled.stdout.strip() == str(built)


def test_a_build_that_cannot_load_falls_back_to_the_source_with_one_warning(
    tmp_path: Path,
) -> None:
    checkout = tmp_path / "checkout"
    shutil.copytree(
        ROOT / "companion", checkout / "companion", ignore=shutil.ignore_patterns("__pycache__")
    )
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (checkout / "companion" / "rules" / f"state{suffix}").write_bytes(b"not a library")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = run_in(elsewhere, checkout, "-m", "companion.rules", "check", "-", stdin=SETUP_QUERY)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["hand_size"] == 15
    warning = result.stderr.strip().splitlines()
    assert len(warning) == 1, result.stderr
    assert "can't be loaded" in warning[0] and "plain source" in warning[0]
