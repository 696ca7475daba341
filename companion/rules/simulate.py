"""Self-play: whole rounds and games of random legal actions, checking invariants as they go.

Seeded and reproducible: the same seed gives the same rules, deals and actions.
"""

from __future__ import annotations

import dataclasses
import random
import sys
import time
from collections import Counter
from collections.abc import Callable

from companion.rules import legality
from companion.rules.actions import (
    MEXICAN,
    MEXICAN2,
    Action,
    Draw,
    End,
    EndReason,
    Play,
    RemoveMarker,
)
from companion.rules.keys import BlockedDefinition, DealTable, GoOutOnDouble
from companion.rules.presets import PRESETS
from companion.rules.rules import CHOICES, Rules
from companion.rules.setup import hand_size, leaders, schedule
from companion.rules.state import State, match_end
from companion.rules.tiles import Tile, full_set

MAX_ACTIONS = 5000
"""A round still running after this many actions counts as one that never ends."""

# Player counts each set supports with the Celko table.
_PLAYERS = {6: (2, 4), 9: (2, 8), 12: (2, 8), 15: (2, 12), 18: (2, 12)}


class InvariantError(AssertionError):
    """The engine reached a position the rules forbid."""


@dataclasses.dataclass
class RoundResult:
    """What happened in one simulated round."""

    actions: int
    reason: EndReason | None
    failures: list[str]
    scores: list[int]


def random_rules(rng: random.Random) -> Rules:
    """A random mix of every enumerable key (over a random preset)."""
    base = rng.choice(sorted(PRESETS))
    values: dict[str, object] = {"preset": base}
    for key, choices in CHOICES.items():
        if choices is not None and key != "set_max":
            values[key] = rng.choice(choices)
    set_max = rng.choice((6, 9, 12, 12, 12, 15, 18))
    values["set_max"] = set_max
    low, high = _PLAYERS[set_max]
    if set_max == 18:
        values["hand_size"] = {str(p): 11 for p in range(low, high + 1)}
    else:
        values["hand_size"] = DealTable.CELKO
    values["schedule"] = "descend_from_max"
    values["going_out_bonus"] = rng.choice((0, -5, -10))
    values["open_marker_penalty"] = rng.choice((0, 5, 10, 25))
    return Rules.from_json(values)


def random_players(rules: Rules, rng: random.Random) -> int:
    """A player count the rules' deal table covers."""
    low, high = _PLAYERS.get(rules.set_max, (2, 8))
    options = [p for p in range(low, high + 1) if _fits(rules, p)]
    return rng.choice(options)


def _fits(rules: Rules, players: int) -> bool:
    try:
        size = hand_size(rules, players)
    except ValueError:
        return False
    return size * players + 1 <= (rules.set_max + 1) * (rules.set_max + 2) // 2


Chooser = Callable[[State, list[Action]], Action]


def random_chooser(rng: random.Random) -> Chooser:
    """Picks uniformly among the legal actions."""

    uniform = rng.random

    def choose(state: State, actions: list[Action]) -> Action:
        return actions[int(uniform() * len(actions))]

    return choose


def play_round(
    rules: Rules,
    players: int,
    engine: int,
    rng: random.Random,
    *,
    leader: int = 0,
    check: bool = True,
    chooser: Chooser | None = None,
) -> RoundResult:
    """Plays one round of random legal actions; with ``check`` verifies invariants each step."""
    state = State.deal(rules, players, engine, rng, leader=leader)
    choose = chooser or random_chooser(rng)
    everything = frozenset(full_set(rules.set_max))
    failures: list[str] = []
    count = 0
    while state.outcome is None:
        actions = legality.legal_actions(state)
        if not actions:
            failures.append(f"no legal action for {state.seats[state.turn]} in {state!r}")
            break
        action = choose(state, actions)
        if check:
            try:
                _check_before(state, action)
                before = _markers_before(state)
                state.apply(action)
                _check_after(state, action, everything, before)
            except InvariantError as error:
                failures.append(f"after {count} actions ({action}): {error}")
                break
        else:
            state.apply(action)
        count += 1
        if count >= MAX_ACTIONS:
            failures.append(f"round did not end after {MAX_ACTIONS} actions")
            break
    if check and state.outcome is not None and not failures:
        try:
            _check_end(state)
        except InvariantError as error:
            failures.append(f"at the end: {error}")
    scores = [s.points for s in state.scores()] if state.outcome is not None else []
    reason = state.outcome.reason if state.outcome is not None else None
    return RoundResult(count, reason, failures, scores)


