"""Every worked case must hold (tests/rules/data/cases.jsonl, the project's copy of
shared/referee-cases/cases.jsonl)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.rules.referee import answer

CASES_FILE = Path(__file__).parent / "data" / "cases.jsonl"
CASES = [json.loads(line) for line in CASES_FILE.read_text().splitlines() if line.strip()]


def _is_tile_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, list) for v in value)


def mismatches(expected: Any, got: Any, path: str = "") -> list[str]:
    """Where ``got`` differs from the partial ``expected`` (tile lists compare as sets)."""
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return [f"{path}: expected an object, got {got!r}"]
        problems: list[str] = []
        for key, value in expected.items():
            if key not in got:
                problems.append(f"{path}.{key}: missing")
            else:
                problems.extend(mismatches(value, got[key], f"{path}.{key}"))
        return problems
    if _is_tile_list(expected):
        same = isinstance(got, list) and {tuple(sorted(t)) for t in expected} == {
            tuple(sorted(t)) for t in got
        }
        return [] if same else [f"{path}: expected {expected}, got {got}"]
    if expected != got or type(expected) is not type(got):
        return [f"{path}: expected {expected!r}, got {got!r}"]
    return []


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case: dict[str, Any]) -> None:
    got, ok = answer(case["query"])
    assert ok, got
    assert mismatches(case["expect"], got) == []


def test_all_cases_are_present() -> None:
    assert len(CASES) >= 69


@pytest.mark.parametrize(
    "case", [c for c in CASES if c["query"]["kind"] == "turn"], ids=lambda c: c["id"]
)
def test_refusals_name_a_rule_and_a_sentence(case: dict[str, Any]) -> None:
    got, _ = answer(case["query"])
    if got["legal"]:
        assert got["rule"] is None
        return
    assert isinstance(got["rule"], str) and got["rule"]
    assert not got["reason"][0].islower() and got["reason"].endswith(".")
    assert isinstance(got["allowed_under"], list)
