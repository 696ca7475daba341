"""Whole Mexican Train tables (and block-dominoes lines), rendered with their true position.

    render_table(seed, size=(2016, 1512)) -> TableScene

A table is a hub (a round or octagonal plastic hub with eight slots, the engine double in its
middle) or a bare engine double, with 2 to 9 trains of 0 to 15 tiles laid end to end from it:
every train starts with the engine's number and every joint matches, as in a legal game.
Doubles lie crosswise; a train that reaches the edge of the play area bends; a double at a
train's end is an open double. Train markers (a small toy train, a coin, a plastic marker) lie
beside some trains' first tiles, clearly nearer their own train than any other, face-down hands
line the table's edges and a boneyard lies in a corner, and a few face-up tiles lie loose (a
hand laid down). ``block=True`` draws a plain block-dominoes line instead: no hub, a first tile
with a line on either side, sometimes a spinner with branches from its ends.

The tiles, styles, table tops, camera, lighting and camera effects are synth.py's own, so a
table looks like the scenes the models learnt from, only with many small tiles. The truth is
given in the terms of the `vision table` contract (shared/spec/vision.md), so a reading can be
compared with it field by field.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from training.synth import (
    SceneTile,
    TileStyle,
    _Camera,
    _camera_effects,
    _draw_tile,
    _drop_shadows,
    _lighting,
    _make_camera,
    _Occupancy,
    _order_corners,
    _shrunk,
    _Tile,
    _tile_corners,
    half_centres,
    paint_check_patterns,
    random_style,
    render_background,
)
from vision.geometry import distance_outside

HUB_SLOTS = 8
MARKER_KINDS = ("toy_train", "coin", "plastic")
CLEARLY_OWN = 1.3
"""A marker is laid only where it lies clearly beside its own train: every other train's
tiles at least this many times as far from its middle as its own train's first tile. (Until
2026-11-28 a marker beside a train leaving the hub slot next to another's could lie nearer
that train's first tile than its own: a spot a player would not choose, and whose marker
it was nobody could tell from the photo, so the marker check learnt and was scored on a
coin toss: on 120 tuning tables 19 of 173 markers lay nearer another train, 57 below this.
Where the seed's side is not clearly its own the other side is used, then a spot snug beside
the tile further from the hub (SNUG_BESIDE, SNUG_ALONG); where none is, the train has no
marker.)"""
SNUG_BESIDE = 1.1
SNUG_ALONG = (0.0, 0.6, 1.0)
"""Where a marker goes when neither side of the seed's spot is clearly its own train's: this
many short sides beside the first tile's middle line, this far along it from its middle."""
_GAP = 0.04  # short sides between touching tiles: real tiles are laid nearly touching


@dataclass(frozen=True)
class TableHub:
    """The hub (or bare engine) in the middle of the table."""

    engine_tile: int
    """Index of the engine double in ``TableScene.tiles``."""
    centre: tuple[float, float]
    """The hub's centre in photo pixels."""
    plastic: bool
    """A plastic hub with slots (False: a bare engine double)."""


@dataclass(frozen=True)
class TableTrain:
    """One chain of tiles, as the contract's ``trains`` entry."""

    tiles: tuple[int, ...]
    """Indexes into ``TableScene.tiles``, from the hub (or the layout's first tile) outwards."""
    end: int
    """The number offered at the free end."""
    open_double: bool
    """The last tile is a double, left uncovered."""
    marker: bool
    """A train marker lies beside the train's start."""
    marker_at: tuple[float, float] | None = None
    """Where that marker's middle lies, in photo pixels (not part of the contract: for telling
    a marker laid nearer another train's start, which a player would have to ask about)."""


