"""Every value of every rule key changes a ruling somewhere: one position per key, judged
under each value, with the verdict each value must give."""

from __future__ import annotations

from typing import Any

import pytest

from companion.rules import CHOICES
from companion.rules.keys import plain
from companion.rules.referee import answer

T = list[int]


def turn(
    hand: list[T],
    actions: list[dict[str, Any]],
    *,
    seat: str = "A",
    trains: dict[str, Any] | None = None,
    open_doubles: list[str] | None = None,
    first: bool = False,
    boneyard: int = 20,
    engine: int = 12,
    set_max: int = 12,
    extra_table: dict[str, Any] | None = None,
) -> dict[str, Any]:
    default_trains = {
        "A": {"tiles": [[12, 4]]},
        "B": {"tiles": [[12, 7]]},
        "C": {"tiles": [[12, 10]]},
        "D": {"tiles": [[12, 5]]},
        "mexican": {"tiles": [[12, 6]]},
    }
    table = {
        "set_max": set_max,
        "engine": engine,
        "seats": ["A", "B", "C", "D"],
        "trains": default_trains if trains is None else trains,
        "open_doubles": open_doubles or [],
        "boneyard": boneyard,
        **(extra_table or {}),
    }
    return {
        "kind": "turn",
        "table": table,
        "turn": {"seat": seat, "first_turn": first, "hand": hand},
        "actions": actions,
    }


def play(a: int, b: int, on: str) -> dict[str, Any]:
    return {"play": [a, b], "on": on}


END = {"end": True}

# Two open doubles, A's (7-7) older than the Mexican Train's (4-4).
TWO_DOUBLES = {
    "A": {"tiles": [[12, 7], [7, 7]]},
    "B": {"tiles": [[12, 3]]},
    "C": {"tiles": [[12, 10]]},
    "D": {"tiles": [[12, 5]]},
    "mexican": {"tiles": [[12, 4], [4, 4]]},
}
B_DOUBLE = {
    "A": {"tiles": [[12, 4]]},
    "B": {"tiles": [[12, 9], [9, 9]]},
    "C": {"tiles": [[12, 10]]},
    "D": {"tiles": [[12, 5]]},
    "mexican": {"tiles": [[12, 6]]},
}
# Double-6 table where every tile with a 5 is on the table: A's open 5-5 can never be covered.
DEAD = {
    "A": {"tiles": [[6, 5], [5, 5]]},
    "B": {"tiles": [[6, 4], [4, 5], [5, 0]]},
    "C": {"tiles": [[6, 1], [1, 5], [5, 2]]},
    "D": {"tiles": [[6, 0], [0, 3], [3, 5]]},
}

