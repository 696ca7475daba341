"""The table's chains: which tiles touch, the hub, the trains from it and their free ends.

Pure geometry and rules on tiles already found and read (no model), for `python -m vision
table` (shared/spec/vision.md, version 2):

    group_table(tiles, hub_centre=None, round_engine=None, hub_expected=False) -> TableLayout

Two tiles are joined where an end of one lies against the other: end to end along a line, a
tile's end against the side of the previous tile's last half (a train bending at the table's
edge), or against the long side of a double laid crosswise. Measured in the tiles' own short
sides, so the photo's scale and a slanted view do not matter. The hub is the double from which
several chains start, or one chain pointing at it across a gap (a hub's only train so far; a
block line's tiles lie against its first double), or the point a hub detector passes in; each
chain is ordered from it outwards. The chain checks the reading: every joint should show the
same number on both sides, so a tile whose likelier other reading makes its joints match is
read that way, and a joint that still does not match marks both its tiles unsure. Where the
reader says which half shows which number (DetectedTile.halves), a tile is read from the end
its chain comes in by: the number on that half must match, and the other is what it offers
onwards (a tile by the hub with the engine's number on its far half is not a train's first).

It also says where a tile the finder may have missed would lie (next_tile_outline past a
train's end or a gap in it, tile_before_outline before a first tile not seen at the hub), for
the pipeline to look there again.
"""

from __future__ import annotations

import functools
import math
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from vision.geometry import contains, long_axis, order_corners
from vision.types import DetectedTile

Pips = tuple[int, int]

# Where two touching tiles' contact points lie apart, as a share of what the two tiles' own
# sides along that way make it (_Shape.depth): one, give or take the gaps players leave and a
# finder's loose outlines.
JOINT_RANGE = (0.6, 1.45)
# How straight one tile's end must face the other (cosine of the angle).
FACING = 0.88
# How far the other tile's end may turn away (cosine): where a train bends at the table's edge
# the next tile's end lies against the side of the last half, a little behind its end.
BACK_TURNED = -0.45
# A tile laid against a double's long side faces it at least this straight (cosine), both ways.
SIDE_FACING = 0.7
# How much a joint's fit suffers for the less facing of its two sides (a tie-breaker).
TURNED_AWAY = 0.1
# A corner: the next tile's end faces straight into the last tile's long side (cosine), at most
# this far from it (as JOINT_RANGE's upper bound, for _corner_joints); such a joint ranks after
# every end-to-end one.
CORNER_FACING = 0.9
CORNER_RANGE = 1.3
CORNER_FIT = 10.0
# A chain starts from the hub when its first tile's free end faces the hub's centre from at
# most this many half tile lengths away (_Shape.stride: a short side, seen from straight
# above; a plastic hub's slots lie about three out, the trains round a bare engine closer; a
# hand laid down lies farther off).
HUB_REACH = 5.5
HUB_FACING = 0.8
# An unsure tile's confidence is at most this, so that the app asks the player to check it.
UNSURE_CONFIDENCE = 0.5
# A chain not seen to start at the hub counts for this much of its tiles' confidence.
UNLINKED_TRAIN = 0.5


@dataclass(frozen=True)
class Hub:
    """The hub (or bare engine) the trains start from."""

    engine_tile: int | None
    """The engine's index in the tiles, or None when only the hub's centre is known."""
    centre: tuple[int, int]
    """The hub's centre in photo pixels."""


@dataclass(frozen=True)
class Train:
    """One chain of touching tiles, from the hub (or the layout's first tile) outwards."""

    tiles: tuple[int, ...]
    end: int
    """The number offered at the free end."""
    open_double: bool
    """The last tile is a double, nothing laid on it."""
    confidence: float
    """Belief that the chain and its end are read right: its least sure tile's confidence
    (halved when its link to the hub was not seen)."""
    marker: bool | None = None
    """Whether a train marker lies beside its start (vision.markers); None: not known."""
    linked: bool = True
    """Its first tile was seen laid against the hub (or on a line's first tile)."""
    unseen: tuple[int, int] | None = None
    """Where tiles not seen break the train: the position in ``tiles`` of the first tile after
    them, and the number the tiles before them offer; None when every tile was seen."""


@dataclass(frozen=True)
class TableLayout:
    """The position read from a table photo's tiles."""

    tiles: tuple[DetectedTile, ...]
    """The tiles as given, in the same order; a reading the joints showed wrong is replaced
    by the likelier reading that fits them, and unsure tiles have a lowered confidence."""
    hub: Hub | None
    trains: tuple[Train, ...]
    open_ends: tuple[int, ...]
    """The number at every free end, sorted."""
    loose: tuple[int, ...]
    """Tiles touching no chain."""
    unsure: tuple[int, ...]
    """Tiles at a joint whose two sides do not match."""
    mended: tuple[int, ...]
    """Tiles read again as another of their likely readings to make their joints match."""


# --------------------------------------------------------------------------- geometry


@dataclass(frozen=True)
class _Shape:
    centre: np.ndarray
    axis: np.ndarray  # unit vector along the long side
    long: float
    short: float

    @property
    def stride(self) -> float:
        """A short side as measured along the tile: half its length. Seen at a slant the
        width and the length are foreshortened differently; distances along a train are
        foreshortened as the length is."""
        return self.long / 2

    def depth(self, contact: int) -> float:
        """How far a contact point lies inside the tile's edge: a quarter of the length at an
        end, half the width across a double. Seen at a slant one side is foreshortened and
        the other not, so a touching tile's distance is judged by the sides it is measured
        along."""
        return self.long / 4 if contact < 2 else self.short / 2

    def contacts(self, double: bool) -> list[tuple[np.ndarray, np.ndarray]]:
        """Where another tile may touch this one, each with the way it faces: the middle of
        each half (its end), and for a double, its middle facing either long side (as it
        lies crosswise in a train)."""
        reach = self.long / 4
        points = [
            (self.centre + self.axis * reach, self.axis),
            (self.centre - self.axis * reach, -self.axis),
        ]
        if double:
            across = np.array([-self.axis[1], self.axis[0]])
            points += [(self.centre, across), (self.centre, -across)]
        return points


def _shape(corners: Sequence[tuple[int, int]]) -> _Shape:
    q = np.asarray(corners, np.float64).reshape(4, 2)
    axis, long, short = long_axis(q)
    return _Shape(q.mean(axis=0), axis, long, max(short, 1.0))


@dataclass(frozen=True)
class _Joint:
    a: int
    b: int
    contact_a: int
    contact_b: int
    fit: float  # smaller is better


def _joints(shapes: Sequence[_Shape], doubles: Sequence[bool]) -> list[_Joint]:
    """Every pair of tiles that touch, each contact used once, the best-fitting first."""
    candidates: list[_Joint] = []
    contacts = [shape.contacts(double) for shape, double in zip(shapes, doubles, strict=True)]
    for i, first in enumerate(shapes):
        for j in range(i + 1, len(shapes)):
            second = shapes[j]
            unit = max(first.short + second.short, first.stride + second.stride) / 2
            if np.linalg.norm(first.centre - second.centre) > 3.5 * unit:
                continue
            for ca, (pa, oa) in enumerate(contacts[i]):
                for cb, (pb, ob) in enumerate(contacts[j]):
                    d = pb - pa
                    gap = float(np.linalg.norm(d))
                    expected = first.depth(ca) + second.depth(cb)
                    if not JOINT_RANGE[0] <= gap / expected <= JOINT_RANGE[1]:
                        continue
                    d = d / gap
                    faces_a, faces_b = float(d @ oa), float(-d @ ob)
                    facing = max(faces_a, faces_b)
                    # One end faces the other tile, and neither turns its back on it.
                    if facing < FACING or min(faces_a, faces_b) < BACK_TURNED:
                        continue
                    # A tile against a double's long side faces it: one lying alongside the
                    # double (a hand put down side by side) is not laid against it.
                    if (ca >= 2 or cb >= 2) and min(faces_a, faces_b) < SIDE_FACING:
                        continue
                    fit = abs(gap / expected - 1.0) + 2.0 * (1.0 - facing)
                    # Of two ways to touch, the one where both face each other fits better (a
                    # tile across a double's long side, not at the corner of its end).
                    fit += TURNED_AWAY * (1.0 - min(faces_a, faces_b))
                    candidates.append(_Joint(i, j, ca, cb, fit))
    candidates.sort(key=lambda joint: joint.fit)
    used: set[tuple[int, int]] = set()
    paired: set[tuple[int, int]] = set()
    joints: list[_Joint] = []
    for joint in candidates:
        ends = {(joint.a, joint.contact_a), (joint.b, joint.contact_b)}
        if ends & used or (joint.a, joint.b) in paired:
            continue
        used |= ends
        paired.add((joint.a, joint.b))
        joints.append(joint)
    return joints + _corner_joints(shapes, doubles, used, paired)


