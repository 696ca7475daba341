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
    return {name for source in package.rglob("*.py") for name in imported_top_modules_of(source)}


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


def test_runtime_vision_imports_no_training_or_measuring_code() -> None:
    tools = {
        name
        for name in imported_top_modules(ROOT / "vision")
        if name.split(".")[0] in {"training", "benchmarks", "tests", "torch"}
    }
    assert not tools, tools


def test_only_the_scoring_entry_points_of_vision_import_the_rules_engine() -> None:
    scoring = {"pipeline.py", "cli.py"}  # the pipeline scores a hand; the command names sets
    importers = {
        source.name
        for source in (ROOT / "vision").glob("*.py")
        if any(name.startswith("companion") for name in imported_top_modules_of(source))
    }
    assert importers <= scoring, importers


@pytest.mark.parametrize("module", ["finding.py", "geometry.py", "rectify.py", "decode.py"])
def test_vision_arithmetic_runs_without_a_model(module: str) -> None:
    """Only the classes that own a session (finder.py, halves.py via session.py) touch
    onnxruntime; the arithmetic around the networks is plain numpy."""
    assert "onnxruntime" not in imported_top_modules_of(ROOT / "vision" / module)


def imported_top_modules_of(source: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


# -- inside the rules engine ---------------------------------------------------------------------


def _imports_of(source: Path) -> set[str]:
    """Every module ``source`` imports, relative imports resolved against the package."""
    names: set[str] = set()
    package = ".".join(source.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def test_rules_engine_imports_nothing_of_ours_even_relatively() -> None:
    for source in (ROOT / "companion" / "rules").rglob("*.py"):
        ours = {n for n in _imports_of(source) if n.split(".")[0] in {"companion", "vision"}}
        assert all(n.startswith("companion.rules") for n in ours), (source, ours)


def test_only_the_contract_layer_knows_the_referee() -> None:
    """Positions, legality and the rest of the engine never depend on the JSON contract; only
    the package's front (``__init__``) and the command line use it."""
    rules = ROOT / "companion" / "rules"
    for source in rules.glob("*.py"):
        if source.name in {"__init__.py", "cli.py"}:
            continue
        uses = {n for n in _imports_of(source) if n.startswith("companion.rules.referee")}
        assert not uses, (source.name, uses)


def test_referee_reads_then_judges_then_writes() -> None:
    """Reading knows nothing of judging or writing; judging nothing of writing."""
    folder = ROOT / "companion" / "rules" / "referee"
    forbidden = {
        "reading.py": ("judging", "writing", "contract"),
        "judging.py": ("writing", "contract"),
        "writing.py": ("contract",),
    }
    for name, layers in forbidden.items():
        imported = _imports_of(folder / name)
        for layer in layers:
            assert not any(n.startswith(f"companion.rules.referee.{layer}") for n in imported), (
                name,
                layer,
            )


def test_legality_assigns_nothing_on_a_state() -> None:
    """legality.py never assigns to an attribute of a position nor calls a mutating method
    on one of its containers (it only reads; see also the test below)."""
    tree = ast.parse((ROOT / "companion" / "rules" / "legality.py").read_text(encoding="utf-8"))
    mutators = {"append", "extend", "insert", "pop", "remove", "clear", "add", "update"}
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            while isinstance(target, ast.Subscript):
                target = target.value
            assert not isinstance(target, ast.Attribute), ast.unparse(node)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in mutators
            and isinstance(node.func.value, ast.Attribute)
        ):
            raise AssertionError(ast.unparse(node))
