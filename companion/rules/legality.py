"""Which actions are legal, and, for a refused one, which rule refuses it and why.

Generation (:func:`legal_actions`) is the single source of truth for plays; :func:`refusal`
walks the same rules in a fixed order to name the one that decided, with a sentence a player
can read aloud.

Readings chosen where the contract and the rule books leave a gap (as a player would expect):

- A turn is one tile unless it is a double; after drawing, only the tile just drawn may be
  played (a double then still earns its follow-up from the whole hand). With
  ``one_then_pass`` one draw is allowed per obligation to play (turn start, or a double's
  follow-up); ``until_playable`` keeps drawing until the drawn tile fits.
- A double's follow-up: ``must_cover_own_if_able`` means cover it if any tile can; if none can
  and ``satisfy_scope`` is ``table``, the player draws (then marker and pass). ``anywhere``
  frees only the follow-up tile from the player's own new double(s). ``none`` ends the turn.
  Failing to follow up a double puts the player's marker up, as a failed turn does.
- First turn: only one's own train (or the Mexican Train if ``mexican_on_first_turn``); under
  ``multi_own_train`` every tile of that turn goes on that one train, doubles need no
  follow-up, and other players' open doubles do not bind a player still on their first turn.
  ``first_turn_may_end_on_double`` false: a double may be laid on a first turn only while
  the hand still holds the tile(s) to cover it (never under ``single_tile`` with
  ``double_followup`` none, where nothing may follow it); that follow-up must then go on it,
  and the turn may not end (nor a tile be drawn) while the player can still cover it.
- ``satisfy_scope``: ``table`` also lets anyone cover a double on a private train;
  ``train_only`` lets anyone cover it but obliges no one; ``none`` keeps private trains
  private. ``satisfy_order`` applies to the ``table`` obligation.
- Markers go up only when a turn ends with nothing played or a double unfollowed; a play on
  one's own train takes the marker down in both ``marker_removal`` modes (not the double
  itself, only its cover); ``owner_choice_after_any_play`` also lets the owner remove it
  after any play that turn.
- ``full_lap_of_passes``: the round is blocked once every player has passed in a row (a pass
  is a turn with no tile played), boneyard or not. ``no_legal_move_anywhere``: the boneyard is
  empty and no seat could play even after everyone's marker went up.
- A dead double (every tile of its number on the table) binds no one under ``frees_play``.
- ``blanks_wild``: a tile's blank half fits any end; on a blank end any tile fits and its
  lower half becomes the open end. ``double_branches`` k: a double needs k tiles laid on it
  before it is satisfied; each becomes a branch end of that train (a double cannot be one of
  several required branches).
- ``go_out_on_double`` ``must_be_covered``: the player with no tiles left must still draw for
  the follow-up; they are out when anyone covers the double while their hand is still empty.
  If no one can any more (the boneyard is empty and no hand holds a tile that fits it), the
  round is blocked (``State.going_out_stuck``); under ``full_lap_of_passes`` the lap decides.
  A turn that laid a tile is never a pass, even if it left a double uncovered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.rules.actions import (
    END,
    MEXICAN,
    MEXICAN2,
    REMOVE_MARKER,
    Action,
    Draw,
    End,
    Play,
    TrainId,
)
from companion.rules.keys import (
    DeadDouble,
    DoubleFollowup,
    DrawRule,
    FirstTurn,
    MarkerRemoval,
    SatisfyOrder,
    SatisfyScope,
)
from companion.rules.tiles import Tile

# House-rule values bound once: on Python 3.11 every attribute lookup on an enum class
# goes through EnumType.__getattr__ (about 0.1 µs), which self-play felt as 5%.
_DOUBLE_FOLLOWUP_ANYWHERE = DoubleFollowup.ANYWHERE
_MARKER_REMOVAL_AUTO_ON_OWN_TRAIN_PLAY = MarkerRemoval.AUTO_ON_OWN_TRAIN_PLAY
_DOUBLE_FOLLOWUP_NONE = DoubleFollowup.NONE
_DEAD_DOUBLE_FREES_PLAY = DeadDouble.FREES_PLAY
_FIRST_TURN_MULTI_OWN_TRAIN = FirstTurn.MULTI_OWN_TRAIN
_DOUBLE_FOLLOWUP_MUST_COVER_OWN_IF_ABLE = DoubleFollowup.MUST_COVER_OWN_IF_ABLE
_SATISFY_ORDER_NEWEST_FIRST = SatisfyOrder.NEWEST_FIRST
_SATISFY_ORDER_OLDEST_FIRST = SatisfyOrder.OLDEST_FIRST
_DRAW_RULE_ONE_THEN_PASS = DrawRule.ONE_THEN_PASS
_MARKER_REMOVAL_OWNER_CHOICE_AFTER_ANY_PLAY = MarkerRemoval.OWNER_CHOICE_AFTER_ANY_PLAY
_SATISFY_SCOPE_NONE = SatisfyScope.NONE
_SATISFY_SCOPE_TABLE = SatisfyScope.TABLE
_DRAW_RULE_UNTIL_PLAYABLE = DrawRule.UNTIL_PLAYABLE


if TYPE_CHECKING:
    from companion.rules.state import State

Refusal = tuple[str, str]
"""``(rule, reason)``."""

_DRAW = Draw()


def _fits(end: int, tile: Tile, wild: bool) -> bool:
    if tile.high == end or tile.low == end:
        return True
    return wild and (tile.low == 0 or end == 0)


def _values(s: State, train: TrainId) -> list[int]:
    """The values a tile may be laid against on ``train``."""
    pending = s.double_value[train]
    if pending >= 0:
        return [pending]
    if not s.started[train]:
        return [s.engine]
    return s.ends[train]


def _mexicans(s: State) -> list[TrainId]:
    return [MEXICAN] if s.rules.mexican_trains == 1 else [MEXICAN, MEXICAN2]


def candidate_tiles(s: State, seat: int, fresh: bool) -> list[Tile]:
    """The tiles the player may lay now: the hand, or only the tile just drawn."""
    if not fresh and s.draws_since_play > 0:
        return [s.drawn] if s.drawn is not None else []
    hand = s.hands[seat]
    return hand if hand is not None else []


def _can_cover(s: State, train: TrainId, tiles: list[Tile]) -> bool:
    value = s.double_value[train]
    if value < 0:
        return False
    wild = s.wild
    return any(_fits(value, tile, wild) for tile in tiles)


def binding_doubles(s: State, fresh: bool) -> list[TrainId]:
    """Open doubles the player must cover before anything else (``satisfy_scope`` table)."""
    rules = s.rules
    if rules.satisfy_scope != _SATISFY_SCOPE_TABLE or not s.open_doubles:
        return []
    binding = s.open_doubles
    if rules.dead_double == _DEAD_DOUBLE_FREES_PLAY:
        binding = [t for t in binding if not s.is_dead_double(t)]
    if not fresh and rules.double_followup == _DOUBLE_FOLLOWUP_ANYWHERE and s.turn_doubles:
        binding = [t for t in binding if t not in s.turn_doubles]
    return binding


def own_doubles_queue(s: State, fresh: bool) -> list[TrainId]:
    """The open doubles in the order ``satisfy_order`` counts them, when only the player's own
    new doubles are open and ``double_followup`` ``anywhere`` frees the follow-up from them.

    The follow-up may then go anywhere, but a tile that covers one of those doubles still
    covers them in the order the rule says (docs/rules.md: "in the order they were played"),
    within one turn as across turns. Empty when the usual obligation applies instead.
    """
    rules = s.rules
    if (
        fresh
        or rules.satisfy_scope != _SATISFY_SCOPE_TABLE
        or rules.double_followup != _DOUBLE_FOLLOWUP_ANYWHERE
        or len(s.turn_doubles) < 2
    ):
        return []
    queue = s.open_doubles
    if rules.dead_double == _DEAD_DOUBLE_FREES_PLAY:
        queue = [t for t in queue if not s.is_dead_double(t)]
    if len(queue) < 2 or any(t not in s.turn_doubles for t in queue):
        return []
    return queue


def designated(s: State, binding: list[TrainId]) -> list[TrainId]:
    """Which of the binding doubles may be covered now, by ``satisfy_order``."""
    order = s.rules.satisfy_order
    if order == _SATISFY_ORDER_OLDEST_FIRST:
        return binding[:1]
    if order == _SATISFY_ORDER_NEWEST_FIRST:
        return binding[-1:]
    return binding


def allowed_trains(s: State, seat: int, fresh: bool) -> list[TrainId]:
    """Trains the player may lay on now, before looking at tiles.

    ``fresh`` judges ``seat`` as at the start of a turn (used to test for a blocked round).
    """
    rules = s.rules
    is_first = s.first_turn_left[seat] if fresh else s.is_first_turn
    followup = None if fresh else s.followup_train
    if not (is_first or s.open_doubles or followup is not None) and (
        s.started[seat] or not rules.own_train_required_before_other_play
    ):
        # The common case: own train, the Mexican Train(s) and every marked train.
        markers = s.markers
        fast = [seat, *s.mexicans]
        may_start = rules.others_may_start_unstarted_marked_train
        for other in range(s.n):
            if markers[other] and other != seat and (may_start or s.started[other]):
                fast.append(other)
        return fast
    owes = (not fresh) and (s.owes_followup or s.followup_optional)
    own_unstarted = rules.own_train_required_before_other_play and not s.started[seat]
    if is_first:
        first_train = None if fresh else s.first_train
        if rules.first_turn == _FIRST_TURN_MULTI_OWN_TRAIN and first_train is not None:
            trains = [first_train]
        elif own_unstarted or not rules.mexican_on_first_turn:
            trains = [seat]
        else:
            trains = [seat, *_mexicans(s)]
    elif own_unstarted:
        trains = [seat]
    else:
        markers = s.markers
        may_start = rules.others_may_start_unstarted_marked_train
        trains = [seat, *_mexicans(s)]
        for other in range(s.n):
            if other != seat and markers[other] and (may_start or s.started[other]):
                trains.append(other)
        if rules.satisfy_scope != _SATISFY_SCOPE_NONE:
            for train in s.open_doubles:
                if train not in trains:
                    trains.append(train)
        if followup is not None and followup not in trains:
            trains.append(followup)
        binding = binding_doubles(s, fresh)
        if binding:
            allowed = designated(s, binding)
            trains = [t for t in trains if t in allowed]
        else:
            queue = own_doubles_queue(s, fresh)
            if queue:
                allowed = designated(s, queue)
                trains = [t for t in trains if t not in queue or t in allowed]
    if (
        owes
        and followup is not None
        and (
            rules.double_followup == _DOUBLE_FOLLOWUP_MUST_COVER_OWN_IF_ABLE
            or (is_first and not rules.first_turn_may_end_on_double)
        )
        and followup in trains
        and _can_cover(s, followup, candidate_tiles(s, seat, fresh))
    ):
        trains = [followup]
    return trains


def first_turn_double_strands(s: State, seat: int, tile: Tile) -> bool:
    """Whether laying the double ``tile`` on a first turn would leave the run ending on an
    uncovered double (``first_turn_may_end_on_double`` false): the hand must still hold a
    tile for each cover the double needs, and a tile must be allowed to follow it. Covers
    are counted among non-doubles: a double laid as a cover (possible with wild blanks)
    would itself need covering."""
    rules = s.rules
    need = int(rules.double_branches)
    if rules.first_turn != _FIRST_TURN_MULTI_OWN_TRAIN and (
        rules.double_followup == _DOUBLE_FOLLOWUP_NONE or need > 1
    ):
        return True  # at most one tile follows the double on this turn
    value = tile.high
    wild = s.wild
    covers = 0
    for other in s.hands[seat] or ():
        if not other.is_double and _fits(value, other, wild):
            covers += 1
            if covers >= need:
                return False
    return True


def first_turn_cover_owed(s: State) -> bool:
    """Whether the player is on a first turn whose run may not end on a double, a double laid
    this turn is still uncovered (or short of branches), and the player can cover it."""
    if not s.is_first_turn or not s.turn_doubles or s.rules.first_turn_may_end_on_double:
        return False
    tiles = candidate_tiles(s, s.turn, False)
    wild = s.wild
    for train in s.turn_doubles:
        value = s.double_value[train]
        if value >= 0 and any(not t.is_double and _fits(value, t, wild) for t in tiles):
            return True
    return False


def _tile_allowed(s: State, tile: Tile, train: TrainId, fresh: bool) -> bool:
    if tile.is_double:
        if (
            not fresh
            and s.rules.doubles_per_turn == 1
            and s.doubles_played
            and not (s.is_first_turn and s.rules.first_turn == _FIRST_TURN_MULTI_OWN_TRAIN)
        ):
            return False
        if s.covers_left[train] > 1:
            return False
    return True


_PLAYS: dict[int, Play] = {}


def play_of(tile: Tile, train: TrainId) -> Play:
    """The interned :class:`Play` of ``tile`` on ``train``."""
    key = tile.code * 64 + train + 2
    play = _PLAYS.get(key)
    if play is None:
        play = _PLAYS[key] = Play(tile, train)
    return play


def plays_for(s: State, seat: int, fresh: bool) -> list[Play]:
    """Every legal play for ``seat`` (now, or at the start of a turn when ``fresh``)."""
    index = s.hand_index[seat]
    if not s.wild and index is not None and (fresh or not s.draws_since_play):
        return _plays_indexed(s, seat, allowed_trains(s, seat, fresh), index, fresh)
    tiles = candidate_tiles(s, seat, fresh)
    if not tiles:
        return []
    # Index the allowed trains by the values they accept, then look each tile up.
    by_value: list[list[TrainId] | None] = [None] * (s.set_max + 1)
    double_value = s.double_value
    started = s.started
    engine = s.engine
    any_train = False
    for train in allowed_trains(s, seat, fresh):
        pending = double_value[train]
        if pending >= 0:
            values: list[int] = [pending]
        elif not started[train]:
            values = [engine]
        else:
            values = s.ends[train]
        for value in values:
            listed = by_value[value]
            any_train = True
            if listed is None:
                by_value[value] = [train]
            elif train not in listed:
                listed.append(train)
    if not any_train:
        return []
    rules = s.rules
    no_doubles = (
        not fresh
        and s.doubles_played > 0
        and rules.doubles_per_turn == 1
        and not (s.is_first_turn and rules.first_turn == _FIRST_TURN_MULTI_OWN_TRAIN)
    )
    covers_left = s.covers_left
    first_doubles = not rules.first_turn_may_end_on_double and (
        s.first_turn_left[seat] if fresh else s.is_first_turn
    )
    plays: list[Play] = []
    cache = _PLAYS
    wild = s.wild
    if wild:
        every: list[TrainId] = []
        for listed in by_value:
            for train in listed or ():
                if train not in every:
                    every.append(train)
    blank_trains = by_value[0] or []
    for tile in tiles:
        if wild:
            if tile.low == 0:
                trains = every
            else:
                trains = [
                    t
                    for t in every
                    if t in blank_trains
                    or t in (by_value[tile.high] or ())
                    or t in (by_value[tile.low] or ())
                ]
        elif tile.is_double:
            trains = by_value[tile.high] or []
        else:
            high = by_value[tile.high]
            low = by_value[tile.low]
            if high is None:
                if low is None:
                    continue
                trains = low
            elif low is None:
                trains = high
            else:
                trains = high + [t for t in low if t not in high]
        code = tile.code * 64 + 2
        if tile.is_double and first_doubles and first_turn_double_strands(s, seat, tile):
            continue
        for train in trains:
            if tile.is_double and (no_doubles or covers_left[train] > 1):
                continue
            play = cache.get(code + train)
            if play is None:
                play = cache[code + train] = Play(tile, train)
            plays.append(play)
    return plays


def _plays_indexed(
    s: State, seat: int, trains: list[TrainId], index: list[list[Tile]], fresh: bool
) -> list[Play]:
    """Play generation from the hand's index by value (no wild blanks, whole hand)."""
    rules = s.rules
    no_doubles = (
        not fresh
        and s.doubles_played > 0
        and rules.doubles_per_turn == 1
        and not (s.is_first_turn and rules.first_turn == _FIRST_TURN_MULTI_OWN_TRAIN)
    )
    covers_left = s.covers_left
    double_value = s.double_value
    started = s.started
    first_doubles = not rules.first_turn_may_end_on_double and (
        s.first_turn_left[seat] if fresh else s.is_first_turn
    )
    cache = _PLAYS
    plays: list[Play] = []
    for train in trains:
        pending = double_value[train]
        if pending >= 0:
            values: list[int] = [pending]
        elif not started[train]:
            values = [s.engine]
        else:
            values = s.ends[train]
        several = len(values) > 1
        for value in values:
            for tile in index[value]:
                if tile.is_double and (
                    no_doubles
                    or covers_left[train] > 1
                    or (first_doubles and first_turn_double_strands(s, seat, tile))
                ):
                    continue
                key = tile.code * 64 + 2 + train
                play = cache.get(key)
                if play is None:
                    play = cache[key] = Play(tile, train)
                if several and play in plays:
                    continue
                plays.append(play)
    return plays