def _corner_joints(
    shapes: Sequence[_Shape],
    doubles: Sequence[bool],
    used: set[tuple[int, int]],
    paired: set[tuple[int, int]],
) -> list[_Joint]:
    """Where a line of play turns a corner, the next tile is laid across the last one's end,
    its own end against the last tile's long side, and not always under the half it matches
    (players push it along the side). Such a tile joins the last one's free end when that tile
    has one end free and the other taken (it is a line's last tile), its own end faces
    straight into the side, and nothing else was joined to either end."""
    found: list[_Joint] = []
    taken, joined = set(used), set(paired)
    for a, last in enumerate(shapes):
        if doubles[a]:
            continue  # a double's sides are its own contacts, joined above
        free = [contact for contact in (0, 1) if (a, contact) not in taken]
        if len(free) != 1:
            continue
        across = np.array([-last.axis[1], last.axis[0]])
        best: tuple[float, int, int] | None = None
        for b, shape in enumerate(shapes):
            if b == a or (min(a, b), max(a, b)) in joined:
                continue
            # A tile whose end touches this one's side as the checks below allow lies nearer
            # than half this tile's length, its width and the other's length together.
            reach = last.long / 2 + last.short + shape.long
            if float(np.linalg.norm(shape.centre - last.centre)) > reach:
                continue
            for contact, (point, outward) in enumerate(shape.contacts(doubles[b])[:2]):
                if (b, contact) in taken:
                    continue
                offset = point - last.centre
                along = float(offset @ last.axis)
                side = float(offset @ across)
                if abs(along) > last.long / 2:
                    continue  # not against this tile's side
                inward = -across if side > 0 else across
                if float(outward @ inward) < CORNER_FACING:
                    continue
                expected = last.short / 2 + shape.depth(contact)
                ratio = abs(side) / expected
                if not JOINT_RANGE[0] <= ratio <= CORNER_RANGE:
                    continue
                fit = abs(ratio - 1.0)
                if best is None or fit < best[0]:
                    best = (fit, b, contact)
        if best is None:
            continue
        _, b, contact = best
        found.append(_Joint(a, b, free[0], contact, CORNER_FIT + best[0]))
        taken |= {(a, free[0]), (b, contact)}
        joined.add((min(a, b), max(a, b)))
    return found


def _free_ends(
    index: int, shape: _Shape, double: bool, used: set[tuple[int, int]]
) -> list[tuple[np.ndarray, np.ndarray]]:
    return [
        contact
        for number, contact in enumerate(shape.contacts(double)[:2])
        if (index, number) not in used
    ]


def _facing(point: np.ndarray, outward: np.ndarray, target: np.ndarray, unit: float) -> bool:
    towards = target - point
    distance = float(np.linalg.norm(towards))
    if distance < 1e-6:
        return True
    return distance <= HUB_REACH * unit and float(towards @ outward) / distance >= HUB_FACING


# --------------------------------------------------------------------------- readings


@dataclass(frozen=True)
class _Path:
    """A train's tiles in order. ``from_root``: its first tile is a layout's first tile or a
    spinner it branches from, the rest laid against one of that tile's sides; otherwise its
    first tile is laid against the hub (``linked``: seen starting there, every tile seen)."""

    tiles: tuple[int, ...]
    from_root: bool
    linked: bool = True
    gap: int = 0
    """Where tiles not seen break the train (the index in ``tiles`` after the gap), or 0."""


HALVES_APART = 0.25
"""A reading's numbers are placed on the tile's ends only where the middles of the halves as
counted lie at least this share of the tile's length apart along it (half of it, as cut)."""


def _first_end_numbers(
    tile: DetectedTile, shape: _Shape, readings: Sequence[tuple[Pips, float]]
) -> list[int | None]:
    """For each reading of a tile, the number on its first end (contact 0, along its axis),
    where the halves as counted tell which way it lies."""
    numbers: list[int | None] = []
    for pips, _ in readings:
        places = tile.half_places(pips)
        if places is None:
            numbers.append(None)
            continue
        along = float((np.subtract(places[0], places[1])) @ shape.axis)
        if abs(along) < HALVES_APART * shape.long:
            numbers.append(None)
        else:
            numbers.append(pips[0] if along > 0 else pips[1])
    return numbers


def _other_number(pips: Pips, number: int) -> int:
    """The number on a tile's other half from the one showing ``number`` (one of its two)."""
    return pips[1] if number == pips[0] else pips[0]


def _end_towards(shape: _Shape, point: np.ndarray) -> int:
    """The end (contact 0 or 1) of a tile nearer ``point``."""
    return 0 if float((point - shape.centre) @ shape.axis) > 0 else 1


def _number_at(contact: int | None, pips: Pips, at_first_end: int | None) -> int | None:
    """The number a plain tile's reading shows at ``contact`` (an end), given the number on
    its first end; None where either is not known."""
    if contact not in (0, 1) or at_first_end is None or pips[0] == pips[1]:
        return None
    return at_first_end if contact == 0 else _other_number(pips, at_first_end)


PLAUSIBLE = 0.02
"""A reading the reader gives at least this chance is one the tile could be (for judging whether
a chain could start from a double: the reader's long tail of readings would allow anything)."""


def _likely_readings(tile: DetectedTile, at_least: float = 0.0) -> tuple[Pips, ...]:
    """A tile's reading and its other likely ones (those of at least ``at_least`` chance)."""
    return (tile.pips, *(pips for pips, chance in tile.alternatives if chance >= at_least))


@dataclass(frozen=True)
class _Ways:
    """Which end of each tile of a path the path comes in by (0 or 1: a contact, None where
    not known), and each tile's readings' numbers on its first end."""

    entries: tuple[int | None, ...]
    first_ends: Sequence[Sequence[int | None]]

    def inner(self, step: int, tile: int, choice: int, pips: Pips) -> int | None:
        """The number a reading shows towards the tile before, where known."""
        return _number_at(self.entries[step], pips, self.first_ends[tile][choice])


def _entries(
    tiles: Sequence[int],
    shapes: Sequence[_Shape],
    contact_of: dict[tuple[int, int], int],
    before: int | None = None,
    towards: np.ndarray | None = None,
) -> tuple[int | None, ...]:
    """Which end (contact) each tile of a path is entered by: the one joined to the tile
    before; the first tile's, the one joined to ``before`` (the engine, a line's first tile),
    else the end away from its next tile, else the end nearer ``towards`` (the hub, the part
    of a train before a gap)."""
    entries: list[int | None] = []
    for step, tile in enumerate(tiles):
        if step > 0:
            entries.append(contact_of.get((tile, tiles[step - 1])))
        elif before is not None and (tile, before) in contact_of:
            entries.append(contact_of[(tile, before)])
        elif len(tiles) > 1 and contact_of.get((tile, tiles[1]), 2) < 2:
            entries.append(1 - contact_of[(tile, tiles[1])])
        elif towards is not None:
            entries.append(_end_towards(shapes[tile], towards))
        else:
            entries.append(None)
    return tuple(entries)


