"""The Mexican Train table companion: the web app (``companion.app``) and the rules engine.

Importing the package settles which build of the rules engine Python loads: the modules
``make`` compiled with mypyc, or the plain ``.py`` source. Python prefers a compiled module
over its source; after a ``git pull`` or an edit without ``make`` the compiled files would run
the old rules, so :func:`settle` loads the source instead and says so once.
``COMPANION_PURE_RULES=1`` asks for the source always. A build that cannot load (a library
missing, an older build's left at the checkout's root, a broken file) falls back to the source
too, with one warning. This lives here, in the package's own import, because it must run
before anything imports ``companion.rules`` and must not add a module of ours beside the engine.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

RULES = Path(__file__).resolve().parent / "rules"
PACKAGE = "companion.rules"


class RulesFromSource(importlib.abc.MetaPathFinder):
    """Finds ``companion.rules`` and its modules among ``.py`` files only."""

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if name != PACKAGE and not name.startswith(PACKAGE + "."):
            return None
        loaders = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        for entry in path or sys.path:
            spec = importlib.machinery.FileFinder(entry, loaders).find_spec(name)
            if spec is not None:
                return spec
        return None


def compiled_files(rules: Path = RULES) -> list[Path]:
    """The compiled build's files: each module's shim and library (``tools/compile_rules.py``)."""
    return [*rules.rglob("*.so"), *rules.parent.glob(f"{rules.name}__mypyc*.so")]


def stale_sources(rules: Path = RULES) -> list[Path]:
    """Sources of compiled modules changed after the build (empty when nothing is compiled)."""
    shims = list(rules.rglob("*.so"))
    if not shims:
        return []
    # A module's code lives in its library (``state__mypyc.*.so``); the shim Python imports
    # (``state.*.so``) is a small file that a rebuild does not always rewrite.
    built = max(path.stat().st_mtime for path in compiled_files(rules))
    stale = []
    for shim in shims:
        source = shim.with_name(shim.name.split(".")[0] + ".py")
        if source.exists() and source.stat().st_mtime > built:
            stale.append(source)
    return stale


def load_failure() -> str | None:
    """Import the compiled rules engine; say why it cannot load (None when it loads).

    Modules half loaded by a failed import are dropped, so the source can load in their place.
    """
    try:
        importlib.import_module(PACKAGE)
    except ImportError as error:
        for name in [name for name in sys.modules if name.split(".")[:2] == ["companion", "rules"]]:
            del sys.modules[name]
        return str(error) or type(error).__name__
    return None


def rules_compiled() -> bool:
    """Whether the rules engine that runs (importing it if need be) is the compiled build."""
    from companion.rules import state

    return not str(state.__file__).endswith(".py")


def settle() -> None:
    """Loads the rules engine from source when asked to or when its compiled build is stale."""
    if PACKAGE in sys.modules or any(isinstance(f, RulesFromSource) for f in sys.meta_path):
        return
    pure = bool(os.environ.get("COMPANION_PURE_RULES"))
    stale = [] if pure else stale_sources()
    if pure or stale:
        sys.meta_path.insert(0, RulesFromSource())
    if stale:
        names = ", ".join(path.name for path in stale)
        print(
            f"The compiled rules engine is older than {names}: using the plain source "
            "(slower). Run make to compile it again.",
            file=sys.stderr,
        )
        return
    if pure or not any(RULES.rglob("*.so")):
        return
    failure = load_failure()
    if failure is not None:
        sys.meta_path.insert(0, RulesFromSource())
        print(
            f"The compiled rules engine can't be loaded ({failure}): using the plain source "
            "(slower). Run make to compile it again.",
            file=sys.stderr,
        )


# Before anything imports the rules engine: a stale compiled build must not run old rules.
settle()

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Create and configure an instance of the table companion."""
    # Flask is imported here rather than at package import: `companion.rules` and `vision`
    # import this package, and must stay free of Flask (and start in milliseconds).
    from .app import create_app as build_app

    return build_app(test_config)