def legal_plays(s: State) -> list[Play]:
    """Every legal play of the player whose turn it is."""
    if s.outcome is not None or s.turn_over:
        return []
    return plays_for(s, s.turn, False)


def has_play(s: State) -> bool:
    """Whether the player whose turn it is has any legal play."""
    return bool(legal_plays(s))


def _needs_play(s: State) -> bool:
    return s.played == 0 or s.owes_followup


def may_draw(s: State, can_play: bool | None = None) -> bool:
    """Whether drawing is legal now (``can_play``: whether a play exists, if known)."""
    if s.outcome is not None or s.turn_over or s.boneyard_count <= 0 or not _needs_play(s):
        return False
    if first_turn_cover_owed(s):
        return False
    if s.rules.must_play_if_able and (has_play(s) if can_play is None else can_play):
        return False
    if s.draws_since_play:
        return s.rules.draw_rule == _DRAW_RULE_UNTIL_PLAYABLE and not s.drawn_playable
    return True


def may_end(s: State, can_play: bool | None = None) -> bool:
    """Whether ending the turn is legal now (``can_play``: whether a play exists, if known)."""
    if s.outcome is not None:
        return False
    if s.turn_over:
        return True
    if first_turn_cover_owed(s):
        return False
    if not _needs_play(s):
        return True
    if s.rules.must_play_if_able and (has_play(s) if can_play is None else can_play):
        return False
    if s.boneyard_count > 0:
        if not s.draws_since_play:
            return False
        if s.rules.draw_rule == _DRAW_RULE_UNTIL_PLAYABLE and not s.drawn_playable:
            return False
    return True