# (key, query without rules, {value: expected fields})
SCENARIOS: list[tuple[str, dict[str, Any], dict[Any, dict[str, Any]]]] = [
    (
        "first_turn",
        turn([[12, 5], [5, 7], [1, 2]], [play(12, 5, "A"), play(5, 7, "A")], first=True, trains={}),
        {"multi_own_train": {"legal": True}, "single_tile": {"legal": False, "step": 1}},
    ),
    (
        "first_turn_may_end_on_double",
        turn(
            [[12, 5], [5, 5], [5, 1], [2, 3]],
            [play(12, 5, "A"), play(5, 5, "A"), END],
            first=True,
            trains={},
        ),
        {
            True: {"legal": True, "after": {"open_doubles": ["A"]}},
            False: {"legal": False, "step": 2},
        },
    ),
    (
        "mexican_on_first_turn",
        turn(
            [[12, 3], [4, 10]],
            [play(4, 10, "mexican")],
            seat="B",
            first=True,
            trains={"mexican": {"tiles": [[12, 4]]}},
        ),
        {False: {"legal": False, "step": 0}, True: {"legal": True}},
    ),
    (
        "own_train_required_before_other_play",
        turn(
            [[6, 1], [11, 3]],
            [play(6, 1, "mexican")],
            trains={"B": {"tiles": [[12, 7]]}, "mexican": {"tiles": [[12, 6]]}},
        ),
        {False: {"legal": True}, True: {"legal": False, "step": 0}},
    ),
    (
        "others_may_start_unstarted_marked_train",
        turn(
            [[12, 6], [5, 2]],
            [play(12, 6, "C")],
            trains={"A": {"tiles": [[12, 5]]}, "C": {"started": False, "marker": True}},
        ),
        {True: {"legal": True}, False: {"legal": False, "step": 0}},
    ),
    (
        "double_followup",
        turn(
            [[9, 9], [9, 1], [3, 8]],
            [play(9, 9, "B"), play(3, 8, "mexican")],
            seat="B",
            trains={"B": {"tiles": [[12, 9]]}, "mexican": {"tiles": [[12, 3]]}},
        ),
        {
            "must_cover_own_if_able": {"legal": False, "step": 1},
            "anywhere": {"legal": True, "after": {"open_doubles": ["B"]}},
            "none": {"legal": False, "step": 1},
        },
    ),
    (
        "satisfy_scope",
        turn([[9, 7], [4, 1]], [play(4, 1, "A")], open_doubles=["B"], trains=B_DOUBLE),
        {
            "table": {"legal": False, "step": 0},
            "train_only": {"legal": True},
            "none": {"legal": True},
        },
    ),
    (
        "satisfy_scope",
        turn([[9, 7], [2, 11]], [play(9, 7, "B")], seat="C", open_doubles=["B"], trains=B_DOUBLE),
        {
            "table": {"legal": True},
            "train_only": {"legal": True},
            "none": {"legal": False, "step": 0},
        },
    ),
    (
        "doubles_per_turn",
        {
            **turn(
                [[9, 9], [6, 6], [6, 1]],
                [play(9, 9, "B"), play(6, 6, "mexican")],
                seat="B",
                trains={"B": {"tiles": [[12, 9]]}, "mexican": {"tiles": [[12, 6]]}},
            ),
            "rules": {"preset": "standard", "double_followup": "anywhere"},
        },
        {
            "unlimited": {"legal": True, "after": {"open_doubles": ["B", "mexican"]}},
            1: {"legal": False, "step": 1},
        },
    ),
    (
        "satisfy_order",
        turn(
            [[4, 1], [10, 2]],
            [play(4, 1, "mexican")],
            seat="B",
            trains=TWO_DOUBLES,
            open_doubles=["A", "mexican"],
            engine=12,
        ),
        {
            "oldest_first": {"legal": False, "step": 0},
            "newest_first": {"legal": True},
            "any": {"legal": True},
        },
    ),
    (
        "satisfy_order",
        turn(
            [[7, 1], [10, 2]],
            [play(7, 1, "A")],
            seat="B",
            trains=TWO_DOUBLES,
            open_doubles=["A", "mexican"],
        ),
        {
            "oldest_first": {"legal": True},
            "newest_first": {"legal": False, "step": 0},
            "any": {"legal": True},
        },
    ),
    (
        "draw_rule",
        turn([[11, 3], [9, 9]], [{"draw": [1, 1]}, {"draw": [2, 8]}]),
        {
            "one_then_pass": {"legal": False, "step": 1},
            "until_playable": {"legal": True, "after": {"boneyard": 18}},
        },
    ),
    (
        "draw_rule",
        turn([[11, 3], [9, 9]], [{"draw": [1, 1]}, END]),
        {
            "one_then_pass": {"legal": True, "after": {"trains": {"A": {"marker": True}}}},
            "until_playable": {"legal": False, "step": 1},
        },
    ),
    (
        "must_play_if_able",
        turn([[11, 3], [9, 9]], [{"draw": [4, 11]}, END]),
        {True: {"legal": False, "step": 1}, False: {"legal": True}},
    ),
    (
        "must_play_if_able",
        turn([[4, 3], [9, 9]], [{"draw": [1, 1]}]),
        {True: {"legal": False, "step": 0}, False: {"legal": True}},
    ),
    (
        "marker_removal",
        turn(
            [[6, 1], [11, 3]],
            [play(6, 1, "mexican"), {"remove_marker": True}],
            trains={"A": {"tiles": [[12, 4]], "marker": True}, "mexican": {"tiles": [[12, 6]]}},
        ),
        {
            "auto_on_own_train_play": {"legal": False, "step": 1},
            "owner_choice_after_any_play": {
                "legal": True,
                "after": {"trains": {"A": {"marker": False}}},
            },
        },
    ),
    (
        "marker_removal",
        turn(
            [[4, 1], [11, 3]], [play(4, 1, "A")], trains={"A": {"tiles": [[12, 4]], "marker": True}}
        ),
        {
            "auto_on_own_train_play": {
                "legal": True,
                "after": {"trains": {"A": {"marker": False}}},
            },
            "owner_choice_after_any_play": {
                "legal": True,
                "after": {"trains": {"A": {"marker": False}}},
            },
        },
    ),
    (
        "go_out_on_double",
        turn([[4, 4]], [play(4, 4, "A")]),
        {
            "allowed": {"legal": True, "after": {"round_over": True}},
            "allowed_opponents_x2": {"legal": True, "after": {"round_over": True}},
            "must_be_covered": {"legal": True, "after": {"round_over": False, "turn_over": False}},
        },
    ),
    (
        "first_turn_out",
        turn(
            [[12, 5], [5, 7]],
            [play(12, 5, "A"), play(5, 7, "A")],
            first=True,
            trains={},
            extra_table={"first_turns_left": ["A", "B", "C", "D"]},
        ),
        {
            "others_finish_first_turn": {"legal": True, "after": {"round_over": False}},
            "round_ends": {"legal": True, "after": {"round_over": True}},
        },
    ),
    (
        "blanks_wild",
        turn([[0, 7], [11, 6]], [play(0, 7, "A")], trains={"A": {"tiles": [[12, 5]]}}),
        {
            False: {"legal": False, "step": 0},
            True: {"legal": True, "after": {"trains": {"A": {"end": 7}}}},
        },
    ),
    (
        "dead_double",
        turn(
            [[2, 1], [3, 3]],
            [play(2, 1, "C")],
            seat="C",
            trains=DEAD,
            open_doubles=["A"],
            engine=6,
            set_max=6,
        ),
        {"frees_play": {"legal": True}, "blocks_play": {"legal": False, "step": 0}},
    ),
    (
        "double_branches",
        turn([[9, 7], [2, 11]], [play(9, 7, "B")], seat="C", open_doubles=["B"], trains=B_DOUBLE),
        {
            1: {"legal": True, "after": {"open_doubles": []}},
            2: {"legal": True, "after": {"open_doubles": ["B"]}},
            3: {"legal": True, "after": {"open_doubles": ["B"]}},
        },
    ),
    (
        "double_branches",
        turn(
            [[9, 7], [9, 3], [7, 5]],
            [play(9, 7, "B"), play(9, 3, "B")],
            seat="B",
            open_doubles=["B"],
            trains=B_DOUBLE,
        ),
        {
            1: {"legal": False, "step": 1},
            2: {"legal": False, "step": 1},
            3: {"legal": False, "step": 1},
        },
    ),
    (
        "mexican_trains",
        turn([[12, 9], [4, 1]], [play(12, 9, "mexican2")]),
        {
            1: {"legal": False, "step": 0},
            2: {"legal": True, "after": {"trains": {"mexican2": {"end": 9}}}},
        },
    ),
    (
        "blocked_definition",
        {
            "kind": "round_status",
            "table": {
                "set_max": 12,
                "engine": 12,
                "seats": ["A", "B", "C", "D"],
                "trains": {
                    "A": {"tiles": [[12, 6]], "marker": True},
                    "B": {"tiles": [[12, 7]], "marker": True},
                    "C": {"tiles": [[12, 9]], "marker": True},
                    "D": {"tiles": [[12, 10], [10, 4]], "marker": True},
                },
                "boneyard": 0,
            },
            "hands": {"A": [[4, 1]], "B": [[0, 2]], "C": [[5, 0]], "D": [[8, 3]]},
            "passes_in_a_row": 4,
            "next_seat": "A",
        },
        {"no_legal_move_anywhere": {"over": False}, "full_lap_of_passes": {"over": True}},
    ),
    (
        "blocked_definition",
        {
            "kind": "round_status",
            "table": {
                "set_max": 12,
                "engine": 12,
                "seats": ["A", "B", "C", "D"],
                "trains": {
                    "A": {"tiles": [[12, 6]]},
                    "B": {"tiles": [[12, 7]]},
                    "C": {"tiles": [[12, 9]]},
                    "D": {"tiles": [[12, 10]]},
                    "mexican": {"tiles": [[12, 11]]},
                },
                "boneyard": 0,
            },
            "hands": {"A": [[4, 1]], "B": [[0, 2]], "C": [[5, 0]], "D": [[8, 3]]},
            "passes_in_a_row": 1,
            "next_seat": "B",
        },
        {"no_legal_move_anywhere": {"over": True}, "full_lap_of_passes": {"over": False}},
    ),
    (
        "blank_scoring",
        {"kind": "score", "hand": [[0, 0], [0, 5], [6, 6]]},
        {
            "pips": {"points": 17},
            "double_blank_50": {"points": 67},
            "double_blank_25": {"points": 42},
            "blank_25_double_blank_50": {"points": 92},
        },
    ),
    (
        "blocked_scoring",
        {"kind": "score", "hand": [[3, 1]], "round_end": "blocked", "lowest": True},
        {"pips": {"points": 4}, "lowest_to_zero": {"points": 0}},
    ),
    (
        "go_out_on_double",
        {"kind": "score", "hand": [[3, 1]], "round_end": "went_out_on_double"},
        {
            "allowed": {"points": 4},
            "must_be_covered": {"points": 4},
            "allowed_opponents_x2": {"points": 8},
        },
    ),
    (
        "last_tile_call",
        {"kind": "last_tile_call", "boneyard": 1},
        {
            "none": {"draw": 0, "skip_turn": False},
            "draw1": {"draw": 1, "skip_turn": False},
            "draw2": {"draw": 1, "skip_turn": False},
            "draw2_and_skip": {"draw": 1, "skip_turn": True},
        },
    ),
    (
        "engine_source",
        {"kind": "setup", "players": 4},
        {
            "set_aside": {"boneyard": 30},
            "holder_plays_draw_all": {"boneyard": 31},
            "holder_plays_draw_in_turn": {"boneyard": 31},
            "next_highest_double": {"boneyard": 31},
        },
    ),
    (
        "round_leader",
        {"kind": "setup", "players": 3},
        {
            "rotate_left": {"leaders": [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0]},
            "engine_holder": {"leaders": [None] * 13},
        },
    ),
    (
        "set_max",
        {"kind": "setup", "players": 4},
        {
            6: {"set_tiles": 28, "rounds": 7},
            9: {"set_tiles": 55, "rounds": 10},
            12: {"set_tiles": 91, "rounds": 13},
            15: {"set_tiles": 136, "rounds": 16},
            18: {
                "error": "rules.hand_size: the celko table has no entry for 4 players with a "
                'double-18 set; give an explicit table such as {"4": 10}'
            },
        },
    ),
]


