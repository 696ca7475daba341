"""What a photo was read as, ready to draw over the photo and to list as chips.

Pure functions, no Flask: the tile picker uses them after a photo, and any other page that
shows a photo back (the referee page) can too, with the ``photo_overlay`` template macro
(templates/_photo_overlay.html) and ``drawPhotoOverlay`` in static/js/photo.js.

The pipeline gives outlines in the pixels of the photo it decoded, upright (EXIF orientation
applied), with that photo's size. The overlay scales them into a box DISPLAY_LONG_SIDE units
on its long side, the SVG's viewBox: the browser then stretches that box over the shown
photo, whatever its size on screen, and strokes and labels keep one size on every photo.

Labels go at the centres of their outlines. On a photo of many small tiles that would pile
them on top of each other, so ``lay_out_labels`` then shrinks them (never below what a phone
shows readably) and moves the ones that collide onto the edge of their tile or just beside it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from statistics import median
from typing import Any

from .rules import Rules, full_set, tile_points

DISPLAY_LONG_SIDE = 1000
HINT_LABEL = "not counted — a tile?"
HINT_SHORT_LABEL = "a tile?"
PHONE_PHOTO_PX = 340
"""How wide the photo is shown on the narrowest phone the app is made for (360 px, less the
page's side margins)."""
LABEL_FLOOR_PX = 9
"""No label is drawn smaller than this on that phone: smaller is not read at arm's length."""

Point = tuple[float, float]
Corners = Sequence[Sequence[float]]


@dataclass(frozen=True)
class ReadTile:
    """One tile as the photo reader gave it (photo pixels, upright)."""

    high: int
    low: int
    confidence: float
    corners: tuple[tuple[int, int], ...]


class LabelFit(StrEnum):
    """How much of a shape's label there was room for."""

    FULL = "full"
    """A tile's number and reading ("3: 12-5 ?"); a hint's "not counted — a tile?"."""
    SHORT = "short"
    """A tile's number alone (its chip under the photo carries the reading); a hint's "a tile?"."""
    NONE = "none"
    """No label (hints only): the dashed outline and the note under the photo say it."""


@dataclass(frozen=True)
class Shape:
    """One outline to draw: a tile read (numbered) or a hint (number 0)."""

    number: int
    label: str
    corners: tuple[Point, ...]
    unsure: bool = False
    label_at: Point | None = None
    """The middle of the label (None: the outline's centre); off it on a crowded photo."""
    fit: LabelFit = LabelFit.FULL

    @property
    def label_point(self) -> Point:
        """Where the label is drawn: the middle of its text."""
        return self.label_at if self.label_at is not None else self.centre

    @property
    def text(self) -> str:
        """The label as drawn ("" for none)."""
        if self.fit is LabelFit.NONE:
            return ""
        if self.number == 0:
            return self.label if self.fit is LabelFit.FULL else HINT_SHORT_LABEL
        if self.fit is LabelFit.SHORT:
            return str(self.number)
        return f"{self.number}: {self.label}{' ?' if self.unsure else ''}"

    @property
    def leader(self) -> tuple[Point, Point] | None:
        """A line from a label set off its outline (a crowded photo) to the nearest point of
        that outline, so the eye finds the tile it names; ``None`` for a label on its tile."""
        if self.label_at is None or self.fit is LabelFit.NONE:
            return None
        if _inside(self.label_at, self.corners):
            return None
        return self.label_at, _nearest_on_outline(self.label_at, self.corners)

    @property
    def points(self) -> str:
        """The outline as an SVG polygon's ``points``."""
        return " ".join(f"{x:.1f},{y:.1f}" for x, y in self.corners)

    @property
    def centre(self) -> Point:
        return _centre(self.corners)


@dataclass(frozen=True)
class Chip:
    """One tile read, in reading order, as the list under the photo shows it."""

    number: int
    label: str
    """The reading, "12-5"."""
    unsure: bool
    counted: bool
    """False for a second reading of one tile, or a tile the game's set does not have: the
    picker can hold each tile once, so it is left out of the total until fixed."""
    note: str
    """Plain words for the player when the tile needs a look ("" when it does not)."""
    total: int
    """The running total after this chip, under the game's blank rule."""


@dataclass(frozen=True)
class Overlay:
    """A photo's reading, scaled to the display box."""

    width: float
    height: float
    tiles: tuple[Shape, ...]
    hints: tuple[Shape, ...]
    chips: tuple[Chip, ...]
    font_size: float
    """Size of the tiles' labels in display units (``lay_out_labels``)."""
    hint_font_size: float
    tile_points: Mapping[str, int] = field(default_factory=dict)
    """Points of every tile of the game's set under its blank rule, by the rules engine, for
    the page script to keep the running total as the player fixes tiles."""

    @property
    def numbers_only(self) -> bool:
        """Whether some tile's label is its number alone (a crowded photo)."""
        return any(shape.fit is LabelFit.SHORT for shape in self.tiles)

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width:g} {self.height:g}"

    def to_json(self) -> dict[str, Any]:
        """What the page script needs to redraw after a fix."""
        return {
            "width": self.width,
            "height": self.height,
            "chips": [
                {
                    "number": chip.number,
                    "label": chip.label,
                    "unsure": chip.unsure,
                    "counted": chip.counted,
                    "note": chip.note,
                }
                for chip in self.chips
            ],
            "tile_points": dict(self.tile_points),
        }


