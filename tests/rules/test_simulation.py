"""Self-play across presets and random rule mixes, with invariants checked after every action,
plus properties of positions reached in play (undo, refusals, referee agreement)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import CHOICES, PRESETS, Rules, legality, schedule
from companion.rules.actions import Action, Draw, End, Play
from companion.rules.referee import answer, turn_query
from companion.rules.simulate import (
    play_game,
    play_round,
    random_players,
    random_rules,
    simulate,
)
from companion.rules.state import State
from companion.rules.tiles import Tile, full_set


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_presets_play_clean_rounds(preset: str) -> None:
    rules = Rules.from_json({"preset": preset})
    rng = random.Random(preset)
    for _ in range(25):
        result = play_round(rules, random_players(rules, rng), rules.set_max, rng)
        assert result.failures == []
        assert result.reason is not None


def test_random_rule_mixes_play_clean_rounds() -> None:
    summary = simulate(200, seed=11)
    assert summary["invariant_failures"] == 0, summary["first_failures"]
    assert summary["rounds"] == 200


def test_simulation_is_reproducible() -> None:
    first = simulate(30, seed=5)
    second = simulate(30, seed=5)
    assert first["actions"] == second["actions"] and first["endings"] == second["endings"]


def test_whole_game_totals() -> None:
    rules = Rules.from_json({"preset": "standard"})
    totals, results = play_game(rules, 4, random.Random(2))
    assert len(results) == 13
    assert totals == [sum(r.scores[seat] for r in results) for seat in range(4)]
    assert all(r.failures == [] for r in results)


def _walk(seed: int) -> tuple[Rules, list[State]]:
    """Plays a random round, keeping a copy of the position at the start of each turn."""
    rng = random.Random(seed)
    rules = random_rules(rng)
    players = random_players(rules, rng)
    state = State.deal(rules, players, rules.set_max, rng, leader=rng.randrange(players))
    return rules, [state]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.integers(1, 400))
def test_undo_restores_every_position(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng)
    state = State.deal(rules, random_players(rules, rng), rules.set_max, rng)
    history = []
    for _ in range(steps):
        actions = list(state.legal_actions)
        if not actions:
            break
        history.append((repr(state), state._snapshot()))
        state.push(actions[rng.randrange(len(actions))])
    while history:
        before_repr, before = history.pop()
        state.pop()
        assert repr(state) == before_repr
        assert state._snapshot() == before


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_legal_view_agrees_with_refusals(seed: int) -> None:
    """``in`` and iteration agree, and every other tile/train pair is refused with a reason."""
    rng = random.Random(seed)
    rules = random_rules(rng)
    state = State.deal(rules, random_players(rules, rng), rules.set_max, rng)
    every_tile = full_set(rules.set_max)
    while state.outcome is None:
        legal = list(state.legal_actions)
        assert legal, repr(state)
        assert state.legal_actions.count() == len(legal) == len(set(legal))
        for _ in range(6):
            tile = rng.choice(state.hands[state.turn] or list(every_tile))
            train = rng.choice(state.trains)
            action = Play(tile, train)
            refused = legality.refusal(state, action)
            assert (refused is None) == (action in legal), (action, refused)
            if refused is not None:
                rule, reason = refused
                assert rule and rule != "illegal", (action, reason)
                assert reason.endswith(".")
        for other in (Draw(), End()):
            assert (other in state.legal_actions) == (other in legal)
        state.apply(rng.choice(legal))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_referee_agrees_with_the_engine_on_played_turns(seed: int) -> None:
    """Each turn actually played, sent to the referee as a query, is ruled legal; a refused
    extra play is ruled illegal at that step with the same rule."""
    rng = random.Random(seed)
    rules = random_rules(rng)
    state = State.deal(rules, random_players(rules, rng), rules.set_max, rng)
    checked = 0
    while state.outcome is None and checked < 30:
        start = state.copy()
        taken: list[Action] = []
        seat = state.turn
        while (
            state.outcome is None and state.turn == seat and not (taken and type(taken[-1]) is End)
        ):
            action = rng.choice(list(state.legal_actions))
            state.apply(action)
            if type(action) is Draw:
                action = Draw(state.drawn)
            taken.append(action)
        query = turn_query(start, taken)
        got, ok = answer(query)
        assert ok, got
        assert got["legal"] is True, (got, query)
        checked += 1
        # One illegal play after the start of a turn: the referee must agree with the engine.
        hand = start.hands[start.turn] or []
        if hand:
            bad = Play(rng.choice(hand), rng.choice(start.trains))
            refused = legality.refusal(start, bad)
            got, ok = answer(turn_query(start, [bad]))
            assert ok, got
            assert got["legal"] is (refused is None)
            if refused is not None:
                assert got["rule"] == refused[0]


@pytest.mark.parametrize(
    "source", ["holder_plays_draw_all", "holder_plays_draw_in_turn", "next_highest_double"]
)
def test_engine_found_in_play_and_holder_leads(source: str) -> None:
    rules = Rules.from_json({"engine_source": source, "round_leader": "engine_holder"})
    for seed in range(8):
        state = State.deal(rules, 4, 12, random.Random(seed), leader=0)
        engine = Tile(state.engine, state.engine)
        assert all(engine not in (hand or []) for hand in state.hands)
        assert engine not in (state.boneyard or [])
        dealt = sum(len(hand or []) for hand in state.hands) + state.boneyard_count
        assert dealt == 90
        if source == "next_highest_double":
            assert all(
                not t.is_double or t.high < state.engine for t in state.hands[state.turn] or []
            )
        result = play_round(rules, 4, 12, random.Random(seed))
        assert result.failures == []


def test_set_aside_engine_never_dealt() -> None:
    rules = Rules.from_json({"engine_source": "set_aside"})
    state = State.deal(rules, 4, 9, random.Random(1), leader=3)
    assert state.turn == 3 and state.boneyard_count == 30


def _rules_strategy() -> st.SearchStrategy[Rules]:
    choices = {
        key: st.sampled_from(values)
        for key, values in CHOICES.items()
        if values is not None and key != "set_max"
    }
    return st.builds(
        lambda values, set_max: Rules.from_json(
            {**values, "set_max": set_max, "hand_size": "celko"}
        ),
        st.fixed_dictionaries(choices),
        st.sampled_from([6, 9, 12]),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=_rules_strategy(), seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_invariants_hold_for_any_rule_mix(rules: Rules, seed: int, players: int) -> None:
    """Tiles conserved, trains are chains from the engine, open doubles and markers agree
    with the trains, and the round ends when (and only when) the rules say so."""
    rng = random.Random(seed)
    result = play_round(rules, players, rng.choice(schedule(rules)), rng)
    assert result.failures == []
    assert result.reason is not None