def _best_readings(
    path: Sequence[int],
    start: int | None,
    options: Sequence[Sequence[tuple[Pips, float]]],
    ways: _Ways | None = None,
) -> tuple[list[int], list[int], list[bool]]:
    """For each tile of a path, the reading (index into its options) and the number it offers
    onwards that make the fewest joints fail, then the likeliest; and for each joint whether
    it fails. A failed joint leaves either half free to go onwards, unless ``ways`` tells
    which half of the tile the path comes in by and which number each reading shows there."""
    # state: (option, outer number) -> (failures, -log likelihood, back pointer)
    layers: list[dict[tuple[int, int], tuple[int, float, tuple[int, int] | None]]] = []
    previous: dict[tuple[int, int], tuple[int, float, tuple[int, int] | None]] = {}
    for step, tile in enumerate(path):
        current: dict[tuple[int, int], tuple[int, float, tuple[int, int] | None]] = {}
        for choice, (pips, chance) in enumerate(options[tile]):
            cost = -math.log(max(chance, 1e-6))
            turns = {(pips[0], pips[1]), (pips[1], pips[0])}
            inner_known = ways.inner(step, tile, choice, pips) if ways is not None else None
            if inner_known is not None:
                turns = {(inner_known, _other_number(pips, inner_known))}
            for inner, outer in turns:
                incoming: list[tuple[int, float, tuple[int, int] | None, int | None]] = []
                if step == 0:
                    incoming.append((0, 0.0, None, start))
                else:
                    for state, (fails, nll, _) in previous.items():
                        incoming.append((fails, nll, state, state[1]))
                for fails, nll, back, number in incoming:
                    broke = number is not None and number != inner
                    score = (fails + int(broke), nll + cost, back)
                    known = current.get((choice, outer))
                    if known is None or score[:2] < known[:2]:
                        current[(choice, outer)] = score
        layers.append(current)
        previous = current
    key: tuple[int, int] | None = min(previous, key=lambda k: previous[k][:2])
    picks: list[tuple[int, int]] = []
    for layer in reversed(layers):
        assert key is not None
        picks.append(key)
        key = layer[key][2]
    picks.reverse()
    choices = [choice for choice, _ in picks]
    outers = [outer for _, outer in picks]
    failed: list[bool] = []
    number = start
    for tile, choice, outer in zip(path, choices, outers, strict=True):
        pips = options[tile][choice][0]
        inner = _other_number(pips, outer)
        failed.append(number is not None and number != inner)
        number = outer
    return choices, outers, failed


# --------------------------------------------------------------------------- grouping


def group_table(
    tiles: Sequence[DetectedTile],
    hub_centre: tuple[float, float] | None = None,
    round_engine: int | None = None,
    hub_expected: bool = False,
    seen_empty: Sequence[NDArray[np.float32]] = (),
) -> TableLayout:
    """Group read tiles into the table's hub, trains, free ends and loose tiles.

    ``hub_centre`` (photo pixels) is where a hub detector saw the hub; without it the hub is
    the double from which the most chains start (three, or two with one not touching it),
    else the point the free ends of three or more chains face. A double with a tile against
    a long side lies crosswise in a line, as a block game's spinner does, and is a hub only
    where two more chains point at it (or a hub is expected and no other is found). The
    engine is the double at the hub's centre, if one is seen there. Without a hub, each chain
    is a line (block dominoes) with its arms from its first tile.

    ``round_engine`` is the number of the round's engine where the game knows it (a Mexican
    Train round): the set holds one double of it, so a tile read as that double is the
    engine wherever it lies among the trains, even with trains leaving it in one straight
    line, which alone reads as a block line's double; and where no tile reads so, a tile
    whose likely readings include it is tried as the engine, or failing that each unsure
    tile showing its number (ENGINE_HALF_BELOW; a misread engine breaks every train's first
    joint). That reading is kept only where it reads the table at least as well
    as the tiles alone (a game can have the round wrong).

    A double laid lengthwise with a chain off each end that starts with its number is the
    engine where nothing else is a hub (doubles inside a line lie crosswise; trains leave a
    bare engine from any side). A lone tile by the hub that no reading joins to the engine is
    loose, not a train, where other trains start with the engine's number.

    ``hub_expected`` says the table is a Mexican Train table, which always has a hub (as the
    referee page knows; a known round engine says so too): where no double is plainly a hub
    and no three chains point at one place, the double most chains start at is taken for the
    engine, a double with a train leaving each side in one line included, rather than
    reading the table as block dominoes.

    ``seen_empty``: outlines (photo pixels) where the photo was looked at and shows no tile. A
    train whose end is looked past there was seen to end: no chain farther on continues it
    across tiles not seen."""
    hub_expected = hub_expected or round_engine is not None
    group = functools.partial(_grouped, hub_centre=hub_centre, seen_empty=seen_empty)
    if round_engine is None:
        return group(tiles, round_engine=None, hub_expected=hub_expected, strays_loose=True)
    plain = group(tiles, round_engine=None, hub_expected=hub_expected)
    told = group(tiles, round_engine=round_engine, hub_expected=hub_expected)
    told_tiles, told_mended = tiles, False
    misread = None
    for candidate in _misread_engines(tiles, round_engine):
        tried = list(tiles)
        tried[candidate] = replace(
            tiles[candidate],
            pips=(round_engine, round_engine),
            confidence=min(tiles[candidate].confidence, UNSURE_CONFIDENCE),
        )
        layout = group(tried, round_engine=round_engine, hub_expected=hub_expected)
        if (
            layout.hub is not None
            and layout.hub.engine_tile == candidate
            and (len(layout.unsure), len(layout.loose)) < (len(told.unsure), len(told.loose))
        ):
            told, told_tiles, told_mended, misread = layout, tried, True, candidate
            break
    # The game's round is taken where it reads the table at least as well as the photo alone:
    # no more broken joints, no more tiles left out of the trains. Where the game has the
    # round wrong (rounds played in another order, scores not entered) its double lies in a
    # train, and a hub put there breaks joints or leaves the true engine and its trains out.
    told_key = (len(told.unsure), len(told.loose))
    if told_key > (len(plain.unsure), len(plain.loose)):
        return group(tiles, round_engine=None, hub_expected=hub_expected, strays_loose=True)
    final = group(
        told_tiles, round_engine=round_engine, hub_expected=hub_expected, strays_loose=True
    )
    if told_mended:
        assert misread is not None
        final = replace(final, mended=tuple(sorted({*final.mended, misread})))
    return final


ENGINE_MISREAD_FROM = 0.02
"""A tile is tried as a misread engine when the engine's double is among its likely readings
with at least this chance."""


ENGINE_HALF_BELOW = 0.9
"""Failing that, a tile showing the engine's number on one half is tried, likeliest first,
when the reader was less sure of it than this: an engine half hidden under a plastic hub's
rim reads as some other number."""


def _misread_engines(tiles: Sequence[DetectedTile], round_engine: int) -> list[int]:
    """The tiles that may be the round's engine misread, likeliest first, when no tile is
    read as it."""
    engine = (round_engine, round_engine)
    if any(tile.pips == engine for tile in tiles):
        return []
    chances = [
        (chance, index)
        for index, tile in enumerate(tiles)
        for pips, chance in tile.alternatives
        if pips == engine and chance >= ENGINE_MISREAD_FROM
    ]
    if chances:
        return [max(chances)[1]]
    halves = [
        (tile.confidence, index)
        for index, tile in enumerate(tiles)
        if round_engine in tile.pips and tile.confidence < ENGINE_HALF_BELOW
    ]
    return [index for _, index in sorted(halves)]