def scale_corners(
    corners: Corners, size: tuple[int, int], box: tuple[float, float]
) -> tuple[Point, ...]:
    """Corners given in an image of ``size`` (width, height) moved into a ``box`` (width,
    height) the image is shown in, stretched to fill it."""
    width, height = size
    if width <= 0 or height <= 0:
        raise ValueError("the image must have a size")
    sx, sy = box[0] / width, box[1] / height
    return tuple((round(float(x) * sx, 1), round(float(y) * sy, 1)) for x, y in corners)


def display_box(width: int, height: int, long_side: float = DISPLAY_LONG_SIDE) -> Point:
    """The display box of a photo: its shape, ``long_side`` units on its long side."""
    if width <= 0 or height <= 0:
        raise ValueError("the image must have a size")
    scale = long_side / max(width, height)
    return round(width * scale, 1), round(height * scale, 1)


def reading_order(outlines: Sequence[Corners]) -> list[int]:
    """Indices of the outlines as a person reads them: rows top to bottom, each left to
    right. A row is the outlines whose centres lie within three quarters of a tile's width
    (the median short side of all outlines) below the row's first, highest, centre: a crooked
    row stays one row, and rows of tiles touching side by side stay apart."""
    if not outlines:
        return []
    centres = [_centre(corners) for corners in outlines]
    band = 0.75 * median(_short_side(corners) for corners in outlines)
    by_height = sorted(range(len(outlines)), key=lambda index: centres[index][1])
    rows: list[list[int]] = []
    for index in by_height:
        if rows and centres[index][1] - centres[rows[-1][0]][1] <= band:
            rows[-1].append(index)
        else:
            rows.append([index])
    return [index for row in rows for index in sorted(row, key=lambda i: centres[i][0])]


def chips_for(
    reads: Sequence[tuple[str, bool]], rules: Rules, points: Mapping[str, int]
) -> list[Chip]:
    """Chips for tiles read as ("12-5", unsure) in reading order, with the running total.

    A tile read twice is counted once (the set has one of each) and both readings are marked
    to check; a tile the set lacks is not counted."""
    labels = [label for label, _ in reads]
    twice = {label for label in labels if labels.count(label) > 1}
    seen: set[str] = set()
    total = 0
    chips = []
    for number, (label, unsure) in enumerate(reads, start=1):
        in_set = label in points
        counted = in_set and label not in seen
        if counted:
            total += points[label]
            seen.add(label)
        if not in_set:
            note = f"not in a double-{rules.set_max} set: change it"
        elif label in twice and not counted:
            note = "read twice, the set has one: change or remove it"
        elif label in twice:
            note = "read twice: check this tile"
        elif unsure:
            note = "check this tile"
        else:
            note = ""
        chips.append(
            Chip(
                number=number,
                label=label,
                unsure=unsure or bool(note),
                counted=counted,
                note=note,
                total=total,
            )
        )
    return chips