@dataclass(frozen=True)
class TableScene:
    """A rendered table photo and the position it shows."""

    image: np.ndarray = field(compare=False)  # (H, W, 3) uint8 BGR
    tiles: tuple[SceneTile, ...]
    """Every face-up tile wholly in the picture (the engine included)."""
    hub: TableHub | None
    trains: tuple[TableTrain, ...]
    """Trains with at least one tile (an empty train shows nothing to read)."""
    open_ends: tuple[int, ...]
    """Every number a free end offers, sorted."""
    loose: tuple[int, ...]
    """Face-up tiles touching no chain."""
    face_down: int
    """Face-down tiles wholly in the picture."""
    marker_kinds: tuple[str, ...] = ()
    """The kinds of marker drawn (from MARKER_KINDS), for looking at the renderer's range."""
    dark_tiles: bool = False
    """Black tiles with white pips."""
    set_max: int = 12
    """The set's highest half (9, 12 or 15): what the app knows of the game being played."""

    def to_json(self) -> dict[str, Any]:
        """The position as the `vision table` contract writes it (without image and ms)."""
        height, width = self.image.shape[:2]
        return {
            "width": width,
            "height": height,
            "tiles": [
                {
                    "pips": [tile.pips[0], tile.pips[1]],
                    "corners": [[round(float(x)), round(float(y))] for x, y in tile.corners],
                }
                for tile in self.tiles
            ],
            "hub": None
            if self.hub is None
            else {
                "engine_tile": self.hub.engine_tile,
                "center": [round(self.hub.centre[0]), round(self.hub.centre[1])],
            },
            "trains": [
                {
                    "tiles": list(train.tiles),
                    "end": train.end,
                    "open_double": train.open_double,
                    "marker": train.marker,
                }
                for train in self.trains
            ],
            "open_ends": list(self.open_ends),
            "loose": list(self.loose),
            "face_down": self.face_down,
        }


# --------------------------------------------------------------------------- laying tiles


@dataclass
class _Laid:
    """A face-up tile placed on the table (world units: one tile's short side)."""

    tile: _Tile
    inner: int  # the number laid against the previous tile (or the hub)
    outer: int  # the number offered onwards
    crosswise: bool


class _Layer:
    """Lays tiles on the table without overlaps, inside the play area of the picture."""

    def __init__(
        self,
        camera: _Camera,
        style: TileStyle,
        occupancy: _Occupancy,
        size: tuple[int, int],
        margin_px: float,
    ) -> None:
        self.camera = camera
        self.style = style
        self.occupancy = occupancy
        self.width, self.height = size
        self.margin = margin_px

    def fits(self, tile: _Tile) -> bool:
        return self.free(tile) and self.within(tile)

    def free(self, tile: _Tile) -> bool:
        """No other tile (or the hub) is where this one would lie."""
        footprint = _tile_corners(tile, self.style.aspect, 0.0)
        return self.occupancy.fits(_shrunk(footprint, 0.06))

    def within(self, tile: _Tile) -> bool:
        """The tile lies inside the play area, clear of the edges where the hands lie."""
        top = self.camera.project(_tile_corners(tile, self.style.aspect, self.style.thickness))
        return bool(
            np.all(top[:, 0] >= self.margin)
            and np.all(top[:, 0] <= self.width - 1 - self.margin)
            and np.all(top[:, 1] >= self.margin)
            and np.all(top[:, 1] <= self.height - 1 - self.margin)
        )

    def take(self, tile: _Tile) -> None:
        self.occupancy.add(_shrunk(_tile_corners(tile, self.style.aspect, 0.0), 0.06))


def _unit(angle: float) -> np.ndarray:
    return np.array([math.cos(angle), math.sin(angle)])


def _next_placements(
    end: np.ndarray,
    heading: float,
    double: bool,
    after_double: bool,
    aspect: float,
    rng: np.random.Generator,
) -> list[tuple[_Tile, float, bool]]:
    """Where the next tile may go after a free end at ``end`` (the middle of the previous
    tile's far edge) facing ``heading``: straight on, or (not for a double) turned a right
    angle either way, its first half beside the previous tile's last. Each candidate is
    (tile, new heading, crosswise)."""
    u = _unit(heading)
    if double:
        centre = end + u * (_GAP + 0.5)
        return [
            (
                _Tile((float(centre[0]), float(centre[1])), heading + math.pi / 2, True, (0, 0)),
                heading,
                True,
            )
        ]
    straight = end + u * (_GAP + aspect / 2)
    options = [
        (_Tile((float(straight[0]), float(straight[1])), heading, True, (0, 0)), heading, False)
    ]
    if after_double:
        return options  # a crosswise double's long side is no place to turn
    turns = [1.0, -1.0] if rng.random() < 0.5 else [-1.0, 1.0]
    half = aspect / 4  # a half's middle from the tile's end, along it
    for turn in turns:
        new_heading = heading + turn * math.pi / 2
        v = _unit(new_heading)
        centre = end - u * half + v * (0.5 + _GAP + aspect / 2)
        options.append(
            (
                _Tile((float(centre[0]), float(centre[1])), new_heading, True, (0, 0)),
                new_heading,
                False,
            )
        )
    return options