def _grouped(
    tiles: Sequence[DetectedTile],
    hub_centre: tuple[float, float] | None,
    round_engine: int | None,
    hub_expected: bool,
    seen_empty: Sequence[NDArray[np.float32]] = (),
    strays_loose: bool = False,
) -> TableLayout:
    """The tiles grouped; ``strays_loose``: a lone tile by the hub that no reading joins to
    the engine is loose (left out while readings are compared, which count broken joints)."""
    count = len(tiles)
    shapes = [_shape(tile.corners) for tile in tiles]
    doubles = [tile.pips[0] == tile.pips[1] for tile in tiles]
    joints = _joints(shapes, doubles)
    used, neighbours, component, groups = _linked(joints, count)

    engine_reads = [round_engine is not None and tile.pips == (round_engine,) * 2 for tile in tiles]
    engine, centre = _find_hub(
        shapes,
        [tile.pips for tile in tiles],
        [_likely_readings(tile, PLAUSIBLE) for tile in tiles],
        neighbours,
        used,
        component,
        hub_centre,
        engine_reads,
        hub_expected,
    )
    roots: list[int] = []  # without a hub, each line's first tile
    if centre is not None:
        unrelated = _against_crosswise_ends(joints, tiles, doubles, engine)
        if unrelated:
            joints = [joint for joint in joints if joint not in unrelated]
            used, neighbours, component, groups = _linked(joints, count)
        hub_number = tiles[engine].pips[0] if engine is not None else round_engine
        shows_hub_number = None
        if hub_number is not None:
            shows_hub_number = [
                any(hub_number in pips for pips in _likely_readings(tile)) for tile in tiles
            ]
        paths, loose = _hub_paths(
            groups, engine, centre, neighbours, shapes, doubles, used, seen_empty, shows_hub_number
        )
    else:
        paths, loose, roots = _line_paths(groups, neighbours, shapes, doubles)

    # Each tile may be read as it was or as one of its other likely tiles, though not as a
    # tile another one shows (a set holds each tile once). A layout's first tile stays as
    # read: its arms are checked against it.
    shown = {tile.pips for tile in tiles}
    options: list[list[tuple[Pips, float]]] = []
    for index, tile in enumerate(tiles):
        own = [(tile.pips, tile.confidence)]
        others = [(p, c) for p, c in tile.alternatives if p != tile.pips and p not in shown]
        options.append(own if index in roots else own + others)
    engine_number = _engine_number(tiles, engine, paths)
    if centre is not None and round_engine is not None and engine is None:
        engine_number = round_engine
    final: dict[int, int] = {}
    if engine is not None and not engine_reads[engine]:
        # The engine as the trains' first tiles have it: a misread engine breaks every
        # train's first joint, its likelier other double none.
        choice = _engine_choice(options[engine], tiles, paths)
        if choice:
            final[engine] = choice
            engine_number = options[engine][choice][0][0]

    # Which number lies at which end of a tile, where the reader's halves tell: a path is
    # read through each tile from the end it comes in by.
    first_ends = [
        _first_end_numbers(tile, shape, readings)
        for tile, shape, readings in zip(tiles, shapes, options, strict=True)
    ]
    contact_of = {(j.a, j.b): j.contact_a for j in joints} | {
        (j.b, j.a): j.contact_b for j in joints
    }

    def ways(
        members: Sequence[int], before: int | None = None, towards: np.ndarray | None = None
    ) -> _Ways:
        return _Ways(_entries(members, shapes, contact_of, before, towards), first_ends)

    # (path, end, failed joints, the number offered before the path's gap if it has one)
    read_paths: list[tuple[_Path, int, list[bool], int | None]] = []
    for path in paths:
        if path.from_root:
            root = path.tiles[0]
            side = None
            if len(path.tiles) > 1:
                # The first tile's number on the end the arm is laid against.
                contact = contact_of.get((root, path.tiles[1]))
                side = _number_at(contact, tiles[root].pips, first_ends[root][0])
            arm_ways = ways(path.tiles[1:], root)
            choices, outers, failed = _best_arm(
                path.tiles, tiles[root].pips, options, arm_ways, side
            )
        elif path.gap:
            # Tiles not seen lie between the two parts: the second is read on its own.
            before, after = path.tiles[: path.gap], path.tiles[path.gap :]
            choices, outers, failed = _best_readings(
                before, engine_number, options, ways(before, engine, centre)
            )
            after_ways = ways(after, None, shapes[before[-1]].centre)
            more = _best_readings(after, None, options, after_ways)
            choices, outers, failed = choices + more[0], outers + more[1], failed + more[2]
            alone = options[after[0]][more[0][0]][0]
            if len(after) == 1 and after_ways.inner(0, after[0], more[0][0], alone) is None:
                # A lone plain tile past the gap may face either way, unless the reader saw
                # which half shows which: else its end is a guess.
                failed[path.gap] = alone[0] != alone[1]
        else:
            start_number = engine_number if path.linked else None
            choices, outers, failed = _best_readings(
                path.tiles, start_number, options, ways(path.tiles, engine, centre)
            )
        for member, choice in zip(path.tiles, choices, strict=True):
            final.setdefault(member, choice)
        gap_end = outers[path.gap - 1] if path.gap and not path.from_root else None
        read_paths.append((path, outers[-1], failed, gap_end))

    if strays_loose and centre is not None and engine_number is not None:
        # A lone tile by the hub that no reading joins to the engine is a tile laid down
        # beside it, not a train: every train starts with the engine's number. Unless no
        # train does, which says the engine is misread.
        joined = any(not path.from_root and not failed[0] for path, _, failed, _ in read_paths)
        strays = [
            (path, end, failed, gap_end)
            for path, end, failed, gap_end in read_paths
            if joined and len(path.tiles) == 1 and not path.from_root and not path.gap and failed[0]
        ]
        read_paths = [entry for entry in read_paths if entry not in strays]
        loose = [*loose, *(path.tiles[0] for path, _, _, _ in strays)]

    # A line's first tile offers its numbers on every side no arm is laid against, up to two
    # (a line of one tile has two ends).
    for root in roots:
        arms = [(path, end) for path, end, _, _ in read_paths if path.tiles[0] == root]
        sides = _root_sides(tiles[root].pips, arms, options, final)
        for number in sides[: _open_sides(root, len(arms), doubles, used)]:
            read_paths.append((_Path((root,), True), number, [False], None))

    unsure: set[int] = set()
    for path, _, failed, _ in read_paths:
        for step, broke in enumerate(failed):
            if broke:
                unsure.add(path.tiles[step])
                if step > 0:
                    unsure.add(path.tiles[step - 1])
                elif engine is not None:
                    unsure.add(engine)
    out_tiles: list[DetectedTile] = []
    for index, tile in enumerate(tiles):
        choice = final.get(index, 0)
        pips, chance = options[index][choice]
        confidence = tile.confidence if choice == 0 else chance
        if index in unsure:
            confidence = min(confidence, UNSURE_CONFIDENCE)
        out_tiles.append(replace(tile, pips=pips, confidence=confidence))

    trains = [
        _train(path, end, out_tiles, centre is not None, gap_end)
        for path, end, _, gap_end in read_paths
    ]
    in_trains = {index for train in trains for index in train.tiles}
    hub = None
    if centre is not None:
        hub = Hub(engine, (int(round(centre[0])), int(round(centre[1]))))
    return TableLayout(
        tiles=tuple(out_tiles),
        hub=hub,
        trains=tuple(trains),
        open_ends=tuple(sorted(train.end for train in trains)),
        loose=tuple(sorted(i for i in loose if i not in in_trains and i != engine)),
        unsure=tuple(sorted(unsure)),
        mended=tuple(sorted(index for index, choice in final.items() if choice > 0)),
    )


def _linked(
    joints: Sequence[_Joint], count: int
) -> tuple[set[tuple[int, int]], list[list[int]], list[int], dict[int, list[int]]]:
    """The contacts the joints use, each tile's neighbours, its component and the components'
    members."""
    used = {(j.a, j.contact_a) for j in joints} | {(j.b, j.contact_b) for j in joints}
    neighbours: list[list[int]] = [[] for _ in range(count)]
    for joint in joints:
        neighbours[joint.a].append(joint.b)
        neighbours[joint.b].append(joint.a)
    component = _components(neighbours)
    groups: dict[int, list[int]] = {}
    for index in range(count):
        groups.setdefault(component[index], []).append(index)
    return used, neighbours, component, groups


def _against_crosswise_ends(
    joints: Sequence[_Joint],
    tiles: Sequence[DetectedTile],
    doubles: Sequence[bool],
    engine: int | None,
) -> list[_Joint]:
    """Around a hub, the joints of a tile touching the end of a double that lies crosswise in
    a train, the tile showing none of the double's number (nor likely read so). Mexican Train
    lays nothing off a double's ends but under the branching-doubles house rule, where a
    branch shows the double's number: this is another train's tile lying against it (a train
    bent back round the table, ending at the double), and walking on through it would give
    that train's tiles to this one."""
    crosswise = {
        index
        for joint in joints
        for index, contact in ((joint.a, joint.contact_a), (joint.b, joint.contact_b))
        if doubles[index] and index != engine and contact >= 2
    }
    unrelated = []
    for joint in joints:
        for double, contact, other in (
            (joint.a, joint.contact_a, joint.b),
            (joint.b, joint.contact_b, joint.a),
        ):
            if double not in crosswise or contact >= 2:
                continue
            number = tiles[double].pips[0]
            if all(number not in pips for pips in _likely_readings(tiles[other])):
                unrelated.append(joint)
                break
    return unrelated


def _hub_paths(
    groups: dict[int, list[int]],
    engine: int | None,
    centre: np.ndarray,
    neighbours: Sequence[Sequence[int]],
    shapes: Sequence[_Shape],
    doubles: Sequence[bool],
    used: set[tuple[int, int]],
    seen_empty: Sequence[NDArray[np.float32]],
    shows_hub_number: Sequence[bool] | None = None,
) -> tuple[list[_Path], list[int]]:
    """The trains from a hub, and the loose tiles (``shows_hub_number``: which tiles show the
    engine's number, read so or likely, where it is known)."""
    paths: list[_Path] = []
    for members in groups.values():
        if engine is not None and engine in members:
            seen = {engine}
            for child in neighbours[engine]:
                if child not in seen:
                    paths.extend(_walk(child, seen, neighbours, shapes, from_root=False))
            continue
        start, linked = _hub_start(members, shapes, centre, used, doubles, shows_hub_number)
        walked = _walk(start, set(), neighbours, shapes, from_root=False)
        paths.extend(replace(path, linked=linked and not path.from_root) for path in walked)
    paths = _bridged(paths, shapes, doubles, used, seen_empty)
    # A lone tile neither facing the hub nor lying on from a train is not part of one.
    lone = [path for path in paths if not path.linked and not path.gap and len(path.tiles) == 1]
    return [path for path in paths if path not in lone], [path.tiles[0] for path in lone]