@dataclass(frozen=True)
class LabelLayout:
    """Where the labels of one overlay go, and their size, in display units."""

    font_size: float
    hint_font_size: float
    tiles: tuple[tuple[Point, LabelFit], ...]
    """The middle of each tile's label, and how much of it there is room for."""
    hints: tuple[tuple[Point, LabelFit], ...]


def label_sizes(box: Point) -> tuple[float, float]:
    """The usual label size on a display ``box`` (1/30 of its long side, about 11 px on a
    phone) and the smallest a crowded photo may shrink it to (LABEL_FLOOR_PX there)."""
    normal = round(max(box) / 30, 1)
    floor = math.ceil(LABEL_FLOOR_PX * box[0] / PHONE_PHOTO_PX * 10) / 10
    return normal, min(normal, floor)


def lay_out_labels(
    box: Point, tiles: Sequence[Shape], hints: Sequence[Shape], set_max: int = 12
) -> LabelLayout:
    """Place the labels of ``tiles`` (in reading order) and ``hints`` on a display ``box``
    (width, height) so that no two overlap and each is on or beside its own outline.

    The usual photo keeps every label at its outline's centre, at the usual size. A crowded
    one gets the largest size, down to the floor, at which every tile's whole label fits on
    its tile or touching it. At the floor a label may also go a line further out; failing
    that a tile shows its number alone (the chips under the photo carry the reading) and a
    hint says "a tile?", or nothing.

    A tile's label is sized for the longest text it can show once the player fixes the tile
    ("12: 12-12 ?", "12: removed" in a double-12 set), so no fix makes two labels collide.
    """
    normal, floor = label_sizes(box)
    labels = [_tile_label(shape, set_max) for shape in tiles]
    labels += [_hint_label(shape) for shape in hints]
    size, placed = normal, _at_centres(labels, box, normal, floor)
    if placed is None:
        for size in _sizes(normal, floor):
            placed = _place(labels, box, size, floor, strict=size > floor)
            if placed is not None:
                break
    assert placed is not None, "the floor size always places every label"
    return LabelLayout(
        font_size=size,
        hint_font_size=_hint_size(size, floor),
        tiles=tuple(placed[: len(tiles)]),
        hints=tuple(placed[len(tiles) :]),
    )


@dataclass(frozen=True)
class _Box:
    left: float
    top: float
    right: float
    bottom: float

    def overlaps(self, other: _Box) -> bool:
        return (
            self.left < other.right
            and other.left < self.right
            and self.top < other.bottom
            and other.top < self.bottom
        )

    def overlap(self, other: _Box) -> float:
        width = min(self.right, other.right) - max(self.left, other.left)
        height = min(self.bottom, other.bottom) - max(self.top, other.top)
        return max(width, 0.0) * max(height, 0.0)


@dataclass(frozen=True)
class _Label:
    centre: Point
    corners: tuple[Point, ...]
    bounds: _Box
    """The outline's bounding box."""
    hint: bool
    texts: tuple[tuple[LabelFit, str], ...]
    """The longest text it may show at each fit, the fuller first."""


_Spot = tuple[float, Point, _Box]
"""A place a label could go: its cost (lower is nearer its tile), middle and box."""

# Costs of a label's spots below _ON_TILE are on its own tile; below _BESIDE, touching it.
_ON_TILE = 2.0
_BESIDE = 4.0
# Taking a spot on its tile from a label still to come costs a little; taking its last one
# costs as much as moving off a tile, so that neighbours share the room on their tiles.
_TAKES_ONE = 0.3
_TAKES_LAST = 2.0
_LINE = 1.2
"""A label's height in ems: the text and the white outline drawn round it (app.css)."""
_NARROW = frozenset(" .,:;-'!|ijl")
_WIDE = frozenset("—mwMW")