def play_game(
    rules: Rules, players: int, rng: random.Random, *, check: bool = True
) -> tuple[list[int], list[RoundResult]]:
    """Plays every round of the schedule; returns the totals and each round's result."""
    totals = [0] * players
    results = []
    seat_leads = leaders(rules, players)
    for number, engine in enumerate(schedule(rules)):
        lead = seat_leads[number]
        result = play_round(
            rules,
            players,
            engine,
            rng,
            leader=lead if lead is not None else rng.randrange(players),
            check=check,
        )
        results.append(result)
        for seat, points in enumerate(result.scores):
            totals[seat] += points
    return totals, results


# -- invariants ------------------------------------------------------------------------------


def _fail(message: str) -> None:
    raise InvariantError(message)


def _check_before(state: State, action: Action) -> None:
    refused = legality.refusal(state, action)
    if refused is not None:
        _fail(f"generated action refused: {refused}")
    if (
        type(action) is End
        and state.is_first_turn
        and not state.rules.first_turn_may_end_on_double
        and any(state.double_value[t] >= 0 for t in state.turn_doubles)
    ):
        _fail("a first turn ended on an uncovered double")
    if type(action) is Play:
        values = legality._values(state, action.train)
        if not any(match_end(v, action.tile, state.wild) >= 0 for v in values):
            _fail(f"{action.tile} does not fit {values} on {state.train_name(action.train)}")


def _markers_before(state: State) -> list[bool]:
    return list(state.markers)


def _check_after(
    state: State, action: Action, everything: frozenset[Tile], before: list[bool]
) -> None:
    hands = state.hands
    boneyard = state.boneyard
    assert boneyard is not None
    engine_tile = Tile(state.engine, state.engine)
    total = 1 + len(boneyard) + sum(map(len, state.train_tiles))
    on_table = set().union(*state.train_tiles)
    on_table.add(engine_tile)
    pool = on_table.union(boneyard)
    for hand in hands:
        assert hand is not None
        total += len(hand)
        pool.update(hand)
    if total != len(everything) or pool != everything:
        _fail(f"tiles not conserved: {total} tiles, {len(pool)} distinct, of {len(everything)}")
    if len(boneyard) != state.boneyard_count:
        _fail("boneyard count disagrees with the boneyard")
    if on_table != state.on_table:
        _fail("on-table set disagrees with the trains")
    if state.rules.mexican_trains == 1 and (state.started[MEXICAN2] or state.train_tiles[MEXICAN2]):
        _fail("a second Mexican Train was started")
    if state.markers[MEXICAN] or state.markers[MEXICAN2]:
        _fail("a Mexican Train carries a marker")
    pending = {t for t in state.trains if state.double_value[t] >= 0}
    if pending != set(state.open_doubles) or len(state.open_doubles) != len(pending):
        _fail(f"open doubles {state.open_doubles} disagree with trains {pending}")
    for train in pending:
        value = state.double_value[train]
        if Tile(value, value) not in state.train_tiles[train]:
            _fail(f"open double {value}-{value} is not on {state.train_name(train)}")
    if type(action) is Play:
        if state.train_tiles[action.train][-1] is not action.tile:
            _fail("played tile is not the newest on its train")
    # A marker comes down only through its owner's own-train play or removal.
    for seat in range(state.n):
        if before[seat] and not state.markers[seat]:
            own_play = type(action) is Play and action.train == seat
            if not own_play and type(action) is not RemoveMarker:
                _fail(f"{state.seats[seat]}'s marker came down after {action}")
        if not before[seat] and state.markers[seat] and type(action) is not End:
            _fail(f"{state.seats[seat]}'s marker went up after {action}")
    if state.outcome is None:
        for seat in range(state.n):
            hand = hands[seat]
            if hand is not None and not hand:
                pending_out = state.going_out_double[seat] != -99
                first_turn_wait = seat in state.out_seats
                if not (pending_out or first_turn_wait):
                    _fail(f"{state.seats[seat]} is out of tiles but the round goes on")
    if (
        type(action) is End
        and state.outcome is None
        and state.rules.blocked_definition == BlockedDefinition.NO_LEGAL_MOVE_ANYWHERE
        and _uncoverable_out(state)
    ):
        _fail("a player is out on a double no one can ever cover, but the round goes on")
    if type(action) is Draw and state.hands[state.turn] is not None:
        if state.draws_since_play < 1:
            _fail("draw not counted")


def _uncoverable_out(state: State) -> bool:
    """Whether players are out on doubles (``must_be_covered``) that nobody can ever cover:
    the boneyard is empty and the hands hold too few tiles that fit each of them."""
    if state.boneyard_count or state.rules.go_out_on_double != GoOutOnDouble.MUST_BE_COVERED:
        return False
    waiting = [
        state.going_out_double[seat]
        for seat in range(state.n)
        if state.going_out_double[seat] != -99 and not state.hands[seat]
    ]
    for train in waiting:
        value = state.double_value[train]
        fitting = sum(
            1
            for hand in state.hands
            for tile in hand or ()
            if not tile.is_double and match_end(value, tile, state.wild) >= 0
        )
        if fitting >= state.covers_left[train]:
            return False
    return bool(waiting)