def _line_paths(
    groups: dict[int, list[int]],
    neighbours: Sequence[Sequence[int]],
    shapes: Sequence[_Shape],
    doubles: Sequence[bool],
) -> tuple[list[_Path], list[int], list[int]]:
    """Without a hub: the arms of each line from its first tile, the loose tiles, and each
    line's first tile. A lone tile is a line only when it is the photo's only tile."""
    lines = [members for members in groups.values() if len(members) > 1]
    if not lines and sum(len(members) for members in groups.values()) == 1:
        lines = list(groups.values())
    loose = [i for members in groups.values() if members not in lines for i in members]
    paths: list[_Path] = []
    roots: list[int] = []
    for members in lines:
        root = _first_tile(members, neighbours, doubles)
        roots.append(root)
        seen = {root}
        for child in neighbours[root]:
            if child not in seen:
                for path in _walk(child, seen, neighbours, shapes, from_root=False):
                    head = path.tiles if path.from_root else (root, *path.tiles)
                    paths.append(_Path(head, True))
    return paths, loose, roots


def _train(
    path: _Path, end: int, tiles: Sequence[DetectedTile], hub: bool, gap_end: int | None = None
) -> Train:
    last = tiles[path.tiles[-1]].pips
    # Without a hub, an arm of the first tile alone is that tile's free side, not a double
    # left open at a train's end.
    open_double = last[0] == last[1] and (hub or len(path.tiles) > 1)
    belief = min(tiles[index].confidence for index in path.tiles)
    if not path.linked:
        belief *= UNLINKED_TRAIN
    unseen = None if gap_end is None else (path.gap, gap_end)
    linked = path.from_root or path.linked or path.gap > 0
    return Train(path.tiles, end, open_double, belief, linked=linked, unseen=unseen)


def _best_arm(
    head: tuple[int, ...],
    root_pips: Pips,
    options: Sequence[Sequence[tuple[Pips, float]]],
    ways: _Ways | None = None,
    laid_against: int | None = None,
) -> tuple[list[int], list[int], list[bool]]:
    """An arm of a line from its first tile: the arm's tiles checked against whichever of
    the first tile's numbers fits them best, or against ``laid_against`` where the first tile's
    halves tell which number the arm is laid against."""
    rest = head[1:]
    if not rest:
        return [0], [root_pips[1]], [False]
    best: tuple[int, float, list[int], list[int], list[bool], int] | None = None
    sides = dict.fromkeys(root_pips) if laid_against is None else {laid_against: None}
    for side in sides:
        choices, outers, failed = _best_readings(rest, side, options, ways)
        nll = sum(
            -math.log(max(options[t][c][1], 1e-6)) for t, c in zip(rest, choices, strict=True)
        )
        key = (sum(failed), nll)
        if best is None or key < best[:2]:
            best = (key[0], key[1], choices, outers, failed, side)
    assert best is not None
    _, _, choices, outers, failed, side = best
    other = _other_number(root_pips, side)
    return [0, *choices], [other, *outers], [False, *failed]


def _open_sides(root: int, arms: int, doubles: Sequence[bool], used: set[tuple[int, int]]) -> int:
    """How many free ends a line's first tile adds itself. The line has two ends; its arms
    take them first. A spinner (a double with three or four tiles against it, one against a
    long side) carries its line across, through its long sides: a long side with nothing
    against it is an end, and its ends add ends only where branches are laid. A double with
    just two tiles against it, one at a long side and one at an end, is where its line turns
    a corner, and adds no end: branches leave a spinner's ends only once its long sides are
    taken."""
    if doubles[root]:
        across = sum(1 for contact in (2, 3) if (root, contact) in used)
        along = sum(1 for contact in (0, 1) if (root, contact) in used)
        if across and along and across + along >= 3:
            return 2 - across
    return max(0, 2 - arms)


def _root_sides(
    pips: Pips,
    arms: Sequence[tuple[_Path, int]],
    options: Sequence[Sequence[tuple[Pips, float]]],
    final: dict[int, int],
) -> list[int]:
    """The numbers a line's first tile offers on the sides no arm is laid against."""
    if pips[0] == pips[1]:
        return [pips[0], pips[0]]
    sides = [pips[0], pips[1]]
    for path, _ in arms:
        if len(path.tiles) < 2:
            continue
        child = options[path.tiles[1]][final.get(path.tiles[1], 0)][0]
        taken = next((number for number in sides if number in child), sides[0] if sides else None)
        if taken is not None:
            sides.remove(taken)
    return sides


def _components(neighbours: Sequence[Sequence[int]]) -> list[int]:
    label = [-1] * len(neighbours)
    for seed in range(len(neighbours)):
        if label[seed] >= 0:
            continue
        label[seed] = seed
        queue = deque([seed])
        while queue:
            here = queue.popleft()
            for there in neighbours[here]:
                if label[there] < 0:
                    label[there] = seed
                    queue.append(there)
    return label


# A chain not seen to start at the hub continues a train whose free end faces it from at most
# this many half tile lengths away: one to three tiles the finder missed lie between. A lone tile
# continues one only across a single missing tile: farther off it is more likely a tile laid
# down by a player.
BRIDGE_REACH = 7.0
BRIDGE_REACH_LONE = 3.6
BRIDGE_FACING = 0.9


def _bridged(
    paths: Sequence[_Path],
    shapes: Sequence[_Shape],
    doubles: Sequence[bool],
    used: set[tuple[int, int]],
    seen_empty: Sequence[NDArray[np.float32]] = (),
) -> list[_Path]:
    """Trains with a gap mended: a chain not seen to start at the hub, lying straight on
    from a train's free end, is that train's continuation (with the tiles between not seen),
    the nearest first, unless the photo was seen to show no tile just past that end. The
    train is then believed less, as its link was not seen."""
    trains = [path for path in paths if path.linked and not path.from_root]
    pieces = [path for path in paths if not path.linked and not path.from_root]
    offers: list[tuple[float, int, int]] = []
    for t, train in enumerate(trains):
        last = train.tiles[-1]
        ends = _free_ends(last, shapes[last], doubles[last], used)
        for p, piece in enumerate(pieces):
            first = piece.tiles[0]
            unit = (shapes[last].stride + shapes[first].stride) / 2
            for point, outward in ends:
                for other, facing_back in _free_ends(first, shapes[first], doubles[first], used):
                    towards = other - point
                    distance = float(np.linalg.norm(towards))
                    reach = BRIDGE_REACH if len(piece.tiles) > 1 else BRIDGE_REACH_LONE
                    if not unit * JOINT_RANGE[1] < distance <= reach * unit:
                        continue
                    towards /= distance
                    # The next tile's middle lies one and a half half-lengths on.
                    next_middle = point + outward * 1.5 * unit
                    if (
                        towards @ outward >= BRIDGE_FACING
                        and -towards @ facing_back >= BRIDGE_FACING
                        and not any(contains(o, next_middle) for o in seen_empty)
                    ):
                        offers.append((distance / unit, t, p))
    offers.sort()
    joined: dict[int, int] = {}
    taken: set[int] = set()
    for _, t, p in offers:
        if t not in joined and p not in taken:
            joined[t] = p
            taken.add(p)
    out: list[_Path] = []
    for t, train in enumerate(trains):
        if t in joined:
            piece = pieces[joined[t]]
            out.append(_Path(train.tiles + piece.tiles, False, False, gap=len(train.tiles)))
        else:
            out.append(train)
    out.extend(piece for p, piece in enumerate(pieces) if p not in taken)
    out.extend(path for path in paths if path.from_root)
    return out