def _far_end(tile: _Tile, heading: float, crosswise: bool, aspect: float) -> np.ndarray:
    reach = 0.5 if crosswise else aspect / 2
    return np.asarray(np.array(tile.centre) + _unit(heading) * reach)


def _lay_chain(
    layer: _Layer,
    rng: np.random.Generator,
    unused: set[tuple[int, int]],
    start: np.ndarray,
    heading: float,
    number: int,
    length: int,
) -> list[_Laid]:
    """Up to ``length`` tiles from a free end at ``start`` offering ``number``: each one an
    unused tile of the set holding the number offered, laid where it fits (straight, or bent
    at the play area's edge). Stops early when no tile fits or the set has none left."""
    laid: list[_Laid] = []
    end = start
    after_double = False
    for _ in range(length):
        holding = sorted(t for t in unused if number in t)
        if not holding:
            break
        rng.shuffle(holding)
        placed = False
        for pips in holding[:4]:
            double = pips[0] == pips[1]
            options = _next_placements(end, heading, double, after_double, layer.style.aspect, rng)
            # A train turns only where it meets the table's edge, not to dodge another.
            straight = options[0][0]
            if layer.within(straight):
                options = options[:1]
            for tile, new_heading, crosswise in options:
                if not layer.fits(tile):
                    continue
                outer = pips[0] if pips[1] == number else pips[1]
                # The texture puts pips[0] at the tile's first end (its heading's back end),
                # so the number laid against the chain goes first; a crosswise double's
                # halves are the same number either way.
                tile.pips = (number, outer)
                layer.take(tile)
                unused.discard(pips)
                laid.append(_Laid(tile, number, outer, crosswise))
                end = _far_end(tile, new_heading, crosswise, layer.style.aspect)
                heading = new_heading
                number = outer
                after_double = crosswise
                placed = True
                break
            if placed:
                break
        if not placed:
            break
    return laid


# --------------------------------------------------------------------------- props


def _project_flat(camera: _Camera, points: np.ndarray, height: float = 0.0) -> np.ndarray:
    return camera.project(np.column_stack([points, np.full(len(points), height)]))


def _fill(canvas: np.ndarray, polygon: np.ndarray, colour: np.ndarray) -> None:
    cv2.fillPoly(
        canvas, [np.round(polygon * 16).astype(np.int32)], colour.tolist(), cv2.LINE_AA, shift=4
    )


def _draw_hub(
    canvas: np.ndarray,
    camera: _Camera,
    centre: np.ndarray,
    radius: float,
    turn: float,
    round_hub: bool,
    rng: np.random.Generator,
) -> None:
    """A plastic hub: a raised disc or octagon with eight slots at its rim and a well in the
    middle for the engine."""
    colour = rng.uniform(30, 230, 3)
    sides = 48 if round_hub else 8
    angles = turn + np.arange(sides) * 2 * math.pi / sides + (0 if round_hub else math.pi / 8)
    ring = centre + np.column_stack([np.cos(angles), np.sin(angles)]) * radius
    lift = 0.35
    base = _project_flat(camera, ring, 0.0)
    top = _project_flat(camera, ring, lift)
    hull = cv2.convexHull(np.vstack([base, top]).astype(np.float32)).reshape(-1, 2)
    _fill(canvas, hull, colour * 0.6)
    _fill(canvas, top, colour)
    well = centre + np.column_stack([np.cos(angles), np.sin(angles)]) * min(1.45, radius * 0.5)
    _fill(canvas, _project_flat(camera, well, lift), colour * 0.8)
    for slot in range(HUB_SLOTS):
        angle = turn + slot * 2 * math.pi / HUB_SLOTS
        u, v = _unit(angle), _unit(angle + math.pi / 2)
        mid = centre + u * (radius - 0.55)
        notch = np.array(
            [
                mid - u * 0.55 - v * 0.6,
                mid + u * 0.6 - v * 0.6,
                mid + u * 0.6 + v * 0.6,
                mid - u * 0.55 + v * 0.6,
            ]
        )
        _fill(canvas, _project_flat(camera, notch, lift * 0.4), colour * 0.45)


@dataclass(frozen=True)
class _MarkerSpot:
    """Where a train's marker would lie (table units), turned ``heading``, beside the first
    tile of train ``train``, whose middle is ``first_centre`` and which runs out at ``angle``."""

    spot: np.ndarray
    heading: float
    train: int
    first_centre: np.ndarray
    angle: float


