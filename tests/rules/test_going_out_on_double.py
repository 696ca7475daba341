"""Going out on a double under ``must_be_covered``, passes, first turns and ``table.out``.

- A player out on a double nobody can ever cover (boneyard empty, no hand holds a tile that
  fits it) ends the round blocked; under ``full_lap_of_passes`` a full lap of passes does.
  The engine's own play and ``round_status`` agree on it.
- ``table.out`` (a project extension, docs/rules.md) says which players are already out.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.rules import END, EndReason, Play, Rules, State, Tile, legality
from companion.rules.actions import End
from companion.rules.referee import answer, round_status_query
from companion.rules.simulate import play_round, random_players, random_rules

T = list[int]
MUST = {"preset": "standard", "go_out_on_double": "must_be_covered"}
LAP = {**MUST, "blocked_definition": "full_lap_of_passes"}
END_TURN = {"end": True}


def play(a: int, b: int, on: str) -> dict[str, Any]:
    return {"play": [a, b], "on": on}


def ask(query: dict[str, Any]) -> dict[str, Any]:
    got, ok = answer(query)
    assert ok, got
    return got


def a_out_table(**extra: Any) -> dict[str, Any]:
    """A went out on 4-4 on their own train; the boneyard is empty."""
    return {
        "set_max": 12,
        "engine": 12,
        "seats": ["A", "B", "C", "D"],
        "trains": {
            "A": {"tiles": [[12, 4], [4, 4]], "marker": True},
            "B": {"tiles": [[12, 7]]},
            "C": {"tiles": [[12, 10]]},
            "D": {"tiles": [[12, 5]]},
            "mexican": {"tiles": [[12, 6]]},
        },
        "open_doubles": ["A"],
        "boneyard": 0,
        **extra,
    }


def status(
    hands: dict[str, list[T]],
    rules: dict[str, Any] = MUST,
    passes: int = 0,
    table: dict[str, Any] | None = None,
    next_seat: str = "B",
) -> dict[str, Any]:
    return ask(
        {
            "kind": "round_status",
            "rules": rules,
            "table": table or a_out_table(),
            "hands": hands,
            "passes_in_a_row": passes,
            "next_seat": next_seat,
        }
    )


NO_FOUR = {"A": [], "B": [[1, 2]], "C": [[3, 5]], "D": [[8, 9]]}
C_HOLDS_A_FOUR = {"A": [], "B": [[1, 2]], "C": [[3, 4]], "D": [[8, 9]]}


# -- round_status ------------------------------------------------------------------------------


def test_round_is_blocked_when_nobody_can_cover_the_going_out_double() -> None:
    got = status(NO_FOUR)  # answered "not over" for ever before the fix
    assert got["over"] is True and got["rule"] == "go_out_on_double"
    assert "blocked" in got["reason"]


def test_round_goes_on_while_someone_holds_the_cover() -> None:
    got = status(C_HOLDS_A_FOUR)
    assert got["over"] is False and got["rule"] == "go_out_on_double"


def test_blocked_even_when_others_could_still_play_elsewhere() -> None:
    # Under train_only B may still play 7-3 on their own train, but no one can cover 4-4.
    hands = {"A": [], "B": [[7, 3]], "C": [[3, 5]], "D": [[8, 9]]}
    got = status(hands, {**MUST, "satisfy_scope": "train_only"})
    assert got["over"] is True and got["rule"] == "go_out_on_double"


def test_not_blocked_while_the_boneyard_has_tiles() -> None:
    table = a_out_table(boneyard=3)
    assert status(NO_FOUR, table=table)["over"] is False


def test_full_lap_of_passes_ends_it_and_the_double_is_not_a_pass() -> None:
    # A's turn laid the double, so only B, C and D have passed: the lap is not complete.
    assert status(C_HOLDS_A_FOUR, LAP, passes=3, next_seat="A")["over"] is False
    got = status(C_HOLDS_A_FOUR, LAP, passes=4)
    assert got["over"] is True and got["rule"] == "blocked_definition"


def test_going_out_on_a_double_under_allowed_still_ends_the_round() -> None:
    got = status(C_HOLDS_A_FOUR, {"preset": "standard"})
    assert got["over"] is True and got["rule"] == "went_out"


# -- turn ----------------------------------------------------------------------------------


# Double-6 table on which every tile with a 5 except 5-5 is already laid: 5-5 is dead.
DEAD_FIVES = {
    "A": {"tiles": [[6, 5]]},
    "B": {"tiles": [[6, 4], [4, 5], [5, 0]]},
    "C": {"tiles": [[6, 1], [1, 5], [5, 2]]},
    "D": {"tiles": [[6, 0], [0, 3], [3, 5]]},
}


def test_going_out_on_a_dead_double_with_an_empty_boneyard_ends_the_round() -> None:
    table = {
        "set_max": 6,
        "engine": 6,
        "seats": ["A", "B", "C", "D"],
        "trains": DEAD_FIVES,
        "boneyard": 0,
    }
    query = {
        "kind": "turn",
        "rules": MUST,
        "table": table,
        "turn": {"seat": "A", "first_turn": False, "hand": [[5, 5]]},
        "actions": [play(5, 5, "A"), END_TURN],
    }
    got = ask(query)
    assert got["legal"] is True and got["after"]["round_over"] is True
    query["table"] = {**table, "boneyard": 2}
    query["actions"] = [play(5, 5, "A"), {"draw": [2, 2]}, END_TURN]
    assert ask(query)["after"]["round_over"] is False


def test_pass_after_someone_went_out_on_a_dead_double_ends_the_round() -> None:
    trains = {**DEAD_FIVES, "A": {"tiles": [[6, 5], [5, 5]]}}
    table = {
        "set_max": 6,
        "engine": 6,
        "seats": ["A", "B", "C", "D"],
        "trains": trains,
        "open_doubles": ["A"],
        "boneyard": 0,
        "out": ["A"],
    }
    query = {
        "kind": "turn",
        "rules": {**MUST, "dead_double": "blocks_play"},
        "table": table,
        "turn": {"seat": "B", "first_turn": False, "hand": [[2, 2]]},
        "actions": [{"play": [2, 2], "on": "B"}],
    }
    got = ask(query)  # the round was already over: nobody can ever cover 5-5
    assert (got["legal"], got["rule"]) == (False, "round_over")


def test_covering_the_double_of_a_player_who_is_out_ends_the_round() -> None:
    table = a_out_table(boneyard=5, out=["A"])
    query = {
        "kind": "turn",
        "rules": MUST,
        "table": table,
        "turn": {"seat": "B", "first_turn": False, "hand": [[4, 1], [7, 3]]},
        "actions": [play(4, 1, "A"), play(7, 3, "B")],
    }
    got = ask(query)
    assert (got["legal"], got["step"], got["rule"]) == (False, 1, "round_over")
    assert got["after"]["round_over"] is True and got["after"]["open_doubles"] == []
    query["actions"] = [play(4, 1, "A"), END_TURN]
    assert ask(query)["after"]["round_over"] is True
    # Without table.out nobody is known to be out: covering is an ordinary play.
    del table["out"]
    assert ask(query)["after"]["round_over"] is False


def test_passing_past_an_open_going_out_double_with_unknown_hands_is_not_an_end() -> None:
    query = {
        "kind": "turn",
        "rules": MUST,
        "table": a_out_table(out=["A"]),
        "turn": {"seat": "B", "first_turn": False, "hand": [[2, 1]]},
        "actions": [END_TURN],
    }
    got = ask(query)  # C or D may hold a 4
    assert got["legal"] is True and got["after"]["round_over"] is False


def first_turn_query(seat: str, left: list[str], rules: dict[str, Any]) -> dict[str, Any]:
    """A went out on their first turn; ``seat`` now takes their own first turn."""
    trains: dict[str, Any] = {"A": {"tiles": [[12, 3], [3, 1]]}}
    for other in ("B", "C"):
        if other not in left:
            trains[other] = {"tiles": [[12, 8]] if other == "B" else [[12, 9]]}
    return {
        "kind": "turn",
        "rules": rules,
        "table": {
            "set_max": 12,
            "engine": 12,
            "seats": ["A", "B", "C"],
            "trains": trains,
            "boneyard": 20,
            "first_turns_left": left,
            "out": ["A"],
        },
        "turn": {"seat": seat, "first_turn": True, "hand": [[12, 5], [5, 6], [0, 0]]},
        "actions": [play(12, 5, seat), play(5, 6, seat), END_TURN],
    }


def test_others_finish_their_first_turn_after_someone_went_out() -> None:
    rules = {"preset": "standard", "first_turn_out": "others_finish_first_turn"}
    got = ask(first_turn_query("B", ["B", "C"], rules))
    assert got["legal"] is True and got["after"]["round_over"] is False
    got = ask(first_turn_query("C", ["C"], rules))
    assert got["legal"] is True and got["after"]["round_over"] is True


def test_round_ends_at_once_means_no_more_first_turns() -> None:
    got = ask(
        first_turn_query("B", ["B", "C"], {"preset": "standard", "first_turn_out": "round_ends"})
    )
    assert (got["legal"], got["step"], got["rule"]) == (False, 0, "round_over")


def test_without_first_turns_left_unstarted_unmarked_trains_are_owed_a_first_turn() -> None:
    def going_out(trains: dict[str, Any]) -> dict[str, Any]:
        return {
            "kind": "turn",
            "rules": {"preset": "standard"},
            "table": {
                "set_max": 12,
                "engine": 12,
                "seats": ["A", "B", "C"],
                "trains": trains,
                "boneyard": 20,
            },
            "turn": {"seat": "A", "first_turn": True, "hand": [[12, 5], [5, 6]]},
            "actions": [play(12, 5, "A"), play(5, 6, "A")],
        }

    # B's train is unstarted and unmarked: B has not had a first turn, so the round goes on.
    waiting = going_out({"C": {"tiles": [[12, 9]]}})
    assert ask(waiting)["after"]["round_over"] is False
    # B's marker shows B has had a turn (and failed); nobody is owed one: the round ends.
    done = going_out({"B": {"started": False, "marker": True}, "C": {"tiles": [[12, 9]]}})
    assert ask(done)["after"]["round_over"] is True


@pytest.mark.parametrize(
    ("kind", "out", "seat", "message"),
    [
        ("turn", ["Z"], "B", 'table.out[0]: "Z" is not one of table.seats'),
        ("turn", ["A", 3], "B", "table.out[1]: 3 is not one of table.seats"),
        ("turn", ["A", "A"], "B", "table.out[1]: A is listed twice"),
        ("turn", ["A"], "A", "turn.seat: A is listed in table.out[0]"),
        ("turn", "A", "B", "table.out: expected a list"),
        ("round_status", ["B"], "B", "table.out[0]: B is out but still holds tiles"),
    ],
)
def test_table_out_is_validated(kind: str, out: Any, seat: str, message: str) -> None:
    table = a_out_table(out=out)
    if kind == "turn":
        query: dict[str, Any] = {
            "kind": "turn",
            "rules": MUST,
            "table": table,
            "turn": {"seat": seat, "first_turn": False, "hand": [[4, 1]]},
            "actions": [END_TURN],
        }
    else:
        query = {"kind": "round_status", "rules": MUST, "table": table, "hands": NO_FOUR}
    got, ok = answer(query)
    assert not ok and got["error"].startswith(message), got


def test_an_out_seat_cannot_still_be_owed_a_first_turn() -> None:
    table = a_out_table(out=["A"], first_turns_left=["A", "B"])
    got, ok = answer({"kind": "round_status", "rules": MUST, "table": table, "hands": NO_FOUR})
    assert not ok and got["error"].startswith("table.out[0]: A is out")


# -- the engine's own play -------------------------------------------------------------------


def out_on_double_state(**rules: Any) -> State:
    """Two seats: A holds only 4-4 (on A's train end 4), B holds 7-3 and 2-1; no boneyard."""
    state = State(
        Rules.from_json({**MUST, **rules}),
        ["A", "B"],
        12,
        [[Tile(4, 4)], [Tile(7, 3), Tile(2, 1)]],
        boneyard=[],
    )
    state.place(0, [Tile(12, 4)])
    state.place(1, [Tile(12, 7)])
    state.first_turn_left = [False, False]
    return state


@pytest.mark.parametrize("scope", ["table", "train_only"])
def test_engine_blocks_the_round_after_an_uncoverable_going_out_double(scope: str) -> None:
    state = out_on_double_state(satisfy_scope=scope)
    state.begin_turn(0, first_turn=False)
    state.push_checked(Play(Tile(4, 4), 0))
    assert state.outcome is None
    state.push_checked(END)
    assert state.outcome is not None
    assert (state.outcome.reason, state.outcome.rule) == (EndReason.BLOCKED, "go_out_on_double")
    assert [s.points for s in state.scores()] == [0, 13]


def test_engine_counts_a_failed_double_turn_as_play_not_a_pass() -> None:
    state = out_on_double_state(blocked_definition="full_lap_of_passes")
    state.begin_turn(0, first_turn=False)
    state.push_checked(Play(Tile(4, 4), 0))
    state.push_checked(END)
    assert state.passes_in_a_row == 0 and state.outcome is None
    state.push_checked(END)  # B cannot cover 4-4 and passes
    assert state.passes_in_a_row == 1 and state.outcome is None


def test_engine_full_lap_after_going_out_on_a_double() -> None:
    rules = {"blocked_definition": "full_lap_of_passes"}
    state = State(
        Rules.from_json({**MUST, **rules}),
        ["A", "B"],
        12,
        [[Tile(4, 4)], [Tile(2, 1)]],
        boneyard=[],
    )
    state.place(0, [Tile(12, 4)])
    state.first_turn_left = [False, False]
    state.begin_turn(0, first_turn=False)
    state.push_checked(Play(Tile(4, 4), 0))
    state.push_checked(END)
    state.push_checked(END)  # B passes: 1
    assert state.outcome is None and state.turn == 0
    state.push_checked(END)  # A, out of tiles, passes: a full lap
    assert state.outcome is not None and state.outcome.reason is EndReason.BLOCKED


def test_self_play_blocks_rounds_on_uncoverable_going_out_doubles() -> None:
    """Self-play under ``must_be_covered`` (its invariants include "no round goes on once a
    going-out double can never be covered"), and the ending is actually reached."""
    endings = 0
    for scope in ("table", "train_only", "none"):
        rules = Rules.from_json({**MUST, "set_max": 6, "satisfy_scope": scope})
        rng = random.Random(scope)
        for _ in range(60):
            result = play_round(rules, 4, rng.randrange(7), rng)
            assert result.failures == []
        for seed in range(60):
            rng = random.Random(seed)
            state = State.deal(rules, 4, rng.randrange(7), rng)
            while state.outcome is None:
                state.apply(rng.choice(legality.legal_actions(state)))
            if state.outcome.rule == "go_out_on_double" and state.outcome.reason.value == "blocked":
                endings += 1
    assert endings > 0


def test_round_status_agrees_with_self_play_after_every_turn() -> None:
    """Between turns, round_status on the position says over exactly when the engine does.
    (The rules are fixed where a position alone cannot tell which double an out player
    went out on: see docs/rules.md, "Extensions to the contract".)"""
    checked = 0
    for seed in range(80):
        rng = random.Random(seed)
        rules = random_rules(rng).replace(
            go_out_on_double="must_be_covered" if seed % 2 else "allowed",
            satisfy_scope="table",
            dead_double="blocks_play",
            double_branches=1,
            double_followup="must_cover_own_if_able",
            blanks_wild=False,
        )
        players = random_players(rules, rng)
        state = State.deal(rules, players, rng.randrange(rules.set_max + 1), rng)
        while state.outcome is None:
            action = rng.choice(legality.legal_actions(state))
            state.apply(action)
            if type(action) is End or state.outcome is not None:
                got = ask(round_status_query(state))
                assert got["over"] is state.is_over(), (seed, got, state)
                checked += 1
    assert checked > 500
