"""The dependency direction the project promises: the rules engine and the camera pipeline
never pull in the web stack, and the rules engine imports nothing else of ours."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("module", ["companion.rules", "companion.rules.cli", "vision.pipeline"])
def test_module_imports_without_flask_or_sqlalchemy(module: str) -> None:
    probe = (
        f"import sys, {module}; "
        "print(sorted(m for m in ('flask', 'sqlalchemy', 'flask_sqlalchemy') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def imported_top_modules(package: Path) -> set[str]:
    names: set[str] = set()
    for source in package.rglob("*.py"):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
    return names


def test_rules_engine_imports_nothing_of_ours() -> None:
    ours = {
        name
        for name in imported_top_modules(ROOT / "companion" / "rules")
        if name.split(".")[0] in {"companion", "vision"}
    }
    assert all(name.startswith("companion.rules") for name in ours), ours


def test_vision_uses_only_the_rules_engine_of_the_app() -> None:
    ours = {
        name for name in imported_top_modules(ROOT / "vision") if name.split(".")[0] == "companion"
    }
    assert all(name.startswith("companion.rules") for name in ours), ours