def _clearly_own_spot(
    candidate: _MarkerSpot, footprints: list[list[np.ndarray]]
) -> np.ndarray | None:
    """The seed's spot for the marker if it lies clearly beside its own train (CLEARLY_OWN);
    else the same spot mirrored to the train's other side; else, on either side, nearer the
    tile and further from the hub, where trains from neighbouring slots have drawn apart;
    else None."""
    along = _unit(candidate.angle)
    offset = candidate.spot - candidate.first_centre
    out = float(np.dot(offset, along))
    beside = offset - out * along
    spots = [candidate.spot, candidate.first_centre + out * along - beside]
    snug = beside / max(float(np.linalg.norm(beside)), 1e-9) * SNUG_BESIDE
    for shift in SNUG_ALONG:
        spots += [candidate.first_centre + shift * along + side * snug for side in (1, -1)]
    others = [
        footprint
        for train, tiles in enumerate(footprints)
        if train != candidate.train
        for footprint in tiles
    ]
    for spot in spots:
        own = distance_outside(footprints[candidate.train][0], spot)
        nearest = min((distance_outside(other, spot) for other in others), default=np.inf)
        if nearest >= CLEARLY_OWN * own:
            return np.asarray(spot, np.float64)
    return None


def _draw_marker(
    canvas: np.ndarray,
    camera: _Camera,
    at: np.ndarray,
    heading: float,
    kind: str,
    rng: np.random.Generator,
) -> None:
    """A train marker lying at ``at``: a small toy train, a coin or a round plastic marker."""
    u, v = _unit(heading), _unit(heading + math.pi / 2)
    if kind == "toy_train":
        colour = rng.uniform(20, 220, 3)
        body = np.array(
            [
                at - u * 0.7 - v * 0.32,
                at + u * 0.7 - v * 0.32,
                at + u * 0.7 + v * 0.32,
                at - u * 0.7 + v * 0.32,
            ]
        )
        hull = cv2.convexHull(
            np.vstack([_project_flat(camera, body, 0.0), _project_flat(camera, body, 0.5)]).astype(
                np.float32
            )
        )
        _fill(canvas, hull.reshape(-1, 2), colour * 0.6)
        _fill(canvas, _project_flat(camera, body, 0.5), colour)
        cab = np.array(
            [
                at + u * 0.1 - v * 0.3,
                at + u * 0.7 - v * 0.3,
                at + u * 0.7 + v * 0.3,
                at + u * 0.1 + v * 0.3,
            ]
        )
        _fill(canvas, _project_flat(camera, cab, 0.8), colour * 0.75)
        chimney = at - u * 0.45
        circle = chimney + 0.14 * np.column_stack(
            [np.cos(np.linspace(0, 2 * math.pi, 16)), np.sin(np.linspace(0, 2 * math.pi, 16))]
        )
        _fill(canvas, _project_flat(camera, circle, 0.8), np.array([30.0, 30.0, 30.0]))
        return
    radius = 0.5 if kind == "coin" else 0.38
    angles = np.linspace(0, 2 * math.pi, 32, endpoint=False)
    disc = at + radius * np.column_stack([np.cos(angles), np.sin(angles)])
    if kind == "coin":
        colour = (
            np.array([40.0, 140.0, 190.0])
            if rng.random() < 0.5
            else np.array([175.0, 178.0, 180.0])
        )
        height = 0.12
    else:
        colour = rng.uniform(20, 240, 3)
        height = 0.5
    hull = cv2.convexHull(
        np.vstack([_project_flat(camera, disc, 0.0), _project_flat(camera, disc, height)]).astype(
            np.float32
        )
    )
    _fill(canvas, hull.reshape(-1, 2), colour * 0.65)
    _fill(canvas, _project_flat(camera, disc, height), colour)
    rim = at + radius * 0.7 * np.column_stack([np.cos(angles), np.sin(angles)])
    cv2.polylines(
        canvas,
        [np.round(_project_flat(camera, rim, height)).astype(np.int32)],
        True,
        (colour * 0.8).tolist(),
        1,
        cv2.LINE_AA,
    )


# --------------------------------------------------------------------------- the table