def _em_width(text: str) -> float:
    """A generous width of ``text`` in ems, bold, with its white outline: DejaVu Sans Bold,
    the usual Linux sans-serif, is among the widest; phones' Roboto and San Francisco are
    narrower."""
    return 0.2 + sum(0.45 if c in _NARROW else 1.05 if c in _WIDE else 0.72 for c in text)


def _tile_label(shape: Shape, set_max: int) -> _Label:
    number = shape.number
    full = max(
        (shape.text, f"{number}: removed", f"{number}: {set_max}-{set_max} ?"), key=_em_width
    )
    return _Label(
        shape.centre,
        shape.corners,
        _bounds(shape.corners),
        hint=False,
        texts=((LabelFit.FULL, full), (LabelFit.SHORT, str(number))),
    )


def _hint_label(shape: Shape) -> _Label:
    return _Label(
        shape.centre,
        shape.corners,
        _bounds(shape.corners),
        hint=True,
        texts=((LabelFit.FULL, shape.label), (LabelFit.SHORT, HINT_SHORT_LABEL)),
    )


def _bounds(corners: Corners) -> _Box:
    xs = [float(point[0]) for point in corners]
    ys = [float(point[1]) for point in corners]
    return _Box(min(xs), min(ys), max(xs), max(ys))


def _hint_size(size: float, floor: float) -> float:
    # Hints are secondary, so smaller than the tiles' labels, but still to be read.
    return max(floor, round(0.8 * size, 1))


def _sizes(normal: float, floor: float) -> list[float]:
    sizes = []
    size = normal
    while size > floor:
        sizes.append(size)
        size = round(size * 0.9, 1)
    return [*sizes, floor]


def _spots(label: _Label, text: str, size: float, box: Point) -> list[_Spot]:
    """Where ``label`` could show ``text``, nearest its tile first: its centre, half a line up
    or down, against an edge of the tile inside it, touching the outline outside, then a line
    further out; each moved inside the display ``box``."""
    width, height = _em_width(text) * size, _LINE * size
    cx, cy = label.centre
    left, top, right, bottom = (
        label.bounds.left,
        label.bounds.top,
        label.bounds.right,
        label.bounds.bottom,
    )
    above, below = top - height / 2, bottom + height / 2
    to_left, to_right = left - width / 2, right + width / 2
    flush_left, flush_right = left + width / 2, right - width / 2
    # A label narrower than its tile can also sit against either end of it, inside.
    inside = (
        [
            (x, y)
            for y in (cy, top + height / 2, bottom - height / 2)
            for x in (flush_left, flush_right)
        ]
        if width < right - left
        else []
    )
    wanted: list[tuple[float, Point]] = [
        (0, (cx, cy)),
        (1, (cx, cy - height / 2)),
        (1, (cx, cy + height / 2)),
        *((1.5, point) for point in inside),
        (2, (cx, above)),
        (2, (cx, below)),
        (2.5, (to_left, cy)),
        (2.5, (to_right, cy)),
        *((3, (x, y)) for y in (above, below) for x in (flush_left, flush_right)),
        (4, (cx, above - height)),
        (4, (cx, below + height)),
        (4.5, (to_left - height, cy)),
        (4.5, (to_right + height, cy)),
        *((5, (x, y)) for y in (above - height, below + height) for x in (flush_left, flush_right)),
        *((5, (x, y)) for y in (above, below) for x in (to_left, to_right)),
    ]
    spots: list[_Spot] = []
    seen: set[Point] = set()
    for cost, (x, y) in wanted:
        at = (_within(x, width, box[0]), _within(y, height, box[1]))
        if at not in seen:
            seen.add(at)
            box_at = _Box(
                at[0] - width / 2, at[1] - height / 2, at[0] + width / 2, at[1] + height / 2
            )
            spots.append((cost, at, box_at))
    return spots


def _within(middle: float, length: float, limit: float) -> float:
    """``middle`` rounded as drawn, moved so a label of ``length`` stays in 0..``limit``."""
    if length >= limit:
        return round(limit / 2, 1)
    low = math.ceil(length / 2 * 10) / 10
    high = math.floor((limit - length / 2) * 10) / 10
    return min(max(round(middle, 1), low), high)