def _walk(
    start: int,
    seen: set[int],
    neighbours: Sequence[Sequence[int]],
    shapes: Sequence[_Shape],
    from_root: bool,
) -> list[_Path]:
    """The trains from ``start`` outwards, marking their tiles ``seen``: straight on through
    each tile, and from a tile where the chain branches (a spinner) a new train for each
    other branch, starting at that tile."""
    seen.add(start)
    paths: list[_Path] = []
    pending: list[tuple[list[int], bool]] = [([start], from_root)]
    while pending:
        tiles, rooted = pending.pop(0)
        while True:
            here = tiles[-1]
            onward = [n for n in neighbours[here] if n not in seen]
            if not onward:
                break
            seen.update(onward)
            came_from = shapes[tiles[-2]].centre if len(tiles) > 1 else None
            onward.sort(key=lambda n: _turn(came_from, shapes[here].centre, shapes[n].centre))
            for branch in onward[1:]:
                pending.append(([here, branch], True))
            tiles.append(onward[0])
        paths.append(_Path(tuple(tiles), rooted))
    return paths


def _turn(came_from: np.ndarray | None, here: np.ndarray, there: np.ndarray) -> float:
    """How far a chain turns going on to ``there``: the straightest way is the main line."""
    if came_from is None:
        return 0.0
    before, after = here - came_from, there - here
    denominator = float(np.linalg.norm(before) * np.linalg.norm(after)) or 1.0
    return -float(before @ after) / denominator


def _find_hub(
    shapes: Sequence[_Shape],
    pips: Sequence[Pips],
    plausible: Sequence[tuple[Pips, ...]],
    neighbours: Sequence[Sequence[int]],
    used: set[tuple[int, int]],
    component: Sequence[int],
    hub_centre: tuple[float, float] | None,
    engine_reads: Sequence[bool],
    hub_expected: bool,
) -> tuple[int | None, np.ndarray | None]:
    """The engine's index (if seen) and the hub's centre (if there is a hub). A tile read as
    the round's engine (``engine_reads``) is the engine if chains start at it, or if no other
    double is a hub. Where fewer than three chains point at a double with nothing against
    it, one starts from it only if the tile pointing could show the double's number (in any
    of the ``plausible`` readings of each: every train starts with the engine's number, and
    a hand laid down near a double does not)."""
    doubles = [a == b for a, b in pips]
    if hub_centre is not None:
        given = np.asarray(hub_centre, np.float64)
        return _engine_near(given, shapes, doubles), given
    board = _Board(
        shapes,
        pips,
        doubles,
        neighbours,
        used,
        component,
        could_show=[frozenset(n for pair in readings for n in pair) for readings in plausible],
        could_be_double=[frozenset(a for a, b in readings if a == b) for readings in plausible],
        chain_sizes=Counter(component),
    )
    candidates = {i: _hub_candidate(board, i) for i in range(len(shapes)) if doubles[i]}
    best = max((c.key for c in candidates.values() if c.hub), default=None)
    known = max((c.key for i, c in candidates.items() if engine_reads[i]), default=None)

    def the_double(key: tuple[int, int, int]) -> tuple[int, np.ndarray]:
        return -key[2], shapes[-key[2]].centre

    if known is not None and (known[0] > 0 or best is None):
        return the_double(known)
    if best is not None:
        return the_double(best)
    # No engine seen as the start of chains: the hub may still be where three or more chains
    # point (an engine the finder missed, or one standing in a plastic hub).
    pointed = _radiating_point(shapes, doubles, used, component)
    seen_there = None if pointed is None else _engine_near(pointed, shapes, doubles)
    if seen_there is not None and candidates[seen_there].key[0] < 2:
        # A double lies where the chains point, and fewer than two could start from it
        # (their tiles cannot show its number): a hand laid down round a double.
        pointed = None
    if pointed is not None:
        return seen_there, pointed
    lengthwise = max((c.key for c in candidates.values() if c.lengthwise), default=None)
    if lengthwise is not None:
        # A chain off each end of a double laid lengthwise, and no other hub: doubles inside
        # a line lie crosswise, and trains leave a bare engine from any side, its ends too.
        return the_double(lengthwise)
    fallback = max((c.key for c in candidates.values() if c.key[0] > 0), default=None)
    if hub_expected and fallback is not None:
        return the_double(fallback)
    return None, None


@dataclass(frozen=True)
class _Board:
    """What _find_hub weighs each double against: the table's tiles, their chains, and the
    numbers each tile could show (its plausible readings)."""

    shapes: Sequence[_Shape]
    pips: Sequence[Pips]
    doubles: Sequence[bool]
    neighbours: Sequence[Sequence[int]]
    used: set[tuple[int, int]]
    component: Sequence[int]
    could_show: Sequence[frozenset[int]]
    could_be_double: Sequence[frozenset[int]]
    chain_sizes: Counter[int]


@dataclass(frozen=True)
class _HubCandidate:
    """How a double would do as the hub."""

    key: tuple[int, int, int]
    """(chains that could start from it, of them across a gap, minus its index): the
    greatest key wins, the first double among equals."""
    hub: bool
    """Chains start from it as from a hub."""
    lengthwise: bool
    """It lies lengthwise with a tile off each end showing its number, nothing across it."""


def _hub_candidate(board: _Board, candidate: int) -> _HubCandidate:
    """Double ``candidate`` weighed as the hub (see _find_hub)."""
    shapes, pips, doubles, used, component = (
        board.shapes,
        board.pips,
        board.doubles,
        board.used,
        board.component,
    )
    centre = shapes[candidate].centre
    # Chains starting here: other chains whose free end faces it, and tiles against it.
    facing_tiles = [
        i
        for i in range(len(shapes))
        if component[i] != component[candidate]
        and any(
            _facing(point, outward, centre, shapes[i].stride)
            for point, outward in _free_ends(i, shapes[i], doubles[i], used)
        )
    ]
    touching = _branches_at(candidate, used, doubles)
    chains_facing = {component[i] for i in facing_tiles}
    if (
        touching == 0
        and len(chains_facing) < RADIATING_CHAINS
        and not _share_a_number(facing_tiles, component, board.could_show)
    ):
        # Two chains pointing at a double with nothing against it may be tiles laid down
        # near it: they start from it only if they could show its number. A double with a
        # train against it, or three or more chains round it, is a hub whatever was read (a
        # train's first tile may be missed, a misread engine is mended from its trains), and
        # so are two chains whose tiles could all show one number.
        facing_tiles = [
            i
            for i in facing_tiles
            if not board.could_show[i].isdisjoint(board.could_be_double[candidate])
        ]
    facing = {component[i] for i in facing_tiles}
    key = (len(facing) + touching, len(facing), -candidate)
    # Two tiles against a double and nothing else is a double inside a line. One chain
    # pointing at a double across a gap, nothing against it, is a hub's only train: a line's
    # tiles lie against its first double. That train starts with the double's number (else
    # it is a line's end pointing at a double laid down near it), and the table's other
    # lines, if any, are not all out of the hub's reach (every chain round a hub is a train
    # from it, seen to start there or not: beside a line far off, the double and the tile
    # pointing at it are a hand laid down).
    others = [
        label
        for label, size in board.chain_sizes.items()
        if size >= 2 and label not in facing and label != component[candidate]
    ]
    lone_train = (
        len(facing) == 1
        and touching == 0
        and any(pips[candidate][0] in pips[i] for i in facing_tiles)
        and (
            not others
            or any(
                _end_within_reach(label, centre, shapes, doubles, used, component)
                for label in others
            )
        )
    )
    crosswise = _crosswise(candidate, used)
    ends_taken = (candidate, 0) in used and (candidate, 1) in used
    lengthwise = (
        not crosswise
        and ends_taken
        and all(pips[candidate][0] in pips[i] for i in board.neighbours[candidate])
    )
    enough = lone_train or not (len(facing) + touching < 2 or (not facing and touching < 3))
    # A tile against a long side: the double lies crosswise in a line, as a block game's
    # spinner does. A spinner's ends carry one tile each, so it is a hub only where other
    # chains point at it too, or where one points at an end that already carries a tile (two
    # trains leaving a bare engine's end aslant), or where a hub is expected and nothing else
    # is one (the fallback in _find_hub).
    shared_end = crosswise and any(
        pips[candidate][0] in board.could_show[i] and _at_taken_end(board, candidate, i)
        for i in facing_tiles
    )
    hub = enough and not (crosswise and len(facing) < 2 and not shared_end)
    return _HubCandidate(key, hub, lengthwise)


SHARED_END_REACH = 0.75
"""A free end this close to a double's end (in the double's lengths, middle of half to middle
of half) is laid at that end: two tiles aslant off one end of a bare engine lie about 0.6
apart."""