def may_remove_marker(s: State) -> bool:
    """Whether the player may take their own marker down now."""
    if s.outcome is not None or not s.markers[s.turn]:
        return False
    return (
        s.rules.marker_removal == _MARKER_REMOVAL_OWNER_CHOICE_AFTER_ANY_PLAY
        and s.played > 0
        and not s.failed_marker
    )


_END_ONLY: list[Action] = [END]


def legal_actions(s: State) -> list[Action]:
    """Every legal action of the player whose turn it is."""
    if s.outcome is not None:
        return []
    if s.turn_over:
        return [END, REMOVE_MARKER] if may_remove_marker(s) else list(_END_ONLY)
    actions: list[Action] = plays_for(s, s.turn, False)  # type: ignore[assignment]
    can_play = bool(actions)
    if may_draw(s, can_play):
        actions.append(_DRAW)
    if may_end(s, can_play):
        actions.append(END)
    if may_remove_marker(s):
        actions.append(REMOVE_MARKER)
    return actions


def nobody_can_play(s: State) -> bool:
    """Whether, with the boneyard empty, no seat could ever play again.

    A pass puts the passer's marker up and may open a train to others, so the test is made
    with the markers as they are and again, on a copy, with every marker up.
    """
    if s.boneyard_count > 0:
        return False
    if _anyone_can_play(s):
        return False
    return not _anyone_can_play(s.with_markers_up())


