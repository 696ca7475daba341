"""The round model as a library: legal-action view, checked and unchecked moves, undo,
outcomes, explanations, and referee details (unknown draws, earlier plays, no-ops)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion import rules_compiled
from companion.rules import (
    END,
    MEXICAN,
    MEXICAN2,
    Draw,
    EndReason,
    IllegalActionError,
    Play,
    RemoveMarker,
    Rules,
    State,
    Tile,
    answer,
    explain,
)
from companion.rules import state as state_module


def fixed_state(**overrides: Any) -> State:
    """Seats A and B, engine 12; A holds 12-5, 5-3 and 9-9; B holds 12-1 and 4-4."""
    rules = Rules.from_json({"preset": "standard", **overrides})
    hands = [[Tile(12, 5), Tile(5, 3), Tile(9, 9)], [Tile(12, 1), Tile(4, 4)]]
    boneyard = [Tile(2, 0), Tile(7, 7), Tile(6, 1)]
    return State(rules, ["A", "B"], 12, hands, boneyard=boneyard)


class TestLegalActions:
    def test_first_turn_starts_own_train_only(self) -> None:
        state = fixed_state()
        assert list(state.legal_actions) == [Play(Tile(12, 5), 0)]
        assert Play(Tile(12, 5), MEXICAN) not in state.legal_actions
        assert state.legal_actions.count() == 1 and bool(state.legal_actions)

    def test_multi_tile_first_turn_then_end(self) -> None:
        state = fixed_state()
        state.push_checked(Play(Tile(12, 5), 0))
        assert set(state.legal_actions) == {Play(Tile(5, 3), 0), END}
        state.push_checked(Play(Tile(5, 3), 0))
        state.push_checked(END)
        assert state.turn == 1 and state.open_end(0) == 3

    def test_checked_push_names_rule_and_reason(self) -> None:
        state = fixed_state()
        with pytest.raises(IllegalActionError) as caught:
            state.push_checked(Play(Tile(12, 5), MEXICAN))
        assert caught.value.rule == "mexican_on_first_turn"
        assert "Mexican Train" in caught.value.reason
        assert isinstance(caught.value, ValueError)

    def test_second_mexican_train_is_a_rule_not_a_crash(self) -> None:
        state = fixed_state()
        assert explain(state, Play(Tile(12, 5), MEXICAN2)).rule == "mexican_trains"

    def test_draw_refused_while_a_play_exists(self) -> None:
        state = fixed_state()
        ruling = explain(state, Draw())
        assert (ruling.legal, ruling.rule) == (False, "must_play_if_able")
        assert ruling.allowed_under == (False,)

    def test_pass_puts_marker_up(self) -> None:
        state = fixed_state()
        state.apply(Play(Tile(12, 5), 0))
        state.apply(END)
        # B holds 12-1 and 4-4: starts with 12-1 as a one-tile first turn.
        state.apply(Play(Tile(12, 1), 1))
        state.apply(END)
        # A: 5-3 fits own train.
        state.apply(Play(Tile(5, 3), 0))
        state.apply(END)
        # B: 4-4 fits nothing; must draw, then pass with the marker up.
        assert list(state.legal_actions) == [Draw()]
        state.apply(Draw())  # draws 6-1
        assert state.drawn == Tile(6, 1)
        state.apply(END)
        assert state.markers[1] and state.turn == 0


class TestUndo:
    def test_pop_restores(self) -> None:
        state = fixed_state()
        before = state._snapshot()
        state.push(Play(Tile(12, 5), 0))
        state.push(END)
        state.pop()
        state.pop()
        assert state._snapshot() == before


class TestOutcome:
    def test_going_out_ends_the_round_with_data(self) -> None:
        rules = Rules.from_json({"preset": "standard", "first_turn_out": "round_ends"})
        state = State(rules, ["A", "B"], 12, [[Tile(12, 5)], [Tile(1, 1)]], boneyard=[])
        state.push_checked(Play(Tile(12, 5), 0))
        assert state.outcome is not None
        assert state.outcome.reason is EndReason.WENT_OUT
        assert state.outcome.out_seats == (0,)
        assert [s.points for s in state.scores()] == [0, 2]
        assert list(state.legal_actions) == []

    def test_others_finish_their_first_turn(self) -> None:
        state = State(
            Rules.from_json({}),
            ["A", "B"],
            12,
            [[Tile(12, 5)], [Tile(12, 1), Tile(1, 3)]],
            boneyard=[],
        )
        state.apply(Play(Tile(12, 5), 0))
        assert state.outcome is None and state.turn_over
        state.apply(END)
        state.apply(Play(Tile(12, 1), 1))
        state.apply(Play(Tile(1, 3), 1))
        assert state.outcome is not None and state.outcome.out_seats == (0, 1)

    def test_blocked_round(self) -> None:
        state = State(
            Rules.from_json({}), ["A", "B"], 12, [[Tile(1, 2)], [Tile(3, 4)]], boneyard=[]
        )
        state.start_with_end(0, 6)
        state.start_with_end(1, 7)
        state.begin_turn(0, first_turn=False)
        state.first_turn_left = [False, False]
        state.push_checked(END)
        assert state.outcome is not None and state.outcome.reason is EndReason.BLOCKED
        assert state.markers[:2] == [True, False]


def turn(
    rules: dict[str, Any], hand: list[list[int]], actions: list[dict[str, Any]], **turn_extra: Any
) -> dict[str, Any]:
    return {
        "kind": "turn",
        "rules": {"preset": "standard", **rules},
        "table": {
            "set_max": 12,
            "engine": 12,
            "seats": ["A", "B", "C"],
            "trains": {"A": {"end": 4}, "B": {"end": 7}, "C": {"end": 10}, "mexican": {"end": 6}},
            "boneyard": 10,
        },
        "turn": {"seat": "A", "first_turn": False, "hand": hand, **turn_extra},
        "actions": actions,
    }


class TestRefereeDetails:
    def test_unknown_draw_then_playing_the_drawn_tile(self) -> None:
        got, ok = answer(turn({}, [[11, 3]], [{"draw": None}, {"play": [6, 2], "on": "mexican"}]))
        assert ok and got["legal"] is True and got["after"]["trains"]["mexican"]["end"] == 2

    def test_unknown_draw_then_pass(self) -> None:
        got, _ = answer(turn({}, [[11, 3]], [{"draw": None}, {"end": True}]))
        assert got["legal"] is True and got["after"]["trains"]["A"]["marker"] is True

    def test_drawing_a_tile_already_held_is_refused(self) -> None:
        got, _ = answer(turn({}, [[11, 3]], [{"draw": [11, 3]}]))
        assert got["legal"] is False and got["rule"] == "tile_accounting"

    def test_end_after_turn_ending_play_changes_nothing(self) -> None:
        got, _ = answer(
            turn({}, [[4, 1], [9, 9]], [{"play": [4, 1], "on": "A"}, {"end": True}, {"end": True}])
        )
        assert got["legal"] is True and got["after"]["turn_over"] is True

    def test_play_after_turn_ending_play(self) -> None:
        got, _ = answer(
            turn({}, [[4, 1], [1, 9]], [{"play": [4, 1], "on": "A"}, {"play": [1, 9], "on": "A"}])
        )
        assert (got["legal"], got["step"], got["rule"]) == (False, 1, "one_tile_per_turn")

    def test_earlier_plays_in_the_turn(self) -> None:
        query = turn(
            {"double_followup": "must_cover_own_if_able"},
            [[4, 4], [4, 1], [6, 2]],
            [{"play": [6, 2], "on": "mexican"}],
            played=[{"play": [4, 4], "on": "A"}],
        )
        got, _ = answer(query)
        assert (got["legal"], got["step"], got["rule"]) == (False, 0, "double_followup")

    def test_remove_marker_after_own_play_is_a_no_op(self) -> None:
        query = turn({}, [[4, 1], [9, 9]], [{"play": [4, 1], "on": "A"}, {"remove_marker": True}])
        query["table"]["trains"]["A"]["marker"] = True
        got, _ = answer(query)
        assert got["legal"] is True and got["after"]["trains"]["A"]["marker"] is False

    def test_reason_names_seat_and_tiles(self) -> None:
        query = turn({}, [[9, 7], [4, 1]], [{"play": [4, 1], "on": "A"}])
        query["table"]["trains"]["B"] = {"tiles": [[12, 9], [9, 9]]}
        query["table"]["open_doubles"] = ["B"]
        got, _ = answer(query)
        assert got["reason"] == (
            "An open double on B's train (9-9) must be covered before anything else is played."
        )


def test_with_rules_copies_without_touching_the_original() -> None:
    state = State.deal(Rules.from_json({}), 4, 12, random.Random(4))
    other = state.with_rules(Rules.from_json({"blanks_wild": True}))
    other.apply(next(iter(other.legal_actions)))
    assert state.played == 0 and not state.rules.blanks_wild


def test_a_copy_takes_over_every_attribute() -> None:
    """Copies list a State's attributes by name (a compiled class has no ``__dict__``): one
    added to State but not to that list would reset in every copy."""
    state = State.deal(Rules.from_json({}), 4, 12, random.Random(4))
    if rules_compiled():
        pytest.skip("the compiled State has fixed slots; make test checks the plain one")
    state.apply(next(iter(state.legal_actions)))
    assert set(vars(state)) == set(state_module._FIELDS)
    copied = state.copy()
    assert {name: getattr(copied, name) for name in vars(state) if name != "_stack"} == {
        name: value for name, value in vars(state).items() if name != "_stack"
    }


def test_remove_marker_under_owner_choice() -> None:
    rules = Rules.from_json({"marker_removal": "owner_choice_after_any_play"})
    state = State(rules, ["A", "B"], 12, [[Tile(6, 1), Tile(3, 3)], [Tile(1, 1)]], boneyard=[])
    state.start_with_end(0, 4)
    state.start_with_end(MEXICAN, 6)
    state.markers[0] = True
    state.first_turn_left = [False, False]
    state.begin_turn(0, first_turn=False)
    assert RemoveMarker() not in state.legal_actions
    state.push_checked(Play(Tile(6, 1), MEXICAN))
    assert RemoveMarker() in state.legal_actions
    state.push_checked(RemoveMarker())
    assert not state.markers[0]