def _check_end(state: State) -> None:
    outcome = state.outcome
    assert outcome is not None
    rules = state.rules
    if outcome.reason is EndReason.BLOCKED:
        if outcome.rule == "go_out_on_double":
            if (
                rules.blocked_definition != BlockedDefinition.NO_LEGAL_MOVE_ANYWHERE
                or not _uncoverable_out(state)
            ):
                _fail("blocked on a going-out double that could still be covered")
        elif rules.blocked_definition == BlockedDefinition.FULL_LAP_OF_PASSES:
            if state.passes_in_a_row < state.n:
                _fail("blocked before a full lap of passes")
        elif state.boneyard_count or not legality.nobody_can_play(state):
            _fail("blocked while someone could still play")
    else:
        for seat in outcome.out_seats:
            hand = state.hands[seat]
            if hand is None or hand:
                _fail(f"{state.seats[seat]} went out holding tiles")
    _replay_trains(state)


def _replay_trains(state: State) -> None:
    """Rebuilds every train from the engine and compares its open ends."""
    fresh = State(state.rules, state.seats, state.engine, [[] for _ in state.seats], boneyard=[])
    for train in state.trains:
        for tile in state.train_tiles[train]:
            values = legality._values(fresh, train)
            if not any(match_end(v, tile, state.wild) >= 0 for v in values):
                _fail(f"{state.train_name(train)} is not a chain from the engine at {tile}")
            fresh._lay(tile, train)
        if fresh.ends[train] != state.ends[train] or (
            fresh.double_value[train] != state.double_value[train]
        ):
            _fail(f"{state.train_name(train)} ends disagree with its tiles")


# -- command line --------------------------------------------------------------------------


def simulate(
    rounds: int,
    seed: int,
    *,
    preset: str | None = None,
    players: int | None = None,
    check: bool = True,
    games: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, object]:
    """Plays ``rounds`` rounds (or ``rounds`` games) and summarises them; ``progress`` is
    called with (rounds so far, failures so far) every 5,000."""
    rng = random.Random(seed)
    reasons: Counter[str] = Counter()
    failures: list[str] = []
    total_actions = 0
    played_rounds = 0
    started = time.perf_counter()
    for number in range(rounds):
        round_rng = random.Random(rng.getrandbits(64))
        if preset is None or preset == "mixed":
            rules = random_rules(round_rng) if number % 2 else _preset_rules(round_rng)
        else:
            rules = Rules.from_json({"preset": preset})
        count = players if players is not None else random_players(rules, round_rng)
        if games:
            _, results = play_game(rules, count, round_rng, check=check)
        else:
            engine = round_rng.choice(schedule(rules))
            leader = round_rng.randrange(count)
            results = [play_round(rules, count, engine, round_rng, leader=leader, check=check)]
        for result in results:
            played_rounds += 1
            total_actions += result.actions
            reasons[result.reason.value if result.reason else "unfinished"] += 1
            for failure in result.failures:
                failures.append(f"#{number} {failure} [rules {rules.to_json()}]")
        if progress is not None and (number + 1) % 5000 == 0:
            progress(number + 1, len(failures))
    elapsed = time.perf_counter() - started
    return {
        "rounds": played_rounds,
        "actions": total_actions,
        "invariant_failures": len(failures),
        "first_failures": failures[:5],
        "endings": dict(reasons),
        "seconds": round(elapsed, 2),
        "rounds_per_second": round(played_rounds / elapsed, 1) if elapsed else None,
    }


def _preset_rules(rng: random.Random) -> Rules:
    return Rules.from_json({"preset": rng.choice(sorted(PRESETS))})


def run_cli(rounds: int, seed: int, preset: str | None, players: int | None, games: bool) -> int:
    """``python -m companion.rules simulate``: prints a summary; exit 1 on any failure."""
    if preset not in (None, "mixed") and preset not in PRESETS:
        print(f"unknown preset {preset!r}; known: {', '.join(sorted(PRESETS))} or mixed")
        return 2

    def report(done: int, failed: int) -> None:
        print(f"... {done} done, {failed} invariant failures", file=sys.stderr, flush=True)

    summary = simulate(rounds, seed, preset=preset, players=players, games=games, progress=report)
    for key, value in summary.items():
        if key == "first_failures":
            for line in value:  # type: ignore[attr-defined]
                print(f"  failure: {line}")
        else:
            print(f"{key}: {value}")
    return 1 if summary["invariant_failures"] else 0