def _anyone_can_play(s: State) -> bool:
    return any(s.hands[seat] and plays_for(s, seat, True) for seat in range(s.n))


# -- explaining refusals -----------------------------------------------------------------------


def train_words(s: State, train: TrainId) -> str:
    """How a player names a train aloud."""
    if train == MEXICAN:
        return "the Mexican Train"
    if train == MEXICAN2:
        return "the second Mexican Train"
    return f"{s.seats[train]}'s train"


def _double_words(s: State, train: TrainId) -> str:
    value = s.double_value[train]
    return f"{train_words(s, train)} ({value}-{value})"


_TURN_OVER = {
    "one_tile_per_turn": "{name}'s turn ended with that tile: only one tile is played per turn "
    "unless it is a double.",
    "first_turn": "The first turn is a single tile under these rules, so {name}'s turn is over.",
    "double_followup": "Under these rules a double ends the turn: no tile follows it.",
    "went_out": "{name} has played their last tile.",
    "round_over": "The round is over.",
}


def refusal(s: State, action: Action) -> Refusal | None:
    """``(rule, reason)`` if ``action`` is illegal now, else ``None``."""
    refused = _refusal(s, action)
    if refused is None:
        return None
    rule, reason = refused
    return rule, reason[:1].upper() + reason[1:]


