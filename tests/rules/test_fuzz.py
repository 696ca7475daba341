"""Damaged queries get a clear error naming a field, never an internal failure."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.referee import answer

CASES_FILE = Path(__file__).parent / "data" / "cases.jsonl"
QUERIES = [
    json.loads(line)["query"] for line in CASES_FILE.read_text().splitlines() if line.strip()
]

junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 40),
    st.text(max_size=5),
    st.lists(st.integers(-1, 20), max_size=3),
    st.lists(st.lists(st.integers(-1, 20), max_size=3), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(0, 5), max_size=2),
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    paths = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            paths.extend(_paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            paths.extend(_paths(item, (*prefix, index)))
    return paths


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9), replacement=junk, delete=st.booleans())
def test_damaged_query_is_answered_or_named(seed: int, replacement: Any, delete: bool) -> None:
    rng = random.Random(seed)
    query = copy.deepcopy(rng.choice(QUERIES))
    path = rng.choice(_paths(query)[1:])
    parent = query
    for step in path[:-1]:
        parent = parent[step]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = replacement
    got, ok = answer(query)
    if ok:
        assert "error" not in got
    else:
        assert set(got) == {"error"}
        assert not got["error"].startswith("could not judge"), got["error"]
        assert ":" in got["error"]
