"""What a photo was read as, ready to draw over the photo and to list as chips.

Pure functions, no Flask: the tile picker uses them after a photo, and any other page that
shows a photo back (the referee page) can too, with the ``photo_overlay`` template macro
(templates/_photo_overlay.html) and ``drawPhotoOverlay`` in static/js/app.js.

The pipeline gives outlines in the pixels of the photo it decoded, upright (EXIF orientation
applied), with that photo's size. The overlay scales them into a box DISPLAY_LONG_SIDE units
on its long side, the SVG's viewBox: the browser then stretches that box over the shown
photo, whatever its size on screen, and strokes and labels keep one size on every photo.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from statistics import median
from typing import Any

from .rules import Rules, full_set, tile_points

DISPLAY_LONG_SIDE = 1000
HINT_LABEL = "not counted — a tile?"

Point = tuple[float, float]
Corners = Sequence[Sequence[float]]


@dataclass(frozen=True)
class ReadTile:
    """One tile as the photo reader gave it (photo pixels, upright)."""

    high: int
    low: int
    confidence: float
    corners: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Shape:
    """One outline to draw: a tile read (numbered) or a hint (number 0)."""

    number: int
    label: str
    corners: tuple[Point, ...]
    unsure: bool = False

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
    tile_points: Mapping[str, int] = field(default_factory=dict)
    """Points of every tile of the game's set under its blank rule, by the rules engine, for
    the page script to keep the running total as the player fixes tiles."""

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width:g} {self.height:g}"

    @property
    def font_size(self) -> float:
        """Label size in display units: 1/30 of the long side (about 11 px on a phone)."""
        return round(max(self.width, self.height) / 30, 1)

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
    return Overlay(
        width=box[0],
        height=box[1],
        tiles=shapes,
        hints=hint_shapes,
        chips=tuple(chips),
        tile_points=points,
    )


def _centre(corners: Corners) -> Point:
    xs = [float(point[0]) for point in corners]
    ys = [float(point[1]) for point in corners]
    return sum(xs) / len(xs), sum(ys) / len(ys)


def _short_side(corners: Corners) -> float:
    points = [(float(x), float(y)) for x, y in corners]
    sides = [
        ((points[i][0] - points[i - 1][0]) ** 2 + (points[i][1] - points[i - 1][1]) ** 2) ** 0.5
        for i in range(len(points))
    ]
    return float(min(sides))