def _refusal(s: State, action: Action) -> Refusal | None:
    name = s.seats[s.turn]
    if s.outcome is not None:
        return ("round_over", "The round is over.")
    if type(action) is Play:
        # Generated plays are interned, so identity with the interned twin is equality.
        wanted = play_of(action.tile, action.train)
        for play in legal_plays(s):
            if play is wanted:
                return None
        return _refuse_play(s, action) or ("illegal", f"{name} may not play {action.tile} there.")
    if type(action) is Draw:
        return _refuse_draw(s, action)
    if type(action) is End:
        return None if may_end(s) else _refuse_end(s)
    if may_remove_marker(s):
        return None
    if not s.markers[s.turn]:
        return ("no_marker", f"{name}'s train has no marker to remove.")
    if s.rules.marker_removal == _MARKER_REMOVAL_AUTO_ON_OWN_TRAIN_PLAY:
        return (
            "marker_removal",
            f"Under these rules a marker comes off only when {name} plays on their own train.",
        )
    return (
        "marker_removal",
        f"{name} may take the marker off only after playing a tile this turn.",
    )


def _example_play(s: State) -> str:
    plays = legal_plays(s)
    if not plays:
        return ""
    play = plays[0]
    return f"{play.tile} fits on {train_words(s, play.train)}"