def _white_pipped_black(rng: np.random.Generator) -> TileStyle:
    """Black tiles with white pips, the sets real table photos showed being missed."""
    style = random_style(rng, "black_white")
    ink = float(rng.uniform(220, 255))
    white = (ink, ink, ink)
    return replace(style, pip_colours=((0.0, 0.0, 0.0),) + (white,) * (len(style.pip_colours) - 1))


def render_table(
    seed: int,
    *,
    size: tuple[int, int] = (2016, 1512),
    set_max: int | None = None,
    block: bool | None = None,
    plastic_hub: bool | None = None,
    max_tilt_deg: float = 35.0,
    dark_tiles: bool | None = None,
    coloured_tiles: bool = False,
    scattered_markers: bool = False,
    seen_low: bool = False,
    check_patterns: bool = False,
    markers_on_tiles: bool = False,
) -> TableScene:
    """Render a table photo. ``size`` is (width, height); tiles are drawn a few hundredths of
    the width long, whatever the size. Unset options are drawn from the seed: ``set_max``
    (9, 12 or 15), ``block`` (a block-dominoes line, one table in six), ``plastic_hub`` (else
    a bare engine), ``dark_tiles`` (black tiles with white pips, one table in four).
    ``coloured_tiles`` lays a set moulded in a strong colour with white pips instead (never
    drawn from the seed, so the tables of every seed stay as they were). ``scattered_markers``
    lays each marker anywhere beside its train's first tile, turned any way, where players
    put them, not at the one spot the seed's table has (for training a marker check; its own
    random stream, so everything else on the table stays as it was). ``seen_low`` photographs
    part of the table from a seated player's height, close: tiles a tenth of the width long
    or more, the camera 40 to 55 degrees off straight down (its own random stream for those
    two, so tables drawn without it stay as they were). ``check_patterns`` lays checks that
    are no tiles under everything (synth.paint_check_patterns; its own random stream too).
    ``markers_on_tiles`` lays each marker on its train's first or last tile instead of beside
    the start, as some families do, hiding part of that tile (its own random stream; the room
    beside the start stays empty, so everything else is laid as it was)."""
    width, height = size
    if width < 320 or height < 240:
        raise ValueError("a table photo must be at least 320x240")
    rng = np.random.default_rng(seed)
    scatter = np.random.default_rng((seed, 1)) if scattered_markers else None
    if set_max is None:
        set_max = int(rng.choice([9, 12, 15], p=[0.2, 0.65, 0.15]))
    if block is None:
        block = bool(rng.random() < 1 / 6)
    if plastic_hub is None:
        plastic_hub = bool(rng.random() < 0.6)
    if dark_tiles is None:
        dark_tiles = bool(rng.random() < 0.25)
    if coloured_tiles:
        style = random_style(rng, "coloured_body")
    else:
        style = _white_pipped_black(rng) if dark_tiles else random_style(rng)
    style = replace(style, thickness=float(rng.uniform(0.15, 0.3)))

    # One short side of a tile is 1.3..2.3% of the width: a tile 2.6..4.6% of it long.
    unit_px = width * float(rng.uniform(0.013, 0.023))
    focal = max(width, height) * float(rng.uniform(0.8, 1.2))
    tilt_deg = None
    if seen_low:
        low_shot = np.random.default_rng((seed, 2))
        unit_px = width * float(low_shot.uniform(0.045, 0.08))
        tilt_deg = float(low_shot.uniform(40.0, 55.0))
    camera = _make_camera(
        rng, focal, (width / 2, height / 2), unit_px, max_tilt_deg, tilt_deg=tilt_deg
    )
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
    footprint = camera.image_to_table(corners)
    low, high = footprint.min(axis=0), footprint.max(axis=0)
    occupancy = _Occupancy(low - 4, high + 4, resolution=12.0)
    # The edges of the picture are the table's edges where the players sit: the face-down
    # hands lie there, and the trains bend before them.
    edge_px = unit_px * 2.6
    layer = _Layer(camera, style, occupancy, size, edge_px)

    unused = {(a, b) for a in range(set_max + 1) for b in range(a + 1)}
    laid: list[_Laid] = []
    trains_laid: list[list[int]] = []  # indexes into laid
    arm_numbers: list[int] = []  # the number each train's start offers (an empty arm's end)
    hub_radius = 0.0
    turn = 0.0
    hub_centre = np.array(rng.normal(0, 2.0, 2))
    if seen_low:  # a close shot's frame is a few tiles across: the middle tile stays in it
        hub_centre *= 0.25
    engine_index: int | None = None
    hub_is_plastic = False
    marker_spots: list[_MarkerSpot] = []

    if not block:
        engine_number = int(rng.integers(0, set_max + 1))
        unused.discard((engine_number, engine_number))
        engine = _Tile(
            (float(hub_centre[0]), float(hub_centre[1])),
            float(rng.uniform(0, math.pi)),
            True,
            (engine_number, engine_number),
        )
        layer.take(engine)
        laid.append(_Laid(engine, engine_number, engine_number, False))
        engine_index = 0
        hub_is_plastic = plastic_hub
        turn = float(rng.uniform(0, 2 * math.pi))
        players = int(rng.integers(2, (HUB_SLOTS if plastic_hub else 9) + 1))
        if plastic_hub:
            hub_radius = float(rng.uniform(2.8, 3.4))
            # The hub takes its room on the table before any train.
            angles = np.linspace(0, 2 * math.pi, 24, endpoint=False)
            # Its first tiles lie over its rim, in its slots.
            inner = hub_radius - 0.35
            disc = hub_centre + inner * np.column_stack([np.cos(angles), np.sin(angles)])
            occupancy.add(np.column_stack([disc, np.zeros(len(disc))]))
            slots = rng.permutation(HUB_SLOTS)[:players]
            starts = [(turn + int(s) * 2 * math.pi / HUB_SLOTS, hub_radius - 0.25) for s in slots]
        else:
            hub_radius = 0.0
            # Around a bare engine the trains fan out evenly; they start as close to it as
            # their neighbours leave room for.
            step = 2 * math.pi / players
            reach = max(style.aspect / 2 + 0.3, 0.75 / math.sin(step / 2))
            starts = [(turn + k * step, reach) for k in range(players)]
        # 20 to 60 tiles shared among the trains, none over 15, now and then one not begun.
        wanted = int(rng.integers(20, 61))
        lengths = np.minimum(rng.multinomial(wanted, rng.dirichlet(np.full(players, 3.0))), 15)
        lengths[rng.random(players) < 0.1] = 0
        for (angle, reach), length in zip(starts, lengths, strict=True):
            start = hub_centre + _unit(angle) * reach
            chain = _lay_chain(layer, rng, unused, start, angle, engine_number, int(length))
            if not chain:
                continue
            first = len(laid)
            laid.extend(chain)
            trains_laid.append(list(range(first, len(laid))))
            arm_numbers.append(engine_number)
            side = 1.0 if rng.random() < 0.5 else -1.0
            out, heading = 1.45, angle
            if scatter is not None:
                out = float(scatter.uniform(1.05, 2.1))
                heading = float(scatter.uniform(0, 2 * math.pi))
            spot = np.array(chain[0].tile.centre) + _unit(angle + side * math.pi / 2) * out
            if scatter is not None:
                spot = spot + _unit(angle) * float(scatter.uniform(-0.9, 0.9))
            marker_spots.append(
                _MarkerSpot(
                    spot, heading, len(trains_laid) - 1, np.array(chain[0].tile.centre), angle
                )
            )
    else:
        # Block dominoes: the first tile in the middle, a line from each of its sides.
        first_pips = (
            (int(rng.integers(0, set_max + 1)),) * 2
            if rng.random() < 0.7
            else (int(rng.integers(0, set_max + 1)), int(rng.integers(0, set_max + 1)))
        )
        a, b = max(first_pips), min(first_pips)
        unused.discard((a, b))
        heading = float(rng.uniform(0, 2 * math.pi))
        double = a == b
        # A first double lies across the line, as any double does.
        root = _Tile(
            (float(hub_centre[0]), float(hub_centre[1])),
            heading + (math.pi / 2 if double else 0.0),
            True,
            (a, b),
        )
        layer.take(root)
        laid.append(_Laid(root, a, b, double))
        reach = 0.5 if double else style.aspect / 2
        arms = [(heading, a if double else b), (heading + math.pi, a)]
        spinner = double and rng.random() < 0.35
        if spinner:
            arms += [(heading + math.pi / 2, a), (heading - math.pi / 2, a)]
        for index, (angle, number) in enumerate(arms):
            if index >= 2:
                reach_here = style.aspect / 2
            else:
                reach_here = reach
            # A line long enough for 20 tiles or more on most tables; shorter branches.
            length = int(rng.integers(5, 16) if index < 2 else rng.integers(0, 8))
            start = hub_centre + _unit(angle) * reach_here
            chain = _lay_chain(layer, rng, unused, start, angle, number, length)
            # The root always heads each of its arms, even an arm with no tile yet.
            first = len(laid)
            laid.extend(chain)
            if chain or index < 2:
                trains_laid.append([0, *range(first, len(laid))])
                arm_numbers.append(number)

    # Loose face-up tiles: a hand laid down away from the trains, tiles apart.
    loose_wanted = int(rng.choice([0, 0, 1, 2, 3, 4]))
    loose_laid: list[int] = []
    for _ in range(loose_wanted * 6):
        if len(loose_laid) >= loose_wanted or not unused:
            break
        spot = low + rng.random(2) * (high - low)
        tile = _Tile(
            (float(spot[0]), float(spot[1])), float(rng.uniform(0, 2 * math.pi)), True, (0, 0)
        )
        # Kept well apart from everything, so it touches no chain.
        probe = _grown(tile, style.aspect, 1.8)
        if not (layer.fits(tile) and layer.occupancy.fits(probe)):
            continue
        pips = sorted(unused)[int(rng.integers(len(unused)))]
        unused.discard(pips)
        tile.pips = pips
        layer.take(tile)
        loose_laid.append(len(laid))
        laid.append(_Laid(tile, pips[0], pips[1], False))

    # Markers beside some trains' first tiles (never with a block line).
    markers: dict[int, str] = {}
    footprints = [
        [_tile_corners(laid[i].tile, style.aspect, 0.0)[:, :2] for i in members]
        for members in trains_laid
    ]
    placed: list[_MarkerSpot] = []
    for candidate in marker_spots:
        if rng.random() >= 0.4:
            continue
        chosen = _clearly_own_spot(candidate, footprints)
        if chosen is None:
            continue
        candidate = replace(candidate, spot=chosen)
        spot, train = candidate.spot, candidate.train
        square = np.array([spot + np.array([dx, dy]) for dx in (-0.7, 0.7) for dy in (-0.7, 0.7)])
        polygon = np.column_stack([square[[0, 1, 3, 2]], np.zeros(4)])
        if not occupancy.fits(polygon):
            continue
        occupancy.add(polygon)
        markers[train] = str(rng.choice(MARKER_KINDS))
        placed.append(candidate)
    if markers_on_tiles:
        on_tiles = np.random.default_rng((seed, 4))
        for index, candidate in enumerate(placed):
            members = trains_laid[candidate.train]
            under = laid[members[0] if on_tiles.random() < 0.5 else members[-1]].tile
            spot = np.array(under.centre) + on_tiles.normal(0.0, 0.2, 2)
            heading = float(on_tiles.uniform(0, 2 * math.pi))
            placed[index] = replace(candidate, spot=spot, heading=heading)

    # Face-down tiles: hands along the table's edges and a boneyard, anywhere they fit.
    face_down_tiles: list[_Tile] = []
    inverse = camera.image_to_table
    for _ in range(int(rng.integers(0, 4))):  # hands laid face down in a row at an edge
        edge = int(rng.integers(4))
        along = rng.uniform(0.2, 0.8)
        inset = edge_px * 0.55
        pixel = {
            0: (along * width, inset),
            1: (width - inset, along * height),
            2: (along * width, height - inset),
            3: (inset, along * height),
        }[edge]
        world = inverse(np.array([pixel], np.float64))[0]
        tangent_px = np.array([1.0, 0.0]) if edge in (0, 2) else np.array([0.0, 1.0])
        ahead = inverse(np.array([np.add(pixel, tangent_px * 10)], np.float64))[0]
        angle = math.atan2(ahead[1] - world[1], ahead[0] - world[0]) + math.pi / 2
        u = _unit(angle - math.pi / 2)
        count = int(rng.integers(3, 12))
        for k in range(count):
            centre = world + u * (k - count / 2) * (1 + _GAP)
            face_down_tiles.append(
                _Tile((float(centre[0]), float(centre[1])), angle, False, (0, 0))
            )
    if rng.random() < 0.7:  # the boneyard: a heap of tiles at all angles
        corner = np.array([rng.choice([0.12, 0.88]) * width, rng.choice([0.15, 0.85]) * height])
        heap = inverse(np.array([corner], np.float64))[0]
        for _ in range(int(rng.integers(4, 20))):
            centre = heap + rng.normal(0, 2.2, 2)
            face_down_tiles.append(
                _Tile(
                    (float(centre[0]), float(centre[1])),
                    float(rng.uniform(0, 2 * math.pi)),
                    False,
                    (0, 0),
                )
            )
    kept_down: list[_Tile] = []
    for tile in face_down_tiles:
        footprint = _tile_corners(tile, style.aspect, 0.0)
        if occupancy.fits(_shrunk(footprint, 0.04)):
            occupancy.add(_shrunk(footprint, 0.04))
            kept_down.append(tile)

    # Drawing: table, shadows, hub, then tiles far to near, then markers on top.
    canvas = render_background(rng, height, width, unit_px)
    if check_patterns:
        paint_check_patterns(canvas, seed, unit_px, camera.project, (low - 4, high + 4))
    everything = [item.tile for item in laid] + kept_down
    _drop_shadows(canvas, camera, [(t, style) for t in everything], rng, unit_px)
    if hub_is_plastic:
        _draw_hub(canvas, camera, hub_centre, hub_radius, turn, bool(rng.random() < 0.5), rng)
    order = sorted(
        range(len(everything)),
        key=lambda i: -float(camera.depth(np.array([[*everything[i].centre, 0.0]]))[0]),
    )
    faces: dict[int, np.ndarray] = {}
    for i in order:
        faces[i] = _draw_tile(canvas, camera, everything[i], style, rng)
    for marker in placed:
        _draw_marker(canvas, camera, marker.spot, marker.heading, markers[marker.train], rng)
    lit = _lighting(canvas, rng, list(faces.values()), unit_px)
    image = _camera_effects(lit, rng, strength=0.6)

    # The truth, in the contract's terms.
    listed: dict[int, int] = {}  # laid index -> tiles index
    tiles: list[SceneTile] = []
    for i, item in enumerate(laid):
        face = faces[i]
        if not _inside(face, width, height):
            continue  # pragma: no cover - the play area keeps every laid tile inside
        pips = item.tile.pips
        listed[i] = len(tiles)
        tiles.append(
            SceneTile(
                (max(pips), min(pips)),
                _order_corners(face),
                half_pips=(pips[0], pips[1]),
                half_centres=half_centres(face),
            )
        )
    face_down = sum(
        1 for j in range(len(kept_down)) if _inside(faces[len(laid) + j], width, height)
    )
    marker_places: dict[int, tuple[float, float]] = {}
    for marker in placed:
        x, y = camera.project(np.array([[*marker.spot, 0.0]]))[0]
        marker_places[marker.train] = (float(x), float(y))
    trains: list[TableTrain] = []
    for number, members in enumerate(trains_laid):
        last = laid[members[-1]]
        if block and len(members) == 1:
            # An arm with no tile yet: the first tile's free side offers its number there.
            end = arm_numbers[number]
        else:
            end = last.outer
        double = last.tile.pips[0] == last.tile.pips[1]
        trains.append(
            TableTrain(
                tiles=tuple(listed[m] for m in members),
                end=end,
                open_double=double and not (block and len(members) == 1),
                marker=number in markers,
                marker_at=marker_places.get(number),
            )
        )
    hub = None
    if engine_index is not None:
        centre_px = camera.project(np.array([[*hub_centre, 0.0]]))[0]
        hub = TableHub(
            listed[engine_index], (float(centre_px[0]), float(centre_px[1])), hub_is_plastic
        )
    return TableScene(
        image=image,
        tiles=tuple(tiles),
        hub=hub,
        trains=tuple(trains),
        open_ends=tuple(sorted(train.end for train in trains)),
        loose=tuple(listed[i] for i in loose_laid),
        face_down=face_down,
        marker_kinds=tuple(sorted(set(markers.values()))),
        dark_tiles=dark_tiles,
        set_max=set_max,
    )


def _grown(tile: _Tile, aspect: float, scale: float) -> np.ndarray:
    """A tile's footprint grown ``scale`` times about its centre (room kept around it)."""
    footprint = _tile_corners(tile, aspect, 0.0)
    return _shrunk(footprint, 1.0 - scale)


def _inside(points: np.ndarray, width: int, height: int) -> bool:
    return bool(
        np.all(points[:, 0] >= 1)
        and np.all(points[:, 0] <= width - 2)
        and np.all(points[:, 1] >= 1)
        and np.all(points[:, 1] <= height - 2)
    )