def _cases() -> list[Any]:
    params = []
    for number, (key, query, outcomes) in enumerate(SCENARIOS):
        for value, expected in outcomes.items():
            params.append(pytest.param(key, value, query, expected, id=f"{key}-{number}-{value}"))
    return params


def _subset(expected: Any, got: Any) -> bool:
    if isinstance(expected, dict):
        return isinstance(got, dict) and all(
            k in got and _subset(v, got[k]) for k, v in expected.items()
        )
    return bool(expected == got and type(expected) is type(got))


@pytest.mark.parametrize(("key", "value", "query", "expected"), _cases())
def test_value_gives_its_ruling(
    key: str, value: Any, query: dict[str, Any], expected: dict[str, Any]
) -> None:
    base = query.get("rules", {"preset": "standard"})
    got, _ = answer({**query, "rules": {**base, key: value}})
    assert _subset(expected, got), got


def test_every_enumerable_value_is_covered() -> None:
    covered: dict[str, set[str]] = {}
    for key, _, outcomes in SCENARIOS:
        covered.setdefault(key, set()).update(repr(v) for v in outcomes)
    for key, choices in CHOICES.items():
        if choices is None:
            continue
        assert covered.get(key, set()) >= {repr(plain(c)) for c in choices}, key


def test_each_key_has_a_discriminating_scenario() -> None:
    """Some position must be ruled differently by different values of every key."""
    discriminating = {
        key
        for key, _, outcomes in SCENARIOS
        if len({repr(sorted(v.items(), key=str)) for v in outcomes.values()}) > 1
    }
    assert discriminating == {key for key, _, _ in SCENARIOS}


@pytest.mark.parametrize(
    ("key", "query", "refused_value", "expected_alternatives"),
    [
        ("double_followup", SCENARIOS[5][1], "must_cover_own_if_able", ["anywhere"]),
        ("satisfy_order", SCENARIOS[9][1], "oldest_first", ["newest_first", "any"]),
        ("mexican_trains", SCENARIOS[23][1], 1, [2]),
    ],
)
def test_allowed_under_lists_the_values_that_permit_the_move(
    key: str, query: dict[str, Any], refused_value: Any, expected_alternatives: list[Any]
) -> None:
    got, _ = answer({**query, "rules": {"preset": "standard", key: refused_value}})
    assert got["legal"] is False and got["rule"] == key
    assert got["allowed_under"] == expected_alternatives