def _refuse_turn_over(s: State) -> Refusal:
    rule = s.turn_over_rule or "one_tile_per_turn"
    return (rule, _TURN_OVER.get(rule, "{name}'s turn is over.").format(name=s.seats[s.turn]))


def _refuse_play(s: State, play: Play) -> Refusal | None:
    rules = s.rules
    seat = s.turn
    name = s.seats[seat]
    tile, train = play.tile, play.train
    if s.turn_over:
        return _refuse_turn_over(s)
    hand = s.hands[seat] or []
    if s.draws_since_play and tile is not s.drawn:
        if tile in hand:
            drawn = f" ({s.drawn})" if s.drawn is not None else ""
            return (
                "drawn_tile_only",
                f"After drawing, {name} may only play the tile just drawn{drawn}.",
            )
    if tile not in hand:
        return ("tile_in_hand", f"{name} does not hold {tile}.")
    if train == MEXICAN2 and rules.mexican_trains == 1:
        return ("mexican_trains", "Only one Mexican Train is allowed under these rules.")
    where = train_words(s, train)
    if s.is_first_turn:
        if train in (MEXICAN, MEXICAN2) and not rules.mexican_on_first_turn:
            return (
                "mexican_on_first_turn",
                f"No one may play on the Mexican Train on their first turn under these rules; "
                f"{name} must start their own train.",
            )
        if train not in (seat, MEXICAN, MEXICAN2):
            return ("first_turn", f"On the first turn {name} may only build their own train.")
        first = s.first_train
        if rules.first_turn == _FIRST_TURN_MULTI_OWN_TRAIN and first is not None and train != first:
            return (
                "first_turn",
                f"The first turn's tiles all go on one train: {train_words(s, first)}.",
            )
    if rules.own_train_required_before_other_play and not s.started[seat] and train != seat:
        return (
            "own_train_required_before_other_play",
            f"{name} must start their own train before playing anywhere else.",
        )
    if not s.is_first_turn and 0 <= train != seat and train != s.followup_train:
        pending = s.double_value[train] >= 0
        if not s.markers[train]:
            if pending and rules.satisfy_scope == _SATISFY_SCOPE_NONE:
                return (
                    "satisfy_scope",
                    f"{where} carries no marker, and under these rules an open double does not "
                    "open it to others.",
                )
            if not pending:
                return ("private_train", f"{where} is private: it carries no marker.")
        elif not s.started[train] and not rules.others_may_start_unstarted_marked_train:
            return (
                "others_may_start_unstarted_marked_train",
                f"Under these rules only {s.seats[train]} may start {where}.",
            )
    followup = s.followup_train
    if (
        (s.owes_followup or s.followup_optional)
        and followup is not None
        and train != followup
        and _can_cover(s, followup, candidate_tiles(s, seat, False))
    ):
        if s.is_first_turn and not rules.first_turn_may_end_on_double:
            return (
                "first_turn_may_end_on_double",
                f"{name}'s first turn may not end on a double: {name} must cover "
                f"{_double_words(s, followup)} first.",
            )
        if rules.double_followup == _DOUBLE_FOLLOWUP_MUST_COVER_OWN_IF_ABLE:
            return (
                "double_followup",
                f"{name} must cover the double just played on {_double_words(s, followup)} "
                "while able to.",
            )
    if not s.is_first_turn:
        binding = binding_doubles(s, False)
        allowed = designated(s, binding)
        if binding and train not in allowed:
            first = allowed[0]
            if train in binding:
                order = rules.satisfy_order.replace("_first", " first")
                return (
                    "satisfy_order",
                    f"Open doubles are covered {order} here: {_double_words(s, first)} comes "
                    "first.",
                )
            if (
                followup is not None
                and rules.double_followup != _DOUBLE_FOLLOWUP_ANYWHERE
                and first == followup
            ):
                return (
                    "double_followup",
                    f"{name} must cover the double just played on {_double_words(s, first)} "
                    "before playing elsewhere.",
                )
            if s.is_dead_double(first):
                return (
                    "dead_double",
                    f"The open double on {_double_words(s, first)} can never be covered, but under "
                    "these rules it still blocks every other play.",
                )
            return (
                "satisfy_scope",
                f"An open double on {_double_words(s, first)} must be covered before anything "
                "else is played.",
            )
        queue = own_doubles_queue(s, False)
        if train in queue and train not in designated(s, queue):
            order = rules.satisfy_order.replace("_first", " first")
            return (
                "satisfy_order",
                f"Open doubles are covered {order} here, even those laid in the same turn: "
                f"{_double_words(s, designated(s, queue)[0])} comes first.",
            )
    if tile.is_double and s.doubles_played and rules.doubles_per_turn == 1:
        return ("doubles_per_turn", "Only one double may be played per turn under these rules.")
    if tile.is_double and s.covers_left[train] > 1:
        return (
            "double_branches",
            f"{_double_words(s, train)} still needs {s.covers_left[train]} branches; a double "
            "cannot be one of them.",
        )
    values = _values(s, train)
    if not any(_fits(v, tile, s.wild) for v in values):
        value = values[-1]
        if not s.wild and any(_fits(v, tile, True) for v in values):
            return (
                "blanks_wild",
                f"Blanks are not wild under these rules: {tile} does not match the {value} "
                f"on {where}.",
            )
        if not s.started[train]:
            return (
                "must_match",
                f"{where[0].upper()}{where[1:]} must start with a tile showing the engine's "
                f"{s.engine}.",
            )
        return ("must_match", f"{tile} does not match the open {value} on {where}.")
    if tile.is_double and not rules.first_turn_may_end_on_double and s.is_first_turn:
        if first_turn_double_strands(s, seat, tile):
            branches = int(rules.double_branches)
            if (
                rules.first_turn != _FIRST_TURN_MULTI_OWN_TRAIN
                and rules.double_followup == _DOUBLE_FOLLOWUP_NONE
            ):
                cover = "no tile may follow a double on this turn"
            elif rules.first_turn != _FIRST_TURN_MULTI_OWN_TRAIN and branches > 1:
                cover = f"the one tile that may follow it cannot fill all {branches} branches"
            else:
                cover = f"{name} does not hold the tiles to cover it"
            return (
                "first_turn_may_end_on_double",
                f"{name}'s first turn may not end on a double, and {cover}.",
            )
    return None