def _label_size(label: _Label, size: float, floor: float) -> float:
    return _hint_size(size, floor) if label.hint else size


def _at_centres(
    labels: Sequence[_Label], box: Point, size: float, floor: float
) -> list[tuple[Point, LabelFit]] | None:
    """Every label whole at its outline's centre, if none collide there."""
    spots = [
        _spots(label, label.texts[0][1], _label_size(label, size, floor), box)[0]
        for label in labels
    ]
    for index, (_, _, here) in enumerate(spots):
        if any(here.overlaps(other) for _, _, other in spots[index + 1 :]):
            return None
    return [(at, LabelFit.FULL) for _, at, _ in spots]


def _on_another(spot: _Spot, index: int, labels: Sequence[_Label]) -> bool:
    """Whether a label of ``labels[index]`` at ``spot`` would be read as another shape's: its
    middle on that shape's outline, or that shape's centre under it."""
    (x, y), box = spot[1], spot[2]
    for other in labels:
        if other is labels[index]:
            continue
        bounds, (cx, cy) = other.bounds, other.centre
        if box.left < cx < box.right and box.top < cy < box.bottom:
            return True
        if bounds.left <= x <= bounds.right and bounds.top <= y <= bounds.bottom:
            if _inside((x, y), other.corners):
                return True
    return False