def _at_taken_end(board: _Board, double: int, tile: int) -> bool:
    """Whether a free end of ``tile`` lies by an end of ``double`` that another tile is
    already laid against."""
    shape = board.shapes[double]
    ends = shape.contacts(True)[:2]
    for point, _ in _free_ends(tile, board.shapes[tile], board.doubles[tile], board.used):
        for number, (end, _) in enumerate(ends):
            near = float(np.linalg.norm(point - end)) <= SHARED_END_REACH * shape.long
            if near and (double, number) in board.used:
                return True
    return False


def _end_within_reach(
    label: int,
    centre: np.ndarray,
    shapes: Sequence[_Shape],
    doubles: Sequence[bool],
    used: set[tuple[int, int]],
    component: Sequence[int],
) -> bool:
    """Whether a free end of chain ``label`` lies within a hub's reach of ``centre``, facing
    it or not (a train whose first tile was missed starts near its hub all the same)."""
    return any(
        float(np.linalg.norm(centre - point)) <= HUB_REACH * shapes[i].stride
        for i in range(len(shapes))
        if component[i] == label
        for point, _ in _free_ends(i, shapes[i], doubles[i], used)
    )


def _share_a_number(
    tiles: Sequence[int], component: Sequence[int], could_show: Sequence[frozenset[int]]
) -> bool:
    """Whether two or more chains' tiles (``tiles``, one chain each or more) could all show one
    number: each chain's tiles together, as trains from one engine start with its number."""
    by_chain: dict[int, set[int]] = {}
    for i in tiles:
        by_chain.setdefault(component[i], set()).update(could_show[i])
    if len(by_chain) < 2:
        return False
    return bool(set.intersection(*by_chain.values()))


def _engine_near(
    centre: np.ndarray, shapes: Sequence[_Shape], doubles: Sequence[bool]
) -> int | None:
    """The double lying at the hub's centre, if one is seen there."""
    near = [
        i
        for i in range(len(shapes))
        if doubles[i] and np.linalg.norm(shapes[i].centre - centre) <= 2.0 * shapes[i].short
    ]
    return min(near, key=lambda i: float(np.linalg.norm(shapes[i].centre - centre)), default=None)


RADIATING_CHAINS = 3


def _radiating_point(
    shapes: Sequence[_Shape],
    doubles: Sequence[bool],
    used: set[tuple[int, int]],
    component: Sequence[int],
) -> np.ndarray | None:
    """The point the free ends of the most chains (at least RADIATING_CHAINS) face, within
    a hub's reach: where an unseen engine or a plastic hub lies."""
    points, ways, units, owners = [], [], [], []
    for i, shape in enumerate(shapes):
        if _crosswise(i, used):
            continue  # a double across a chain: no train starts from its ends
        for point, outward in _free_ends(i, shape, doubles[i], used):
            points.append(point)
            ways.append(outward)
            units.append(shape.stride)
            owners.append(component[i])
    if len(set(owners)) < RADIATING_CHAINS:
        return None
    p, w = np.asarray(points), np.asarray(ways)
    unit = np.asarray(units)
    owner = np.asarray(owners)
    # Where each two ends' lines cross, ahead of both and within reach of both.
    a, b = np.triu_indices(len(p), k=1)
    keep = owner[a] != owner[b]
    a, b = a[keep], b[keep]
    cross = w[a, 0] * w[b, 1] - w[a, 1] * w[b, 0]
    steady = np.abs(cross) > 0.2  # lines at a fair angle: their crossing is well placed
    a, b, cross = a[steady], b[steady], cross[steady]
    if len(a) == 0:
        return None
    gap = p[b] - p[a]
    along_a = (gap[:, 0] * w[b, 1] - gap[:, 1] * w[b, 0]) / cross
    along_b = (gap[:, 0] * w[a, 1] - gap[:, 1] * w[a, 0]) / cross
    near = (
        (along_a > 0)
        & (along_b > 0)
        & (along_a <= HUB_REACH * unit[a])
        & (along_b <= HUB_REACH * unit[b])
    )
    if not np.any(near):
        return None
    candidates = p[a[near]] + w[a[near]] * along_a[near][:, None]
    # How many chains face each candidate.
    towards = candidates[:, None, :] - p[None, :, :]
    distance = np.linalg.norm(towards, axis=2)
    cosine = np.einsum("cij,ij->ci", towards, w) / np.maximum(distance, 1e-6)
    facing = (distance <= HUB_REACH * unit[None, :]) & (cosine >= HUB_FACING)
    chains = np.array([len(set(owner[row].tolist())) for row in facing])
    best = int(np.argmax(chains))
    if chains[best] < RADIATING_CHAINS:
        return None
    # The point nearest every facing end's line (least squares).
    rows = facing[best]
    normal = np.column_stack([-w[rows, 1], w[rows, 0]])
    offset = np.einsum("ij,ij->i", normal, p[rows])
    centre, *_ = np.linalg.lstsq(normal, offset, rcond=None)
    return np.asarray(centre, np.float64)


def _crosswise(index: int, used: set[tuple[int, int]]) -> bool:
    """Whether a tile lies across a chain: a double with a tile against a long side."""
    return (index, 2) in used or (index, 3) in used


def _branches_at(index: int, used: set[tuple[int, int]], doubles: Sequence[bool]) -> int:
    """How many of a double's contacts another tile touches."""
    return sum(1 for contact in range(4 if doubles[index] else 2) if (index, contact) in used)


def _hub_start(
    members: Sequence[int],
    shapes: Sequence[_Shape],
    centre: np.ndarray,
    used: set[tuple[int, int]],
    doubles: Sequence[bool],
    shows_hub_number: Sequence[bool] | None = None,
) -> tuple[int, bool]:
    """A chain's first tile from the hub and whether its free end was seen facing the hub
    (else the tile nearest the hub). Of several facing it (a train bent back towards the hub,
    a crosswise double in it come near), one showing the engine's number is first: every
    train starts with it."""
    facing = [
        i
        for i in members
        if any(
            _facing(point, outward, centre, shapes[i].stride)
            for point, outward in _free_ends(i, shapes[i], doubles[i], used)
        )
    ]
    if shows_hub_number is not None:
        facing = [i for i in facing if shows_hub_number[i]] or facing
    nearest = sorted(facing or members, key=lambda i: np.linalg.norm(shapes[i].centre - centre))
    return nearest[0], bool(facing)


def _first_tile(
    members: Sequence[int], neighbours: Sequence[Sequence[int]], doubles: Sequence[bool]
) -> int:
    """A line's first tile: a spinner (a double with three or four tiles against it), else
    the double nearest the line's middle, else its middle tile. A double at each end of a
    line could each be the first tile with one arm; neither is more likely, and the line is
    read from its middle, each end an open double."""
    spinners = [i for i in members if doubles[i] and len(neighbours[i]) >= 3]
    if spinners:
        return spinners[0]
    ends = [i for i in members if len(neighbours[i]) <= 1] or list(members)
    order = _longest_path(ends[0], neighbours)
    middle = (len(order) - 1) / 2
    line_doubles = [step for step, i in enumerate(order) if doubles[i]]
    if len(order) > 1 and line_doubles == [0, len(order) - 1]:
        line_doubles = []
    if line_doubles:
        return order[min(line_doubles, key=lambda step: (abs(step - middle), step))]
    return order[int(math.floor(middle))]


def _longest_path(start: int, neighbours: Sequence[Sequence[int]]) -> list[int]:
    """The path from ``start`` to the tile farthest from it along the chain."""
    parent = {start: -1}
    queue = deque([start])
    last = start
    while queue:
        last = queue.popleft()
        for there in neighbours[last]:
            if there not in parent:
                parent[there] = last
                queue.append(there)
    path = [last]
    while parent[path[-1]] >= 0:
        path.append(parent[path[-1]])
    return path


def _engine_choice(
    engine_options: Sequence[tuple[Pips, float]],
    tiles: Sequence[DetectedTile],
    paths: Sequence[_Path],
) -> int:
    """Which of the engine's readings (a double) most trains start with: its own unless
    another one fits more of them."""
    firsts = [tiles[path.tiles[0]].pips for path in paths if _from_hub(path)]
    best, best_count = 0, -1
    for choice, (pips, _) in enumerate(engine_options):
        if pips[0] != pips[1]:
            continue
        fitting = sum(1 for first in firsts if pips[0] in first)
        if fitting > best_count:
            best, best_count = choice, fitting
    return best