def _refuse_draw(s: State, draw: Draw) -> Refusal | None:
    rules = s.rules
    name = s.seats[s.turn]
    if s.turn_over:
        return _refuse_turn_over(s)
    if s.boneyard_count <= 0:
        return ("boneyard_empty", "The boneyard is empty: there is nothing to draw.")
    if not _needs_play(s):
        return ("no_draw_needed", f"{name} has played and owes no further tile, so may not draw.")
    if first_turn_cover_owed(s):
        return _first_turn_cover_refusal(s)
    if rules.must_play_if_able and has_play(s):
        return ("must_play_if_able", f"{name} can play ({_example_play(s)}) and must, not draw.")
    if s.draws_since_play:
        if rules.draw_rule == _DRAW_RULE_ONE_THEN_PASS:
            return ("draw_rule", "Only one tile may be drawn per turn under these rules.")
        if s.drawn_playable:
            return ("draw_rule", "The tile just drawn can be played, so drawing stops.")
    if draw.tile is not None:
        tile = draw.tile
        if tile.high > s.set_max:
            return ("tile_accounting", f"{tile} is not in a double-{s.set_max} set.")
        if tile in (s.hands[s.turn] or []):
            return ("tile_accounting", f"{tile} cannot be drawn: {name} already holds it.")
        if tile in s.on_table:
            return ("tile_accounting", f"{tile} cannot be drawn: it is already on the table.")
        if s.boneyard is not None and tile not in s.boneyard:
            return ("tile_accounting", f"{tile} is not in the boneyard.")
    return None