def _inside(point: Point, corners: Sequence[Point]) -> bool:
    """Whether ``point`` is inside the polygon ``corners`` (even-odd rule)."""
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(corners, (*corners[1:], corners[0]), strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _on_tile(label: _Label, size: float, floor: float, box: Point) -> list[_Box]:
    """The spots on its own tile for ``label``'s whole text."""
    spots = _spots(label, label.texts[0][1], _label_size(label, size, floor), box)
    return [spot[2] for spot in spots if spot[0] < _ON_TILE]


def _crowding(at: _Box, still_free: Sequence[Sequence[_Box]]) -> float:
    """What a label at ``at`` costs the labels still to come, given the spots on their tiles
    still free."""
    cost = 0.0
    for free in still_free:
        takes = sum(at.overlaps(spot) for spot in free)
        cost += _TAKES_ONE * takes + (_TAKES_LAST if free and takes == len(free) else 0.0)
    return cost


def _place(
    labels: Sequence[_Label], box: Point, size: float, floor: float, strict: bool
) -> list[tuple[Point, LabelFit]] | None:
    """Labels placed one by one, each at its cheapest free spot; None if ``strict`` and a
    tile's whole label finds no room on or beside its tile, or a hint none at all."""
    on_tiles = [_on_tile(label, size, floor, box) for label in labels]
    taken: list[_Box] = []
    placed: list[tuple[Point, LabelFit]] = []
    for index, label in enumerate(labels):
        still_free = [
            [spot for spot in later if not any(spot.overlaps(t) for t in taken)]
            for later in on_tiles[index + 1 :]
        ]
        label_size = _label_size(label, size, floor)
        choice: tuple[_Spot, LabelFit] | None = None
        for fit, text in label.texts:
            if strict and not label.hint and fit is not LabelFit.FULL:
                break
            free = [
                spot
                for spot in _spots(label, text, label_size, box)
                if not (strict and not label.hint and spot[0] >= _BESIDE)
                and not any(spot[2].overlaps(box_taken) for box_taken in taken)
                and not _on_another(spot, index, labels)
            ]
            if free:
                best = min(free, key=lambda spot: spot[0] + _crowding(spot[2], still_free))
                choice = best, fit
                break
        if choice is None:
            if strict:
                return None
            if label.hint:
                placed.append((label.centre, LabelFit.NONE))
                continue
            # Not even the number fits anywhere free: put it where it hides the least.
            spots = _spots(label, label.texts[-1][1], label_size, box)
            least = min(
                spots,
                key=lambda spot: (
                    sum(spot[2].overlap(t) for t in taken),
                    _on_another(spot, index, labels),
                    spot[0],
                ),
            )
            choice = least, LabelFit.SHORT
        (_, at, box_at), fit = choice
        taken.append(box_at)
        placed.append((at, fit))
    return placed


def build_overlay(
    size: tuple[int, int],
    tiles: Sequence[ReadTile],
    hints: Sequence[Corners],
    rules: Rules,
    check_below: float,
) -> Overlay:
    """The overlay of one photo of ``size`` (width, height, upright): tiles numbered in
    reading order, those read with confidence below ``check_below`` marked unsure."""
    box = display_box(*size)
    order = reading_order([tile.corners for tile in tiles])
    points = {str(tile): tile_points(tile, rules.blank_scoring) for tile in full_set(rules.set_max)}
    reads = [(f"{tiles[i].high}-{tiles[i].low}", tiles[i].confidence < check_below) for i in order]
    chips = chips_for(reads, rules, points)
    shapes = tuple(
        Shape(
            number=chip.number,
            label=chip.label,
            corners=scale_corners(tiles[index].corners, size, box),
            unsure=chip.unsure,
        )
        for chip, index in zip(chips, order, strict=True)
    )
    hint_shapes = tuple(
        Shape(number=0, label=HINT_LABEL, corners=scale_corners(corners, size, box))
        for corners in hints
    )
    labels = lay_out_labels(box, shapes, hint_shapes, rules.set_max)
    return Overlay(
        width=box[0],
        height=box[1],
        tiles=tuple(
            replace(shape, label_at=at, fit=fit)
            for shape, (at, fit) in zip(shapes, labels.tiles, strict=True)
        ),
        hints=tuple(
            replace(shape, label_at=at, fit=fit)
            for shape, (at, fit) in zip(hint_shapes, labels.hints, strict=True)
        ),
        chips=tuple(chips),
        font_size=labels.font_size,
        hint_font_size=labels.hint_font_size,
        tile_points=points,
    )


def _centre(corners: Corners) -> Point:
    xs = [float(point[0]) for point in corners]
    ys = [float(point[1]) for point in corners]
    return sum(xs) / len(xs), sum(ys) / len(ys)


def _nearest_on_outline(point: Point, corners: Sequence[Point]) -> Point:
    """The point of the polygon's outline nearest ``point``."""
    best: Point = corners[0]
    best_distance = math.inf
    for i in range(len(corners)):
        (x1, y1), (x2, y2) = corners[i - 1], corners[i]
        dx, dy = x2 - x1, y2 - y1
        length = dx * dx + dy * dy
        t = 0.0 if length == 0 else ((point[0] - x1) * dx + (point[1] - y1) * dy) / length
        t = min(max(t, 0.0), 1.0)
        candidate = (x1 + t * dx, y1 + t * dy)
        distance = math.dist(point, candidate)
        if distance < best_distance:
            best, best_distance = candidate, distance
    return round(best[0], 1), round(best[1], 1)


def _short_side(corners: Corners) -> float:
    points = [(float(x), float(y)) for x, y in corners]
    sides = [
        ((points[i][0] - points[i - 1][0]) ** 2 + (points[i][1] - points[i - 1][1]) ** 2) ** 0.5
        for i in range(len(points))
    ]
    return float(min(sides))


# -- a whole table ---------------------------------------------------------------------------

TABLE_LABEL_PX = 11
"""The trains' labels on the narrowest phone, in screen pixels."""


@dataclass(frozen=True)
class TrainLine:
    """One train drawn over a table photo: a line from the hub through its tiles, and a label
    ("2: 6", its number in the list and its end) just beyond its free end."""

    number: int
    path: tuple[Point, ...]
    label: str
    label_at: Point
    open_double: Shape | None
    """The open double at its end, ringed."""
    unsure: bool

    @property
    def points(self) -> str:
        """The line as an SVG polyline's ``points``."""
        return " ".join(f"{x:.1f},{y:.1f}" for x, y in self.path)


@dataclass(frozen=True)
class TableOverlay:
    """A table photo's reading, scaled to the display box: every tile outlined (amber where
    unsure), the hub ringed with its engine, each train drawn as a line with its end."""

    width: float
    height: float
    tiles: tuple[Shape, ...]
    hub: Point | None
    engine: str
    """The engine in words ("engine 12-12"), or "" when it was not seen."""
    trains: tuple[TrainLine, ...]
    font_size: float

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width:g} {self.height:g}"

    def to_json(self) -> dict[str, Any]:
        """What the page script needs to show the photo under the lines."""
        return {"width": self.width, "height": self.height}