def _from_hub(path: _Path) -> bool:
    """The path's first tile is laid against the hub (seen so, or across a gap further on)."""
    return not path.from_root and (path.linked or path.gap > 0)


def _engine_number(
    tiles: Sequence[DetectedTile],
    engine: int | None,
    paths: Sequence[_Path],
) -> int | None:
    """The engine's number: the engine double's, else the number most first tiles hold."""
    if engine is not None:
        return tiles[engine].pips[0]
    votes: dict[int, int] = {}
    for path in paths:
        if not _from_hub(path):
            continue
        for number in set(tiles[path.tiles[0]].pips):
            votes[number] = votes.get(number, 0) + 1
    if not votes:
        return None
    return max(votes, key=lambda number: (votes[number], number))


# --------------------------------------------------------------------------- the next tile

# Where a train's next tile would lie, its near end this many short sides beyond the last
# tile's free end (players leave small gaps; the outline fitter closes the rest).
ACROSS = 2
"""``turn`` for the double laid crosswise on a train's tile (next_tile_outline)."""
NEXT_TILE_GAP = 0.05


def next_tile_outline(
    layout: TableLayout, train: Train, after: int = -1, turn: int = 0
) -> NDArray[np.float32] | None:
    """Where the tile after ``train``'s last one (or the one at position ``after``) would lie
    if the train ran straight on: an outline the size of that tile, in photo pixels, in the
    pipeline's corner order.

    The train's way out is from the tile before (or from the hub, for a train's first tile) to
    that tile; a double may lie crosswise to it. A line's first tile offers its free side
    away from its arm. None where that way is not known (a line's first tile with no arm) or
    a plain tile lies across it.

    ``turn`` 1 or -1: the tile where the train would turn a right angle that way (as at the
    table's edge), its first half beside that tile's last; ACROSS: a double laid crosswise on
    it; None past a double."""
    position = after % len(train.tiles)
    here = layout.tiles[train.tiles[position]]
    if position >= 1:
        before = layout.tiles[train.tiles[position - 1]]
        return _outline_beyond(here, _shape(before.corners).centre, before, turn)
    if layout.hub is None:
        arm = _arm_from(layout, train.tiles[position])
        if arm is None:
            return None
        return _outline_beyond(here, _shape(arm.corners).centre, None, turn)
    return _outline_beyond(here, np.asarray(layout.hub.centre, np.float64), None, turn)


def _arm_from(layout: TableLayout, root: int) -> DetectedTile | None:
    """The second tile of a line's arm laid on ``root`` (its first tile), if it has one."""
    for train in layout.trains:
        if len(train.tiles) >= 2 and train.tiles[0] == root:
            return layout.tiles[train.tiles[1]]
    return None


def tile_before_outline(layout: TableLayout, train: Train) -> NDArray[np.float32] | None:
    """Where a tile would lie between the hub and ``train``'s first tile, laid straight
    towards the hub (for a train not seen to start there). None without a hub."""
    if layout.hub is None:
        return None
    first = layout.tiles[train.tiles[0]]
    centre = _shape(first.corners).centre
    if len(train.tiles) >= 2:
        after = layout.tiles[train.tiles[1]]
        return _outline_beyond(first, _shape(after.corners).centre, after)
    away = 2 * centre - np.asarray(layout.hub.centre, np.float64)
    return _outline_beyond(first, away, None)


def _outline_beyond(
    here: DetectedTile,
    before: NDArray[np.float64],
    before_tile: DetectedTile | None,
    turn: int = 0,
) -> NDArray[np.float32] | None:
    """The outline of a tile laid on ``here``, on the side away from the point ``before`` (the
    previous tile's centre, ``before_tile``, or the hub's), straight on or turned (``turn``)."""
    last = _shape(here.corners)
    way = last.centre - before
    apart = float(np.linalg.norm(way))
    if apart < 1.0:
        return None
    way = way / apart
    along = float(way @ last.axis)
    length = last.long
    if abs(along) < 0.5:
        if here.pips[0] != here.pips[1]:
            return None
        reach = last.short / 2  # a double laid crosswise: its long side faces on
    else:
        way = last.axis if along > 0 else -last.axis
        reach = last.long / 2
        if before_tile is not None and _in_line(before_tile, way, apart, last):
            # Two tiles in line show how far apart the train's tiles lie, which an outline
            # drawn a little long or short does not.
            length = apart - NEXT_TILE_GAP * last.short
            reach = apart - length / 2 - NEXT_TILE_GAP * last.short
    centre = last.centre + way * (reach + NEXT_TILE_GAP * last.short + length / 2)
    if turn == ACROSS:
        if here.pips[0] == here.pips[1]:
            return None
        # A double laid crosswise on it: its long side against this tile's end.
        centre = last.centre + way * (reach + NEXT_TILE_GAP * last.short + last.short / 2)
        way = np.array([-way[1], way[0]])
    elif turn:
        if here.pips[0] == here.pips[1]:
            return None
        side = np.array([-way[1], way[0]]) * turn
        # The turned tile's first half lies beside this tile's last half.
        centre = (
            last.centre
            + way * (last.long / 4)
            + side * (last.short / 2 + NEXT_TILE_GAP * last.short + length / 2)
        )
        way = side
    across = np.array([-way[1], way[0]])
    half_long, half_short = way * length / 2, across * last.short / 2
    corners = np.array(
        [
            centre - half_long - half_short,
            centre + half_long - half_short,
            centre + half_long + half_short,
            centre - half_long + half_short,
        ],
        np.float32,
    )
    return order_corners(corners)


def lone_tiles_towards_hub(layout: TableLayout) -> list[Train]:
    """Each loose tile (not a double) whose end faces the hub within a train's reach of it, as
    a train of its own not seen to start there: a train whose first tiles the finder missed
    leaves its next tile lying alone, pointing at the hub."""
    if layout.hub is None:
        return []
    hub = np.asarray(layout.hub.centre, np.float64)
    lone: list[Train] = []
    for index in layout.loose:
        tile = layout.tiles[index]
        if tile.pips[0] == tile.pips[1]:
            continue
        shape = _shape(tile.corners)
        outward = shape.axis if float((hub - shape.centre) @ shape.axis) > 0 else -shape.axis
        end = shape.centre + outward * shape.long / 2
        if _facing(end, outward, hub, shape.stride):
            lone.append(Train((index,), tile.pips[0], False, tile.confidence, linked=False))
    return lone


def inner_numbers(layout: TableLayout, train: Train) -> tuple[int, ...]:
    """The numbers ``train``'s first tile may offer towards the hub: the one its next tile
    does not take, or a lone tile's number on its half nearer the hub where the reader's
    halves tell, else either of its numbers."""
    tile = layout.tiles[train.tiles[0]]
    first = tile.pips
    if len(train.tiles) == 1 and layout.hub is not None:
        shape = _shape(tile.corners)
        (at_first_end,) = _first_end_numbers(tile, shape, [(first, tile.confidence)])
        hub = np.asarray(layout.hub.centre, np.float64)
        facing = _number_at(_end_towards(shape, hub), first, at_first_end)
        if facing is not None:
            return (facing,)
    if len(train.tiles) == 1 or first[0] == first[1]:
        return tuple(sorted(set(first)))
    following = set(layout.tiles[train.tiles[1]].pips)
    inner = [number for number in first if number not in following]
    return (inner[0],) if len(inner) == 1 else tuple(sorted(set(first)))


def _in_line(tile: DetectedTile, way: NDArray[np.float64], apart: float, last: _Shape) -> bool:
    """The tile before lies end to end with the last: a plain tile along the train's way, its
    centre about two short sides back."""
    shape = _shape(tile.corners)
    plain = tile.pips[0] != tile.pips[1]
    return plain and abs(float(shape.axis @ way)) > 0.95 and 1.6 <= apart / last.short <= 2.6


def continuing_reading(
    readings: Sequence[tuple[Pips, float]], ends: Sequence[int], shown: set[Pips]
) -> tuple[Pips, float] | None:
    """Of a looked-for tile's likely readings (pips larger first, probability), the likeliest
    that can be laid against a tile offering one of ``ends``: it shows that number, and no
    tile already read shows it (a set holds each tile once)."""
    fitting = [
        (pips, chance)
        for pips, chance in readings
        if any(end in pips for end in ends) and pips not in shown
    ]
    return max(fitting, key=lambda item: item[1]) if fitting else None