def _refuse_end(s: State) -> Refusal:
    rules = s.rules
    seat = s.turn
    name = s.seats[seat]
    following = s.owes_followup and s.followup_train is not None
    if first_turn_cover_owed(s):
        return _first_turn_cover_refusal(s)
    if rules.must_play_if_able and has_play(s):
        if s.draws_since_play and s.drawn is not None:
            return (
                "must_play_if_able",
                f"The tile {name} drew, {s.drawn}, can be played ({_example_play(s)}), so it "
                "must be.",
            )
        return ("must_play_if_able", f"{name} can play ({_example_play(s)}) and must.")
    if s.boneyard_count > 0 and not s.draws_since_play:
        if s.going_out_double[seat] != -99:
            return (
                "go_out_on_double",
                f"{name}'s last tile was a double that must be covered: {name} draws first.",
            )
        if following and s.followup_train is not None:
            return (
                "must_draw",
                f"{name} cannot cover {_double_words(s, s.followup_train)} from hand and must "
                "draw first.",
            )
        return ("must_draw", f"{name} must draw from the boneyard before passing.")
    return ("draw_rule", f"Under these rules {name} keeps drawing until a tile can be played.")


def _first_turn_cover_refusal(s: State) -> Refusal:
    name = s.seats[s.turn]
    return (
        "first_turn_may_end_on_double",
        f"{name}'s first turn may not end on a double while {name} can cover it "
        f"({_example_play(s)}).",
    )