def build_table_overlay(
    size: tuple[int, int],
    tiles: Sequence[ReadTile],
    hub: tuple[int, int] | None,
    engine_tile: int | None,
    trains: Sequence[tuple[Sequence[int], int, bool, bool, bool | None]],
    check_below: float,
) -> TableOverlay:
    """The overlay of a table photo of ``size`` (width, height, upright). ``trains`` are
    (tile indexes from the hub outwards, end, open double, unsure, marker seen), numbered
    from 1 in the order given."""
    box = display_box(*size)
    font = round(TABLE_LABEL_PX * max(box) / PHONE_PHOTO_PX, 1)
    shapes = tuple(
        Shape(
            number=index + 1,
            label=f"{tile.high}-{tile.low}",
            corners=scale_corners(tile.corners, size, box),
            unsure=tile.confidence < check_below,
            fit=LabelFit.NONE,
        )
        for index, tile in enumerate(tiles)
    )
    hub_at = None if hub is None else scale_corners([hub], size, box)[0]
    engine = ""
    if engine_tile is not None and 0 <= engine_tile < len(tiles):
        tile = tiles[engine_tile]
        engine = f"engine {tile.high}-{tile.low}"
        if hub_at is None:
            hub_at = shapes[engine_tile].centre
    # Labels are set clear of one another: each train's moves out along its train until free.
    taken: list[_Box] = []
    if hub_at is not None and engine:
        taken.append(_text_box((hub_at[0], hub_at[1] - 2 * font), engine, font))
    lines = []
    for number, (indexes, end, open_double, unsure, marker) in enumerate(trains, start=1):
        centres = [shapes[i].centre for i in indexes]
        path = ([hub_at] if hub_at is not None else []) + centres
        last = shapes[indexes[-1]]
        before = path[-2] if len(path) > 1 else (box[0] / 2, box[1] / 2)
        label = f"{number}: {end}{' open' if open_double else ''}{', marker' if marker else ''}"
        label_at = _beyond(before, last, font, box, label, taken)
        taken.append(_text_box(label_at, label, font))
        lines.append(
            TrainLine(
                number=number,
                path=tuple(path),
                label=label,
                label_at=label_at,
                open_double=last if open_double else None,
                unsure=unsure,
            )
        )
    return TableOverlay(
        width=box[0],
        height=box[1],
        tiles=shapes,
        hub=hub_at,
        engine=engine,
        trains=tuple(lines),
        font_size=font,
    )


def _beyond(
    before: Point, last: Shape, font: float, box: Point, text: str, taken: Sequence[_Box]
) -> Point:
    """Just past a train's last tile, away from the tile before it, clear of the labels
    already placed where it can be, and inside the box."""
    x, y = last.centre
    dx, dy = x - before[0], y - before[1]
    length = math.hypot(dx, dy) or 1.0
    reach = max(math.dist(last.corners[0], corner) for corner in last.corners) / 2 + font
    width = _em_width(text) * font
    at: Point = (x, y)
    for step in range(8):
        far = reach + step * font
        at = (
            _within(x + dx / length * far, width, box[0]),
            _within(y + dy / length * far, font, box[1]),
        )
        if not any(_text_box(at, text, font).overlaps(other) for other in taken):
            break
    return at


def _text_box(middle: Point, text: str, font: float) -> _Box:
    half_width, half_height = _em_width(text) * font / 2, font * 0.6
    return _Box(middle[0] - half_width, middle[1] - half_height, middle[0] + half_width,
                middle[1] + half_height)  # fmt: skip
