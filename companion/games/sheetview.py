"""The scoresheet as players see it: a stored game's rounds scored under its rules, totals,
standings and winners. Pure: it reads a :class:`Game` and never queries the database."""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Rules, leaders, schedule
from .entry import ScoreEntry
from .models import Game
from .parsing import Setup, check_setup

# --- reading a game -----------------------------------------------------------------------


@dataclass(frozen=True)
class RoundView:
    """One round of the schedule with whatever scores are entered."""

    n: int
    engine: int
    leader: str | None
    hand_size: int
    entries: dict[str, ScoreEntry]  # players with a score entered
    points: dict[str, int]


@dataclass(frozen=True)
class GameView:
    """A game with everything derived from its rules and scores (what every page shows)."""

    game: Game
    rules: Rules
    setup: Setup
    rounds: list[RoundView]
    totals: dict[str, int]
    standings: list[str]
    ranks: dict[str, int]
    finished: bool
    winners: list[str]
    next_round: RoundView | None
    cumulative: dict[str, list[int]]

    @property
    def players(self) -> list[str]:
        """Player names in seat order."""
        return list(self.game.players)


def load_rules(game: Game) -> Rules:
    """Return the game's stored rules as a :class:`Rules` value."""
    return Rules.from_json(dict(game.rules))


def view_game(game: Game) -> GameView:
    """Derive schedule, points, totals, standings and winners from a stored game."""
    rules = load_rules(game)
    players = list(game.players)
    setup = check_setup(rules, len(players))
    engines = schedule(rules)
    seat_of_leader = leaders(rules, len(players))
    stored = {round_.n: round_.scores for round_ in game.rounds}
    rounds: list[RoundView] = []
    totals = dict.fromkeys(players, 0)
    cumulative: dict[str, list[int]] = {name: [] for name in players}
    for index, engine in enumerate(engines):
        n = index + 1
        entered = {
            name: ScoreEntry.from_json(stored[n][name])
            for name in players
            if name in stored.get(n, {})
        }
        points = {name: entry.score(rules) for name, entry in entered.items()}
        seat = seat_of_leader[index] if index < len(seat_of_leader) else None
        leader = players[seat] if seat is not None else None
        rounds.append(
            RoundView(
                n,
                engine,
                leader,
                setup.hand_size,
                entered,
                points,
            )
        )
        for name, value in points.items():
            totals[name] += value
        if points:
            for name in players:
                cumulative[name].append(totals[name])
    standings = sorted(players, key=lambda name: (totals[name], players.index(name)))
    ranks: dict[str, int] = {}
    for position, name in enumerate(standings):
        earlier = standings[position - 1]
        tied = position > 0 and totals[earlier] == totals[name]
        ranks[name] = ranks[earlier] if tied else position + 1
    finished = all(len(round_.points) == len(players) for round_ in rounds)
    winners = (
        [name for name in standings if totals[name] == totals[standings[0]]] if finished else []
    )
    next_round = next((r for r in rounds if len(r.points) < len(players)), None)
    return GameView(
        game,
        rules,
        setup,
        rounds,
        totals,
        standings,
        ranks,
        finished,
        winners,
        next_round,
        cumulative,
    )
