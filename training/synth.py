"""Procedural renderer of domino scenes and canonical tile crops (training data and test fixtures).

Everything is drawn with numpy and OpenCV from a seed, so a seed always gives the same picture:

    render_scene(seed, size=(1280, 960), n_tiles=(1, 15), set_max=12, style=None) -> Scene
    render_tile_crop(seed, pips, kind="face", ...) -> (64, 128, 3) uint8 BGR

A scene is a table top seen by a phone camera (tilted up to ~45 degrees) with tiles lying on it:
rows and grids of touching tiles, loose tiles, face-down tiles and tiles cut by the frame. Only
face-up tiles whose whole face is inside the picture are listed in ``Scene.tiles``.

Backgrounds are procedural (wood, felt/cloth, marble, laminate) or sample photographs that ship
with scikit-image when it is installed; nothing is read from disk otherwise.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.rectify import rectify_tiles

MAX_PIPS = 18
STYLE_FAMILIES = ("white_black", "colour", "black_white")
# Families drawn only when asked for by name (adding them to the draw would change every scene
# an older data version renders): "coloured_body", sets moulded in a strong colour (green,
# blue, red, purple...) with white pips, which real photos of tiles in lines showed the finder
# cutting in two at the divider; "plain_black", small black tiles with white pips and no
# divider at all (a robot's webcam frames of such a set had almost none of them found).
NAMED_FAMILIES = ("coloured_body", "plain_black")
CROP_KINDS = ("face", "back", "background", "straddle")

FloatArray = np.ndarray

# Number colours of a typical double-12 colour-per-number set (RGB; converted to BGR on use).
_DOUBLE12_RGB: dict[int, tuple[int, int, int]] = {
    1: (70, 165, 225),
    2: (40, 150, 60),
    3: (205, 35, 40),
    4: (135, 80, 40),
    5: (30, 50, 160),
    6: (230, 190, 25),
    7: (125, 45, 155),
    8: (0, 115, 105),
    9: (85, 105, 140),
    10: (200, 30, 60),
    11: (70, 140, 35),
    12: (55, 55, 60),
    13: (225, 80, 145),
    14: (235, 115, 20),
    15: (20, 30, 90),
    16: (120, 20, 30),
    17: (105, 115, 20),
    18: (20, 20, 20),
}
# Alternative shades seen in other sets for the same numbers.
_ALTERNATIVE_RGB: dict[int, tuple[int, int, int]] = {
    4: (225, 150, 20),
    8: (20, 90, 40),
    10: (235, 100, 20),
    11: (25, 95, 45),
    12: (25, 25, 25),
}


@dataclass(frozen=True)
class SceneTile:
    """A fully visible face-up tile: pip counts (larger first) and its face outline."""

    pips: tuple[int, int]
    corners: np.ndarray = field(compare=False)  # (4, 2) float32, clockwise, first edge long
    # Which end shows which count: the image point at the middle of each half, in the order
    # of ``half_pips`` (training cuts crops along other outlines and must label their ends).
    half_pips: tuple[int, int] = field(default=(0, 0), compare=False)
    half_centres: np.ndarray | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Scene:
    """A rendered photo and the tiles it shows."""

    image: np.ndarray  # (H, W, 3) uint8 BGR
    tiles: tuple[SceneTile, ...]


@dataclass(frozen=True)
class TileStyle:
    """How one set of tiles looks."""

    body: tuple[float, float, float]  # BGR
    side: tuple[float, float, float]  # BGR of the tile's edges (sides)
    back: tuple[float, float, float]  # BGR of the face-down side
    pip_colours: tuple[tuple[float, float, float], ...]  # BGR per count 0..18
    divider: tuple[float, float, float]
    divider_width: float  # fraction of the short side
    divider_length: float  # fraction of the short side
    spinner: bool
    corner_radius: float  # fraction of the short side
    pip_scale: float
    layout_spread: float
    engraved: bool
    aspect: float  # long side / short side
    thickness: float  # fraction of the short side
    rotate_layouts: bool  # 2, 3, 6, ... drawn across instead of along
    # Draw 10..12 in any of the arrangements real sets use; False keeps the 4-row columns.
    dense_variants: bool = True
    # Moulded colour pips: a darker rim and a glint of light, as the pips of many colour sets.
    domed: bool = False
    # A maker's name printed large on the backs (a face-down tile that looks busy, not plain).
    printed_back: bool = False
    # The name printed on one end of the back only, the other end left plain like a blank half.
    printed_back_at_end: bool = False


# --------------------------------------------------------------------------- pip layouts

_COLUMNS = (0.22, 0.5, 0.78)


def _rows(n: int, low: float, high: float) -> list[float]:
    return [low + (high - low) * i / (n - 1) for i in range(n)]


def _three_columns(outer: int, middle: int) -> list[tuple[float, float]]:
    """Two outer columns of ``outer`` pips and a centred middle column of ``middle`` pips."""
    span = {4: (0.16, 0.84), 5: (0.13, 0.87), 6: (0.11, 0.89)}[outer]
    points = [(x, y) for x in (_COLUMNS[0], _COLUMNS[2]) for y in _rows(outer, *span)]
    if middle == 1:
        points.append((0.5, 0.5))
    elif middle > 1:
        inner = (span[1] - span[0]) * (middle - 1) / (outer - 1) / 2
        points += [(0.5, y) for y in _rows(middle, 0.5 - inner, 0.5 + inner)]
    return points


def _two_columns(rows: int, middle: int = 0) -> list[tuple[float, float]]:
    """Two columns of ``rows`` pips (real double-12 sets draw 10 and 12 as 5+5 / 6+6)."""
    span = {5: (0.13, 0.87), 6: (0.11, 0.89)}[rows]
    points = [(x, y) for x in (0.27, 0.73) for y in _rows(rows, *span)]
    points += [(0.5, y) for y in _rows(middle, 0.36, 0.64)] if middle > 1 else []
    return points + ([(0.5, 0.5)] if middle == 1 else [])


def _four_across(middle: int) -> list[tuple[float, float]]:
    """Rows of four at the top and bottom and ``middle`` pips between them, the middle ones at
    the ends (and centre) of the row: how many colour double-12 sets draw 10 and 11."""
    across = _rows(4, 0.14, 0.86)
    points = [(x, y) for y in (0.2, 0.8) for x in across]
    row = {2: [across[0], across[3]], 3: [across[0], 0.5, across[3]], 4: across}[middle]
    return points + [(x, 0.5) for x in row]


def _spread_three_columns(outer: int, middle: int) -> list[tuple[float, float]]:
    """Outer columns of ``outer`` pips and a middle column spanning the same height."""
    low, high = {3: (0.2, 0.8), 4: (0.16, 0.84)}[outer]
    points = [(x, y) for x in (_COLUMNS[0], _COLUMNS[2]) for y in _rows(outer, low, high)]
    middle_low = 0.14 if middle == 4 else low
    return points + [(0.5, y) for y in _rows(middle, middle_low, 1 - middle_low)]


# Other arrangements real sets use for 10..12, besides the 4-row columns of pip_layout's
# variant 0; each is (points, radius) and is picked at random per half when drawing.
_DENSE_VARIANTS: dict[int, list[tuple[list[tuple[float, float]], float]]] = {
    10: [
        (_two_columns(5), 0.07),  # two rows of 5
        (_spread_three_columns(3, 4), 0.075),  # 3-4-3
        (_four_across(2), 0.085),  # 4-2-4, the middle two at the ends
    ],
    11: [
        (_spread_three_columns(4, 3), 0.08),  # 4-3-4, middle column as tall as the outer
        (_two_columns(5, 1), 0.07),  # 5-1-5
        (_four_across(3), 0.085),  # 4-3-4 across
    ],
    12: [
        (_two_columns(6), 0.058),  # two rows of 6
        (_two_columns(5, 2), 0.07),  # 5-2-5
        (_four_across(4), 0.085),  # three rows of 4, pips as big as the 10's and 11's
    ],
}


def layout_variants(count: int) -> int:
    """How many pip arrangements pip_layout knows for ``count`` (more than one for 10..12)."""
    return 1 + len(_DENSE_VARIANTS.get(count, []))


def pip_layout(count: int, variant: int = 0) -> tuple[np.ndarray, float]:
    """Pip centres of a half in unit-square coordinates and the pip radius (same units).

    0..9 use the classic 3x3 grid, 10..12 a 3-column grid of 4 rows, 13..15 of 5 rows and
    16..18 of 6 rows, as double-12/-15/-18 sets do. ``variant`` 1.. picks one of the other
    arrangements of 10..12 (see layout_variants).
    """
    if not 0 <= count <= MAX_PIPS:
        raise ValueError(f"a half has 0..{MAX_PIPS} pips, not {count}")
    if not 0 <= variant < layout_variants(count):
        raise ValueError(
            f"{count} pips have layouts 0..{layout_variants(count) - 1}, not {variant}"
        )
    a, b, c = _COLUMNS
    grid: dict[int, list[tuple[float, float]]] = {
        0: [],
        1: [(b, b)],
        2: [(a, a), (c, c)],
        3: [(a, a), (b, b), (c, c)],
        4: [(a, a), (c, a), (a, c), (c, c)],
        5: [(a, a), (c, a), (a, c), (c, c), (b, b)],
        6: [(x, y) for x in (a, c) for y in (a, b, c)],
        7: [(x, y) for x in (a, c) for y in (a, b, c)] + [(b, b)],
        8: [(x, y) for x in (a, b, c) for y in (a, b, c) if (x, y) != (b, b)],
        9: [(x, y) for x in (a, b, c) for y in (a, b, c)],
    }
    if variant:
        points, radius = _DENSE_VARIANTS[count][variant - 1]
    elif count in grid:
        points = grid[count]
        radius = 0.095
    elif count <= 12:
        points = _three_columns(4, count - 8)
        radius = 0.08
    elif count <= 15:
        points = _three_columns(5, count - 10)
        radius = 0.066
    else:
        points = _three_columns(6, count - 12)
        radius = 0.056
    return np.array(points, dtype=np.float32).reshape(-1, 2), radius


# --------------------------------------------------------------------------- styles


def _bgr(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    return (float(rgb[2]), float(rgb[1]), float(rgb[0]))


def _luma(bgr: Sequence[float]) -> float:
    return 0.114 * bgr[0] + 0.587 * bgr[1] + 0.299 * bgr[2]


def _jitter_colour(rng: np.random.Generator, bgr: Sequence[float], amount: float) -> np.ndarray:
    pixel = np.clip(np.asarray(bgr, np.float64), 0, 255).astype(np.uint8).reshape(1, 1, 3)
    hsv = cv2.cvtColor(pixel, cv2.COLOR_BGR2HSV)[0, 0].astype(float)
    hsv[0] = (hsv[0] + rng.normal(0, 6 * amount)) % 180
    hsv[1] = np.clip(hsv[1] * rng.uniform(1 - 0.25 * amount, 1 + 0.15 * amount), 0, 255)
    hsv[2] = np.clip(hsv[2] * rng.uniform(1 - 0.25 * amount, 1 + 0.15 * amount), 0, 255)
    out = cv2.cvtColor(hsv.astype(np.uint8).reshape(1, 1, 3), cv2.COLOR_HSV2BGR)[0, 0]
    return np.asarray(out, dtype=np.float64)


def _contrasting(pip: np.ndarray, body: Sequence[float]) -> tuple[float, float, float]:
    """Keep a pip clearly apart from the body: real sets never paint pips body-coloured."""
    pair = np.clip(np.array([pip, body], np.float64), 0, 255).astype(np.uint8).reshape(1, 2, 3)
    lab = cv2.cvtColor(pair, cv2.COLOR_BGR2LAB)
    lab = lab[0].astype(float)
    distance = float(np.linalg.norm(lab[0] - lab[1]))
    out = pip.astype(float)
    if distance < 70:
        if _luma(body) > 128:
            out = out * 0.55
        else:
            out = 255 - (255 - out) * 0.4
    return (float(out[0]), float(out[1]), float(out[2]))


def random_style(rng: np.random.Generator, family: str | None = None) -> TileStyle:
    """A random tile set from a family (one of STYLE_FAMILIES or NAMED_FAMILIES, or None for
    one of STYLE_FAMILIES)."""
    if family is None:
        family = str(rng.choice(STYLE_FAMILIES, p=[0.3, 0.5, 0.2]))
    if family == "coloured_body":
        return _coloured_body_style(rng)
    if family == "plain_black":
        return _plain_black_style(rng)
    if family not in STYLE_FAMILIES:
        known = STYLE_FAMILIES + NAMED_FAMILIES
        raise ValueError(f"unknown style family {family!r}; expected one of {known}")
    if family == "black_white":
        shade = rng.uniform(10, 45)
        body = np.array([shade, shade, shade]) + rng.normal(0, 4, 3)
    else:
        kind = rng.choice(["white", "ivory", "cream", "grey"], p=[0.45, 0.3, 0.15, 0.1])
        base = {
            "white": (250, 250, 250),
            "ivory": (222, 240, 247),
            "cream": (200, 228, 240),
            "grey": (222, 224, 226),
        }[str(kind)]
        body = np.array(base, dtype=float) * rng.uniform(0.9, 1.02) + rng.normal(0, 3, 3)
    body = np.clip(body, 0, 255)
    body_t = (float(body[0]), float(body[1]), float(body[2]))

    pips: list[tuple[float, float, float]] = [(0.0, 0.0, 0.0)]
    if family == "white_black":
        ink = rng.uniform(0, 40)
        for _ in range(MAX_PIPS):
            pips.append((ink, ink, ink))
    elif family == "black_white" and rng.random() < 0.6:
        ink = rng.uniform(215, 255)
        for _ in range(MAX_PIPS):
            pips.append((ink, ink * rng.uniform(0.93, 1.0), ink * rng.uniform(0.9, 1.0)))
    else:
        numbers = list(range(1, MAX_PIPS + 1))
        source = [_DOUBLE12_RGB[n] for n in numbers]
        if rng.random() < 0.3:
            source = [
                _ALTERNATIVE_RGB.get(n, _DOUBLE12_RGB[n]) if rng.random() < 0.6 else source[i]
                for i, n in enumerate(numbers)
            ]
        if rng.random() < 0.25:
            order = rng.permutation(len(source))
            source = [source[int(i)] for i in order]
        for rgb in source:
            colour = _jitter_colour(rng, _bgr(rgb), 1.0)
            if family == "black_white":
                colour = np.clip(colour * 1.25 + 30, 0, 255)
            pips.append(_contrasting(colour, body_t))

    if family == "black_white":
        divider = tuple(float(v) for v in rng.uniform(160, 240, 3))
    elif rng.random() < 0.2:
        divider = (60.0, 140.0, 175.0)  # brass
    else:
        divider = tuple(float(v) for v in np.full(3, rng.uniform(10, 110)))
    side_scale = rng.uniform(0.62, 0.85) if family != "black_white" else rng.uniform(0.8, 1.3)
    side = tuple(float(v) for v in np.clip(body * side_scale, 0, 255))
    back = body_t if rng.random() < 0.6 else tuple(float(v) for v in rng.uniform(20, 230, 3))
    if rng.random() < 0.2:  # two-tone tiles: coloured back and sides
        side = back = tuple(float(v) for v in rng.uniform(20, 200, 3))
    return TileStyle(
        body=body_t,
        side=(side[0], side[1], side[2]),
        back=(back[0], back[1], back[2]),
        pip_colours=tuple(pips),
        divider=(divider[0], divider[1], divider[2]),
        divider_width=float(rng.uniform(0.015, 0.13)),
        divider_length=float(rng.uniform(0.6, 1.0)),
        spinner=bool(rng.random() < 0.3),
        corner_radius=float(rng.uniform(0.04, 0.2)),
        pip_scale=float(rng.uniform(0.8, 1.45)),
        layout_spread=float(rng.uniform(0.85, 1.35)),
        engraved=bool(rng.random() < 0.5),
        aspect=float(rng.uniform(1.9, 2.08)),
        thickness=float(rng.uniform(0.18, 0.38)),
        rotate_layouts=bool(rng.random() < 0.5),
        domed=family == "colour" and bool(rng.random() < 0.6),
    )


def _plain_black_style(rng: np.random.Generator) -> TileStyle:
    """Black tiles with white pips and no divider: the halves are told apart by the gap
    between their pips alone. Thin, with barely rounded corners, as cheap sets are."""
    style = random_style(rng, "black_white")
    ink = float(rng.uniform(215, 255))
    return replace(
        style,
        pip_colours=((0.0, 0.0, 0.0),) + ((ink, ink, ink),) * (len(style.pip_colours) - 1),
        divider=style.body,
        spinner=False,
        corner_radius=float(rng.uniform(0.02, 0.08)),
        thickness=float(rng.uniform(0.12, 0.25)),
        engraved=False,
    )


def _coloured_body_style(rng: np.random.Generator) -> TileStyle:
    """A set moulded in a strong colour with white (now and then gold or black) pips and a
    pale divider, its sides and back the body's colour."""
    hue = float(rng.uniform(0, 180))
    saturation = float(rng.uniform(110, 235))
    value = float(rng.uniform(70, 200))
    hsv = np.array([[[hue, saturation, value]]], np.uint8)
    body = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(float)
    body_t = (float(body[0]), float(body[1]), float(body[2]))
    ink_kind = rng.choice(["white", "gold", "black"], p=[0.8, 0.12, 0.08])
    if ink_kind == "white":
        ink = rng.uniform(215, 255)
        pip = (ink, ink * rng.uniform(0.95, 1.0), ink * rng.uniform(0.92, 1.0))
    elif ink_kind == "gold":
        pip = (40.0, 180.0, 220.0)
    else:
        pip = (20.0, 20.0, 20.0)
    pip = _contrasting(np.asarray(pip, np.float64), body_t)
    divider = tuple(float(v) for v in np.clip(np.asarray(pip) * rng.uniform(0.85, 1.0), 0, 255))
    side = tuple(float(v) for v in np.clip(body * rng.uniform(0.7, 1.05), 0, 255))
    return TileStyle(
        body=body_t,
        side=(side[0], side[1], side[2]),
        back=body_t,
        pip_colours=((0.0, 0.0, 0.0),) + (pip,) * MAX_PIPS,
        divider=(divider[0], divider[1], divider[2]),
        divider_width=float(rng.uniform(0.015, 0.06)),
        divider_length=float(rng.uniform(0.6, 0.95)),
        spinner=bool(rng.random() < 0.2),
        corner_radius=float(rng.uniform(0.06, 0.2)),
        pip_scale=float(rng.uniform(0.9, 1.45)),
        layout_spread=float(rng.uniform(0.85, 1.3)),
        engraved=bool(rng.random() < 0.5),
        aspect=float(rng.uniform(1.9, 2.08)),
        thickness=float(rng.uniform(0.22, 0.4)),
        rotate_layouts=bool(rng.random() < 0.5),
        domed=False,
    )


# --------------------------------------------------------------------------- tile textures


def _rounded_mask(height: int, width: int, radius: float) -> np.ndarray:
    """Antialiased alpha (float32 0..1) of a rounded rectangle filling the texture."""
    scale = 4
    big = np.zeros((height * scale, width * scale), np.uint8)
    r = max(1, int(radius * scale))
    hh, ww = height * scale - 1, width * scale - 1
    cv2.rectangle(big, (r, 0), (ww - r, hh), 255, -1)
    cv2.rectangle(big, (0, r), (ww, hh - r), 255, -1)
    for cx, cy in ((r, r), (ww - r, r), (r, hh - r), (ww - r, hh - r)):
        cv2.circle(big, (cx, cy), r, 255, -1)
    small = cv2.resize(big, (width, height), interpolation=cv2.INTER_AREA)
    return small.astype(np.float32) / 255.0


def _bevel(height: int, width: int, short: float, rng: np.random.Generator) -> np.ndarray:
    """Brightness multiplier of a bevelled, softly lit tile face."""
    ys = np.arange(height, dtype=np.float32)[:, None]
    xs = np.arange(width, dtype=np.float32)[None, :]
    band = max(1.0, short * rng.uniform(0.03, 0.1))
    left = np.clip(xs / band, 0, 1)
    right = np.clip((width - 1 - xs) / band, 0, 1)
    top = np.clip(ys / band, 0, 1)
    bottom = np.clip((height - 1 - ys) / band, 0, 1)
    light = rng.uniform(-1, 1, 2)
    shade = np.ones((height, width), np.float32)
    strength = rng.uniform(0.1, 0.3)
    shade += strength * (1 - left) * light[0] - strength * (1 - right) * light[0]
    shade += strength * (1 - top) * light[1] - strength * (1 - bottom) * light[1]
    shade -= strength * 0.5 * ((1 - left) + (1 - right) + (1 - top) + (1 - bottom))
    gradient = rng.uniform(-0.08, 0.08, 2)
    shade += gradient[0] * (xs / width - 0.5) + gradient[1] * (ys / height - 0.5)
    return np.clip(shade, 0.4, 1.3)


def _draw_pips(
    canvas: np.ndarray,
    count: int,
    origin: tuple[float, float],
    size: float,
    style: TileStyle,
    rng: np.random.Generator,
) -> None:
    if count == 0:
        return
    # One uniform draw decides the mirroring (below 0.5) and, from its other bit of range, the
    # layout variant, so halves of other counts render exactly as before.
    draw = rng.random()
    variant = int((draw * 2 % 1) * layout_variants(count)) if style.dense_variants else 0
    points, radius = pip_layout(count, variant)
    r_unit = radius * style.pip_scale
    reach = float(np.abs(points - 0.5).max()) if count > 1 else 0.0
    # Sets differ in how far pips spread; they never run off the half.
    spread = min(style.layout_spread, (0.53 - r_unit) / reach) if reach else 1.0
    points = (points - 0.5) * spread
    if style.rotate_layouts:
        points = points[:, ::-1]
    if draw < 0.5:  # some sets mirror their diagonal layouts
        points = points * np.array([-1.0, 1.0], dtype=np.float32)
    points = points + 0.5 + rng.normal(0, 0.008, points.shape)
    r_px = r_unit * size
    colour = np.array(style.pip_colours[count], dtype=np.float64)
    shift = 4
    for px, py in points:
        cx = origin[0] + px * size
        cy = origin[1] + py * size
        centre = (int(round(cx * (1 << shift))), int(round(cy * (1 << shift))))
        rad = max(1, int(round(r_px * (1 << shift))))
        if style.domed:
            _domed_pip(canvas, centre, rad, colour, shift)
        elif style.engraved:
            rim = colour * 0.55
            cv2.circle(canvas, centre, rad, rim.tolist(), -1, cv2.LINE_AA, shift)
            inner = (centre[0] + rad // 6, centre[1] + rad // 6)
            cv2.circle(canvas, inner, int(rad * 0.8), colour.tolist(), -1, cv2.LINE_AA, shift)
        else:
            cv2.circle(canvas, centre, rad, colour.tolist(), -1, cv2.LINE_AA, shift)


def _domed_pip(
    canvas: np.ndarray, centre: tuple[int, int], rad: int, colour: np.ndarray, shift: int
) -> None:
    """A moulded pip: dark rim, lit body, and a small glint towards the light."""
    cv2.circle(canvas, centre, rad, (colour * 0.6).tolist(), -1, cv2.LINE_AA, shift)
    cv2.circle(canvas, centre, int(rad * 0.82), colour.tolist(), -1, cv2.LINE_AA, shift)
    glint = (centre[0] - int(rad * 0.3), centre[1] - int(rad * 0.3))
    shine = colour + (255.0 - colour) * 0.55
    cv2.circle(canvas, glint, max(1, int(rad * 0.28)), shine.tolist(), -1, cv2.LINE_AA, shift)


def render_face_texture(
    pips: tuple[int, int],
    style: TileStyle,
    short_px: int,
    rng: np.random.Generator,
    flat: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Face texture (float32 BGR) with pips[0] on the left half, and its alpha mask.
    ``flat`` leaves out the bevel's shading: a picture of a domino printed on card."""
    height = max(8, short_px)
    width = max(16, int(round(style.aspect * height)))
    canvas = np.empty((height, width, 3), np.float32)
    canvas[:] = style.body
    canvas += rng.normal(0, 1.5, (height, width, 1)).astype(np.float32)
    half = width / 2
    pad = height * 0.06
    _draw_pips(canvas, pips[0], (pad, pad), height - 2 * pad, style, rng)
    _draw_pips(canvas, pips[1], (half + pad * 0.6, pad), height - 2 * pad, style, rng)
    bar_w = max(1.0, style.divider_width * height)
    bar_len = style.divider_length * height
    x0, x1 = half - bar_w / 2, half + bar_w / 2
    y0, y1 = (height - bar_len) / 2, (height + bar_len) / 2
    shift = 4
    scale = 1 << shift
    cv2.rectangle(
        canvas,
        (int(x0 * scale), int(y0 * scale)),
        (int(x1 * scale), int(y1 * scale)),
        style.divider,
        -1,
        cv2.LINE_AA,
        shift,
    )
    if style.spinner:
        centre = (int(half * scale), int(height / 2 * scale))
        cv2.circle(
            canvas, centre, int(height * 0.07 * scale), (70, 150, 190), -1, cv2.LINE_AA, shift
        )
        cv2.circle(
            canvas, centre, int(height * 0.035 * scale), (140, 210, 235), -1, cv2.LINE_AA, shift
        )
    if not flat:
        canvas *= _bevel(height, width, height, rng)[:, :, None]
    alpha = _rounded_mask(height, width, style.corner_radius * height)
    return canvas, alpha


def render_back_texture(
    style: TileStyle, short_px: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """A face-down tile: plain back, sometimes with a faint embossed mark."""
    height = max(8, short_px)
    width = max(16, int(round(style.aspect * height)))
    canvas = np.empty((height, width, 3), np.float32)
    canvas[:] = style.back
    canvas += rng.normal(0, 2, (height, width, 1)).astype(np.float32)
    if rng.random() < 0.3:
        mark = np.array(style.back, np.float32) * 0.85
        cv2.ellipse(
            canvas,
            (width // 2, height // 2),
            (max(1, int(height * 0.3)), max(1, int(height * 0.2))),
            0,
            0,
            360,
            mark.tolist(),
            max(1, height // 30),
            cv2.LINE_AA,
        )
    if style.printed_back:
        _print_on_back(canvas, rng, style.printed_back_at_end)
    canvas *= _bevel(height, width, height, rng)[:, :, None]
    return canvas, _rounded_mask(height, width, style.corner_radius * height)


_BACK_LETTERS = "ABCDEFGHKMNOPRSTUWXZ"


def _print_on_back(canvas: np.ndarray, rng: np.random.Generator, at_end: bool = False) -> None:
    """Two or three bold capitals across the back, sometimes over a band of small dots: real
    backs print a brand this way, and its round letters can pass for pips. ``at_end`` prints
    them within one end, leaving the other plain: a back that looks like a face with one blank
    half, save for the missing divider."""
    height, width = canvas.shape[:2]
    ink = rng.uniform(20, 110, 3).astype(np.float32)
    letters = "".join(rng.choice(list(_BACK_LETTERS), int(rng.integers(2, 4))))
    scale = height / 30.0 * rng.uniform(0.75, 1.05)
    thickness = max(1, int(height / 9))
    room = width * (0.42 if at_end else 0.9)
    (text_w, text_h), _ = cv2.getTextSize(letters, cv2.FONT_HERSHEY_DUPLEX, scale, thickness)
    if text_w > room:
        scale *= room / text_w
        (text_w, text_h), _ = cv2.getTextSize(letters, cv2.FONT_HERSHEY_DUPLEX, scale, thickness)
    origin = ((width - text_w) // 2, (height + text_h) // 2)
    centre_x = width // 2
    if at_end:
        centre_x = width // 4 if rng.random() < 0.5 else 3 * width // 4
        origin = (centre_x - text_w // 2, origin[1])
    # OpenCV writes text on 8-bit images only: print on a mask, then ink the float canvas.
    mask = np.zeros((height, width), np.uint8)
    cv2.putText(mask, letters, origin, cv2.FONT_HERSHEY_DUPLEX, scale, 255, thickness, cv2.LINE_AA)
    if rng.random() < 0.6:
        band_y = min(height - 2, origin[1] + max(2, height // 8))
        band = (0.15, 0.85) if not at_end else (centre_x / width - 0.2, centre_x / width + 0.2)
        for x in np.linspace(width * band[0], width * band[1], int(rng.integers(6, 12))):
            cv2.circle(mask, (int(x), band_y), max(1, height // 40), 255, -1, cv2.LINE_AA)
    share = (mask.astype(np.float32) / 255.0)[:, :, None]
    canvas *= 1.0 - share
    canvas += share * ink


# --------------------------------------------------------------------------- backgrounds


def _noise(rng: np.random.Generator, height: int, width: int, cell: float) -> np.ndarray:
    """Smooth value noise in [0, 1] with features about ``cell`` pixels apart."""
    gh = max(2, int(height / cell) + 2)
    gw = max(2, int(width / cell) + 2)
    small = rng.random((gh, gw)).astype(np.float32)
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)


def _fractal(rng: np.random.Generator, height: int, width: int, cell: float) -> np.ndarray:
    out = np.zeros((height, width), np.float32)
    amp = 1.0
    total = 0.0
    while cell >= 2 and amp > 0.05:
        out += amp * _noise(rng, height, width, cell)
        total += amp
        cell /= 2
        amp /= 2
    return out / max(total, 1e-6)


def _colourise(gray: np.ndarray, dark: np.ndarray, light: np.ndarray) -> np.ndarray:
    g = np.clip(gray, 0, 1)[:, :, None]
    return np.asarray(dark[None, None, :] * (1 - g) + light[None, None, :] * g, np.float32)


def _wood(rng: np.random.Generator, height: int, width: int, unit: float) -> np.ndarray:
    tone = rng.choice(["pine", "oak", "walnut", "white", "grey"], p=[0.3, 0.3, 0.2, 0.1, 0.1])
    light = {
        "pine": (150, 200, 230),
        "oak": (105, 150, 190),
        "walnut": (55, 80, 110),
        "white": (215, 225, 232),
        "grey": (150, 155, 160),
    }[str(tone)]
    light_a = np.array(light, np.float32) * rng.uniform(0.85, 1.1)
    dark_a = light_a * rng.uniform(0.5, 0.8)
    diag = int(math.hypot(height, width)) + 2
    stretch = rng.uniform(6, 20)
    warp = _fractal(rng, diag, diag, unit * rng.uniform(1, 4))
    ys = np.arange(diag, dtype=np.float32)[:, None]
    freq = rng.uniform(0.15, 0.6) / max(unit, 1) * 2 * math.pi
    grain = 0.5 + 0.5 * np.sin(ys * freq + warp * stretch)
    grain = grain ** rng.uniform(1, 4)
    fine = _noise(rng, diag, diag, max(2.0, unit * 0.05))
    fine = cv2.resize(cv2.resize(fine, (diag, max(2, diag // 12))), (diag, diag))
    gray = 0.6 * grain + 0.4 * fine
    if rng.random() < 0.6:  # planks
        plank = rng.uniform(3, 8) * unit
        seam = (np.mod(ys, plank) < max(1.0, unit * 0.04)).astype(np.float32)
        gray = gray * (1 - 0.6 * seam)
    image = _colourise(gray, dark_a, light_a)
    angle = rng.uniform(0, 180)
    matrix = cv2.getRotationMatrix2D((diag / 2, diag / 2), angle, 1.0)
    rotated = cv2.warpAffine(image, matrix, (diag, diag), borderMode=cv2.BORDER_REFLECT)
    y0 = (diag - height) // 2
    x0 = (diag - width) // 2
    return rotated[y0 : y0 + height, x0 : x0 + width]


def _cloth(rng: np.random.Generator, height: int, width: int, unit: float) -> np.ndarray:
    base = rng.choice(
        [(40, 110, 30), (120, 60, 20), (30, 30, 140), (90, 90, 90), (170, 200, 215), (40, 40, 40)]
    )
    base_a = np.array(base, np.float32) * rng.uniform(0.7, 1.3)
    texture = 0.7 * _fractal(rng, height, width, unit * rng.uniform(0.5, 3)) + 0.3 * rng.random(
        (height, width)
    ).astype(np.float32)
    image = base_a[None, None, :] * (0.75 + 0.5 * texture[:, :, None])
    if rng.random() < 0.5:  # weave
        period = max(2.0, rng.uniform(0.03, 0.12) * unit)
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        weave = np.sin(xs * 2 * math.pi / period) * np.sin(ys * 2 * math.pi / period)
        image *= (1 + 0.08 * weave)[:, :, None]
    if rng.random() < 0.3:  # printed pattern (checks or stripes)
        period = rng.uniform(1, 5) * unit
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        checks = ((xs // period + ys // period) % 2).astype(np.float32)
        other = rng.uniform(30, 230, 3).astype(np.float32)
        image = image * (1 - 0.5 * checks[:, :, None]) + 0.5 * checks[:, :, None] * other
    return image.astype(np.float32)


def _marble(rng: np.random.Generator, height: int, width: int, unit: float) -> np.ndarray:
    base = rng.choice(["white", "grey", "black", "green"], p=[0.45, 0.25, 0.2, 0.1])
    light, dark = {
        "white": ((235, 235, 232), (150, 150, 155)),
        "grey": ((180, 180, 175), (90, 90, 95)),
        "black": ((45, 45, 45), (120, 120, 125)),
        "green": ((70, 110, 60), (25, 40, 20)),
    }[str(base)]
    turbulence = _fractal(rng, height, width, unit * rng.uniform(2, 8))
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, math.pi)
    along = xs * math.cos(angle) + ys * math.sin(angle)
    veins = np.abs(np.sin(along / (unit * rng.uniform(2, 6)) + turbulence * rng.uniform(4, 10)))
    veins = 1 - veins ** rng.uniform(0.2, 0.6)
    gray = 1 - veins * rng.uniform(0.4, 0.9)
    return _colourise(gray, np.array(dark, np.float32), np.array(light, np.float32))


def _laminate(rng: np.random.Generator, height: int, width: int, unit: float) -> np.ndarray:
    base = rng.uniform(60, 245, 3).astype(np.float32)
    if rng.random() < 0.5:
        base[:] = base.mean()
    texture = _fractal(rng, height, width, unit * 3)
    return base[None, None, :] * (0.92 + 0.16 * texture[:, :, None])


@functools.lru_cache(maxsize=1)
def _sample_photos() -> tuple[np.ndarray, ...]:
    """Real photographs bundled with scikit-image (if installed), as BGR uint8."""
    try:
        from skimage import data as skdata
    except ImportError:
        return ()
    photos: list[np.ndarray] = []
    for name in (
        "brick",
        "grass",
        "gravel",
        "coffee",
        "chelsea",
        "astronaut",
        "rocket",
        "camera",
        "coins",
        "moon",
        "hubble_deep_field",
        "immunohistochemistry",
    ):
        try:
            image = np.asarray(getattr(skdata, name)())
        except Exception:  # a sample that needs a download is simply skipped
            continue
        if image.dtype != np.uint8:
            continue
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        else:
            image = cv2.cvtColor(image[:, :, :3], cv2.COLOR_RGB2BGR)
        photos.append(image)
    return tuple(photos)


def table_tops_note() -> str:
    """Which table tops the renderer draws from here: with scikit-image's sample photographs
    a fifth of the tops are photos, without it cloth, and every scene after the first such top
    comes out otherwise, so figures on rendered scenes compare only within one of the two."""
    try:
        from importlib.metadata import version

        source = f"scikit-image {version('scikit-image')}"
    except Exception:  # noqa: BLE001 - not installed, or installed without its metadata
        source = "scikit-image not installed"
    return f"table tops: {len(_photos_in_use())} sample photographs ({source})"


_with_sample_photos = True


def use_sample_photos(use: bool = True) -> None:
    """Draw a fifth of the table tops from scikit-image's sample photographs where it is
    installed (the default, as the models learnt), or never: benchmarks and tests then render
    the same scenes on every machine, with the train extra installed or not."""
    global _with_sample_photos
    _with_sample_photos = use


def _photos_in_use() -> tuple[np.ndarray, ...]:
    return _sample_photos() if _with_sample_photos else ()


def _photo(rng: np.random.Generator, height: int, width: int, unit: float) -> np.ndarray:
    photos = _photos_in_use()
    if not photos:
        return _cloth(rng, height, width, unit)
    source = photos[int(rng.integers(len(photos)))]
    sh, sw = source.shape[:2]
    crop_frac = rng.uniform(0.4, 1.0)
    ch, cw = max(8, int(sh * crop_frac)), max(8, int(sw * crop_frac))
    y0 = int(rng.integers(0, sh - ch + 1))
    x0 = int(rng.integers(0, sw - cw + 1))
    patch = source[y0 : y0 + ch, x0 : x0 + cw]
    if rng.random() < 0.5:
        patch = patch[:, ::-1]
    image = cv2.resize(patch, (width, height), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    return image * rng.uniform(0.7, 1.1)


def _pale_table(
    rng: np.random.Generator,
    height: int,
    width: int,
    unit: float,
    tile_body: tuple[float, float, float],
) -> np.ndarray:
    """A plain table of nearly the tiles' own colour (a white cloth, a pale laminate), with a
    faint texture and a gentle fall-off of light across it."""
    tint = rng.normal(0, 6, 3)
    base = np.clip(np.array(tile_body, np.float32) * rng.uniform(0.9, 1.02) + tint, 0, 255)
    texture = _fractal(rng, height, width, max(unit, 4.0) * 3)
    ramp = np.linspace(rng.uniform(0.94, 1.0), rng.uniform(0.94, 1.0), width, dtype=np.float32)
    surface = (0.97 + 0.06 * texture) * ramp[None, :]
    return np.asarray(base[None, None, :] * surface[:, :, None], np.float32)


_CHECK_COLOURS = (  # BGR of a check cloth's stripes: navy, red, green, black, brown, sky
    (110, 50, 30),
    (40, 40, 170),
    (50, 110, 40),
    (35, 35, 35),
    (40, 70, 110),
    (200, 150, 90),
)


def _gingham(rng: np.random.Generator, height: int, width: int, unit: float) -> np.ndarray:
    """A woven check cloth: stripes of one colour crossing a pale ground both ways, so the
    checks come in three tones (ground, one stripe, both), each about a tile's width across,
    with a twill's fine diagonal texture. Real photos of tiles on such a cloth had slivers of
    its checks counted as tiles."""
    ground = np.clip(rng.uniform(215, 250) + rng.normal(0, 6, 3), 0, 255).astype(np.float32)
    stripe = np.array(_CHECK_COLOURS[int(rng.integers(len(_CHECK_COLOURS)))], np.float32)
    stripe = np.clip(stripe * rng.uniform(0.7, 1.3) + rng.normal(0, 8, 3), 0, 255)
    period = rng.uniform(0.6, 2.5) * unit
    turn = rng.uniform(0, math.pi / 2)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    u = (xs * math.cos(turn) + ys * math.sin(turn)) / period
    v = (ys * math.cos(turn) - xs * math.sin(turn)) / period
    cover = 0.5 * (np.floor(u) % 2 + np.floor(v) % 2)
    cover = cv2.GaussianBlur(cover.astype(np.float32), (0, 0), max(0.5, 0.03 * unit))
    twill = np.sin((xs + ys) * 2 * math.pi / max(2.0, rng.uniform(0.04, 0.1) * unit))
    shade = 0.92 + 0.16 * _fractal(rng, height, width, unit * 4) + 0.05 * twill
    image = ground[None, None, :] * (1 - cover[:, :, None]) + stripe * cover[:, :, None]
    return np.asarray(image * shade[:, :, None], np.float32)


def render_background(rng: np.random.Generator, height: int, width: int, unit: float) -> np.ndarray:
    """A table top, float32 BGR; ``unit`` is about one tile's short side in pixels."""
    makers = (_wood, _cloth, _marble, _laminate, _photo)
    maker = makers[int(rng.choice(len(makers), p=[0.3, 0.2, 0.15, 0.15, 0.2]))]
    return maker(rng, height, width, max(unit, 4.0))


def paint_check_patterns(
    canvas: np.ndarray,
    seed: int,
    unit: float,
    project: Callable[[np.ndarray], np.ndarray],
    extent: tuple[np.ndarray, np.ndarray],
) -> None:
    """Lay what is checked and not a tile on the table: a gingham cloth over all of it half
    the time, else one or two printed black-and-white checkerboards (a camera's calibration
    card, a game board) lying on it. ``project`` maps table points (x, y, height, in tile
    short sides) to the picture, ``extent`` is the table's (low, high) corners there and
    ``unit`` a short side in pixels. They are drawn from scene ``seed``'s random stream of
    their own, so the rest of the scene is drawn as without them."""
    rng = np.random.default_rng((seed, 3))
    height, width = canvas.shape[:2]
    low, high = extent
    if rng.random() < 0.5:
        extent_units = np.maximum(high - low, 1.0)
        scale = min(max(unit, 4.0), _TABLE_TEXTURE_SIDE / float(extent_units.max()))
        texture_w = max(8, int(math.ceil(extent_units[0] * scale)))
        texture_h = max(8, int(math.ceil(extent_units[1] * scale)))
        cloth = _gingham(rng, texture_h, texture_w, scale)
        table = np.array([low, [high[0], low[1]], high, [low[0], high[1]]], np.float64)
        target = project(np.column_stack([table, np.zeros(4)]))
        source = np.array([[0, 0], [texture_w, 0], [texture_w, texture_h], [0, texture_h]])
        matrix = cv2.getPerspectiveTransform(source.astype(np.float32), target.astype(np.float32))
        canvas[:] = cv2.warpPerspective(
            cloth, matrix, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
        )
        return
    for _ in range(int(rng.integers(1, 3))):
        columns, rows = int(rng.integers(4, 10)), int(rng.integers(3, 8))
        square = float(rng.uniform(0.6, 1.6))
        cells = 24
        margin = cells // 2
        board = np.full((rows * cells + 2 * margin, columns * cells + 2 * margin), 1.0, np.float32)
        for row in range(rows):
            for column in range(columns):
                if (row + column) % 2 == 0:
                    y, x = margin + row * cells, margin + column * cells
                    board[y : y + cells, x : x + cells] = rng.uniform(0.05, 0.2)
        paper = float(rng.uniform(170, 250))
        texture = np.repeat(board[:, :, None] * paper, 3, axis=2).astype(np.float32)
        alpha = np.ones(board.shape, np.float32)
        half = np.array([board.shape[1], board.shape[0]], np.float64) / cells * square / 2
        turn = rng.uniform(0, 2 * math.pi)
        c, s = math.cos(turn), math.sin(turn)
        centre = low + rng.uniform(0.1, 0.9, 2) * (high - low)
        local = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * half
        corners = local @ np.array([[c, s], [-s, c]]) + centre
        _paste_flat(canvas, texture, alpha, project(np.column_stack([corners, np.zeros(4)])))


# --------------------------------------------------------------------------- camera


@dataclass(frozen=True)
class _Camera:
    focal: float
    centre: tuple[float, float]
    rotation: np.ndarray
    translation: np.ndarray

    def project(self, points: np.ndarray) -> np.ndarray:
        cam = points @ self.rotation.T + self.translation
        z = np.maximum(cam[:, 2:3], 1e-6)
        return np.asarray(cam[:, :2] / z * self.focal + np.array(self.centre), np.float32)

    def depth(self, points: np.ndarray) -> np.ndarray:
        return np.asarray((points @ self.rotation.T + self.translation)[:, 2])

    def image_to_table(self, pixels: np.ndarray) -> np.ndarray:
        """Where image points hit the table plane z = 0 (camera tilt keeps the horizon out)."""
        rays = np.column_stack(
            [
                (pixels[:, 0] - self.centre[0]) / self.focal,
                (pixels[:, 1] - self.centre[1]) / self.focal,
                np.ones(len(pixels)),
            ]
        )
        origin = -self.rotation.T @ self.translation
        directions = rays @ self.rotation  # R^T applied to each ray
        t = -origin[2] / directions[:, 2]
        return np.asarray((origin[None, :] + t[:, None] * directions)[:, :2])


def _make_camera(
    rng: np.random.Generator,
    focal: float,
    centre: tuple[float, float],
    unit_px: float,
    max_tilt_deg: float,
    tilt_deg: float | None = None,
) -> _Camera:
    """A camera looking at the table's origin from ``tilt_deg`` off straight down (drawn up
    to ``max_tilt_deg`` when not given), turned at random about the table's normal."""
    if tilt_deg is None:
        tilt = math.radians(max_tilt_deg) * math.sqrt(rng.random())
    else:
        tilt = math.radians(tilt_deg)
    azimuth = rng.uniform(0, 2 * math.pi)
    cz, sz = math.cos(azimuth), math.sin(azimuth)
    spin = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    look_down = np.diag([1.0, -1.0, -1.0])
    ct, st = math.cos(tilt), math.sin(tilt)
    pitch = np.array([[1, 0, 0], [0, ct, -st], [0, st, ct]])
    rotation = pitch @ look_down @ spin
    distance = focal / unit_px
    return _Camera(focal, centre, rotation, np.array([0.0, 0.0, distance]))


# --------------------------------------------------------------------------- placing tiles


@dataclass
class _Tile:
    centre: tuple[float, float]
    angle: float
    face_up: bool
    pips: tuple[int, int]
    lean: float = 0.0  # radians: the second end lifted, as a tile propped on a neighbour
    # Radians: turned up about its long edge (local +y) so that the face looks along +y, as a
    # tile a player stands in front of them (pi/2: upright; less: leaning back).
    stand: float = 0.0


def _tile_corners(tile: _Tile, aspect: float, height: float) -> np.ndarray:
    """3D corners TL, TR, BR, BL of the face texture (long axis first), at ``height``."""
    half_l, half_s = aspect / 2, 0.5
    local = np.array([[-half_l, -half_s], [half_l, -half_s], [half_l, half_s], [-half_l, half_s]])
    lift = np.zeros(4)
    if tile.lean:
        # Turned about the first end's bottom edge: the tile rises towards its second end and
        # its footprint shortens; a thick tile's top face also slides back a little.
        along = local[:, 0] + half_l
        local[:, 0] = -half_l + along * math.cos(tile.lean) - height * math.sin(tile.lean)
        lift = along * math.sin(tile.lean) + height * (math.cos(tile.lean) - 1)
    up = height + lift
    if tile.stand:
        # Turned about the bottom long edge at local y = +half_s: the far edge rises, the face
        # turns to look along +y, and the tile's thickness lies on the near side of that edge.
        across = local[:, 1] - half_s
        cs, ss = math.cos(tile.stand), math.sin(tile.stand)
        local[:, 1] = half_s + across * cs + up * ss
        up = -across * ss + up * cs
    c, s = math.cos(tile.angle), math.sin(tile.angle)
    world = local @ np.array([[c, s], [-s, c]]) + np.array(tile.centre)
    return np.column_stack([world, up])


def _group_offsets(
    rng: np.random.Generator, aspect: float, count: int
) -> list[tuple[float, float]]:
    """Positions (along the long axis, across it) of touching tiles in a row, column or grid."""
    gap = rng.uniform(0, 0.08) if rng.random() < 0.7 else rng.uniform(0.08, 0.5)
    shape = rng.choice(["chain", "stack", "grid"], p=[0.35, 0.35, 0.3])
    if shape == "chain" or count == 1:
        return [(i * (aspect + gap), 0.0) for i in range(count)]
    if shape == "stack":
        return [(0.0, i * (1 + gap)) for i in range(count)]
    cols = int(rng.integers(1, min(4, count) + 1))
    return [((i % cols) * (aspect + gap), (i // cols) * (1 + gap)) for i in range(count)]


class _Occupancy:
    """A raster of the table that keeps tiles from overlapping."""

    def __init__(self, low: np.ndarray, high: np.ndarray, resolution: float = 6.0) -> None:
        self.low = low
        self.resolution = resolution
        size = np.ceil((high - low) * resolution).astype(int) + 2
        self.mask = np.zeros((int(size[1]), int(size[0])), np.uint8)

    def _poly(self, corners: np.ndarray) -> np.ndarray:
        return np.asarray(np.round((corners[:, :2] - self.low) * self.resolution), np.int32)

    def fits(self, corners: np.ndarray) -> bool:
        probe = np.zeros_like(self.mask)
        cv2.fillConvexPoly(probe, self._poly(corners), 1)
        return not bool(np.any(probe & self.mask))

    def add(self, corners: np.ndarray) -> None:
        cv2.fillConvexPoly(self.mask, self._poly(corners), 1)


def _silhouette(camera: _Camera, tile: _Tile, style: TileStyle) -> np.ndarray:
    """The image outline of the whole tile (face, sides and base)."""
    top = _tile_corners(tile, style.aspect, style.thickness)
    points = camera.project(np.vstack([top, _tile_corners(tile, style.aspect, 0.0)]))
    return cv2.convexHull(points.astype(np.float32)).reshape(-1, 2)


class _ImageBlock:
    """The picture's pixels taken by tiles stood up: a tile stood up hides what lies behind
    it in the picture, so nothing else may be drawn over or under it."""

    def __init__(self, width: int, height: int) -> None:
        self.mask = np.zeros((height, width), np.uint8)

    def _fill(self, outline: np.ndarray, into: np.ndarray) -> None:
        cv2.fillConvexPoly(into, np.round(outline).astype(np.int32), 1)

    def fits(self, outline: np.ndarray, margin: float = 2.0) -> bool:
        probe = np.zeros_like(self.mask)
        centre = outline.mean(axis=0)
        grown = centre + (outline - centre) * (1 + margin / max(1.0, float(np.ptp(outline))))
        self._fill(grown, probe)
        return not bool(np.any(probe & self.mask))

    def add(self, outline: np.ndarray) -> None:
        self._fill(outline, self.mask)


def _camera_xy(camera: _Camera) -> np.ndarray:
    """Where on the table the camera stands (its centre, dropped onto the table plane)."""
    return np.asarray((-camera.rotation.T @ camera.translation)[:2])


def _footprint(tile: _Tile, style: TileStyle) -> np.ndarray:
    """The table the tile covers (a tile stood up covers its base, its thickness wide)."""
    if not tile.stand:
        return _tile_corners(tile, style.aspect, 0.0)
    both = np.vstack(
        [_tile_corners(tile, style.aspect, 0.0), _tile_corners(tile, style.aspect, style.thickness)]
    )[:, :2].astype(np.float32)
    return np.asarray(cv2.convexHull(both).reshape(-1, 2), np.float64)


def _stand_row(
    rng: np.random.Generator,
    camera: _Camera,
    style: TileStyle,
    low: np.ndarray,
    high: np.ndarray,
    size: tuple[int, int],
    occupancy: _Occupancy,
    block: _ImageBlock,
) -> list[_Tile]:
    """Two to seven tiles stood on their long edges in a row, faces turned to the camera (a
    player's hand as it stands in front of them), about one in four turned round to show its
    back. Returns the tiles placed (face_up False for a back)."""
    width, height = size
    count = int(rng.integers(2, 8))
    gap = float(rng.uniform(0.05, 0.45))
    for _try in range(20):
        anchor = low + rng.random(2) * (high - low)
        towards = _camera_xy(camera) - anchor
        facing = math.atan2(-towards[0], towards[1]) + rng.normal(0, 0.15)
        c, s = math.cos(facing), math.sin(facing)
        placed: list[_Tile] = []
        for index in range(count):
            along = (index - (count - 1) / 2) * (style.aspect + gap)
            centre = anchor + along * np.array([c, s])
            tile = _Tile(
                (float(centre[0]), float(centre[1])),
                facing + rng.normal(0, 0.06),
                bool(rng.random() >= 0.25),
                (0, 0),
                stand=math.radians(float(rng.uniform(68.0, 92.0))),
            )
            outline = _silhouette(camera, tile, style)
            footprint = _footprint(tile, style)
            face = camera.project(_tile_corners(tile, style.aspect, style.thickness))
            if (
                _inside(face, width, height, 2.0)
                and block.fits(outline)
                and occupancy.fits(_shrunk(footprint, -0.05))
            ):
                block.add(outline)
                occupancy.add(_shrunk(footprint, -0.05))
                placed.append(tile)
        if placed:
            return placed
    return []


def _shrunk(corners: np.ndarray, amount: float) -> np.ndarray:
    centre = corners.mean(axis=0)
    return np.asarray(centre + (corners - centre) * (1 - amount))


def _random_pips(rng: np.random.Generator, set_max: int) -> tuple[int, int]:
    return (int(rng.integers(0, set_max + 1)), int(rng.integers(0, set_max + 1)))


def _unlisted_pips(
    rng: np.random.Generator, set_max: int, blank_halves: bool, listed: Sequence[_Tile]
) -> tuple[int, int]:
    """Pips for one more face-up tile of a hand: a set holds each tile once, so a hand never
    shows one twice (with ``blank_halves``, half the tiles get a blank half)."""
    taken = {(max(tile.pips), min(tile.pips)) for tile in listed}
    while True:
        pips = _random_pips(rng, set_max)
        if blank_halves and rng.random() < 0.5:
            pips = (0, pips[1])
        if (max(pips), min(pips)) not in taken:
            return pips


# --------------------------------------------------------------------------- drawing


def _blend(target: np.ndarray, patch: np.ndarray, alpha: np.ndarray, x0: int, y0: int) -> None:
    h, w = alpha.shape
    region = target[y0 : y0 + h, x0 : x0 + w]
    a = alpha[:, :, None]
    region *= 1 - a
    region += patch * a


def _draw_tile(
    canvas: np.ndarray,
    camera: _Camera,
    tile: _Tile,
    style: TileStyle,
    rng: np.random.Generator,
) -> np.ndarray:
    """Draw one tile (sides then face); returns the face's image corners TL, TR, BR, BL."""
    height, width = canvas.shape[:2]
    top = camera.project(_tile_corners(tile, style.aspect, style.thickness))
    bottom = camera.project(_tile_corners(tile, style.aspect, 0.0))
    everything = np.vstack([top, bottom])
    x0 = int(max(0, math.floor(everything[:, 0].min()) - 2))
    y0 = int(max(0, math.floor(everything[:, 1].min()) - 2))
    x1 = int(min(width, math.ceil(everything[:, 0].max()) + 3))
    y1 = int(min(height, math.ceil(everything[:, 1].max()) + 3))
    if x1 <= x0 or y1 <= y0:
        return top
    roi_w, roi_h = x1 - x0, y1 - y0
    offset = np.array([x0, y0], np.float32)
    hull = cv2.convexHull((everything - offset).astype(np.float32))
    side_mask = np.zeros((roi_h * 4, roi_w * 4), np.uint8)
    cv2.fillConvexPoly(side_mask, np.round(hull.reshape(-1, 2) * 4).astype(np.int32), 255)
    side_alpha = cv2.resize(side_mask, (roi_w, roi_h), interpolation=cv2.INTER_AREA) / 255.0
    side_colour = np.empty((roi_h, roi_w, 3), np.float32)
    side_colour[:] = style.side
    ys = np.linspace(0.8, 1.1, roi_h, dtype=np.float32)[:, None, None]
    _blend(canvas, side_colour * ys, side_alpha.astype(np.float32), x0, y0)

    edge = float(np.max(np.linalg.norm(np.diff(np.vstack([top, top[:1]]), axis=0), axis=1)))
    texture_short = int(np.clip(edge / style.aspect * 1.5, 12, 200))
    if tile.face_up:
        texture, alpha = render_face_texture(tile.pips, style, texture_short, rng)
    else:
        texture, alpha = render_back_texture(style, texture_short, rng)
    th, tw = alpha.shape
    source = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32)
    matrix = cv2.getPerspectiveTransform(source, top - offset)
    face = cv2.warpPerspective(texture, matrix, (roi_w, roi_h), flags=cv2.INTER_LINEAR)
    face_alpha = cv2.warpPerspective(alpha, matrix, (roi_w, roi_h), flags=cv2.INTER_LINEAR)
    _blend(canvas, face, face_alpha, x0, y0)
    return top


def _drop_shadows(
    canvas: np.ndarray,
    camera: _Camera,
    tiles: Sequence[tuple[_Tile, TileStyle]],
    rng: np.random.Generator,
    unit_px: float,
    faint: bool = False,
) -> None:
    height, width = canvas.shape[:2]
    mask = np.zeros((height, width), np.float32)
    light = rng.normal(0, 0.25, 2)
    for tile, style in tiles:
        top = _tile_corners(tile, style.aspect, style.thickness)
        cast = top.copy()
        if tile.stand:  # a tile stood up throws a shadow as long as it stands high
            cast[:, :2] += light * top[:, 2:3] * 3
        else:
            cast[:, :2] += light * style.thickness * 3
        cast[:, 2] = 0
        points = camera.project(np.vstack([_tile_corners(tile, style.aspect, 0.0), cast]))
        hull = cv2.convexHull(points.astype(np.float32)).reshape(-1, 2)
        cv2.fillConvexPoly(mask, np.round(hull).astype(np.int32), 1.0)
    sigma = max(0.5, unit_px * rng.uniform(0.03, 0.15))
    blurred = cv2.GaussianBlur(mask, (0, 0), sigma)
    # Thin tiles under soft light (faint) throw hardly any shadow to set them off the table.
    depth = rng.uniform(0.03, 0.12) if faint else rng.uniform(0.2, 0.55)
    canvas *= (1 - depth * blurred)[:, :, None]


def _lighting(
    canvas: np.ndarray,
    rng: np.random.Generator,
    faces: Sequence[np.ndarray],
    unit_px: float,
) -> np.ndarray:
    """Uneven light, cast shadows, glare on glossy faces, colour cast and exposure."""
    height, width = canvas.shape[:2]
    # Light varies smoothly: compute it on a coarse grid and scale it up.
    step = 4
    gh, gw = max(2, height // step), max(2, width // step)
    ys, xs = np.mgrid[0:gh, 0:gw].astype(np.float32)
    ys *= height / gh
    xs *= width / gw
    direction = rng.normal(0, 1, 2)
    ramp = (xs * direction[0] + ys * direction[1]) / max(height, width)
    ramp -= ramp.mean()
    light = 1 + rng.uniform(0, 0.5) * ramp
    radius = math.hypot(height, width) / 2
    vignette = ((xs - width / 2) ** 2 + (ys - height / 2) ** 2) / radius**2
    light *= 1 - rng.uniform(0, 0.35) * vignette
    if rng.random() < 0.35:  # a soft shadow of a hand, phone or lamp arm
        shadow = np.zeros((gh, gw), np.float32)
        centre = np.array([rng.uniform(0, gw), rng.uniform(0, gh)])
        points = centre + rng.normal(0, 0.35, (5, 2)) * np.array([gw, gh])
        hull = cv2.convexHull(points.astype(np.float32)).reshape(-1, 2)
        cv2.fillConvexPoly(shadow, np.round(hull).astype(np.int32), 1.0)
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(0.5, unit_px / step * rng.uniform(0.1, 1)))
        light *= 1 - rng.uniform(0.2, 0.55) * shadow
    glare_map = np.zeros((gh, gw), np.float32)
    glare_spots = int(rng.choice([0, 1, 2, 3], p=[0.35, 0.35, 0.2, 0.1]))
    for _ in range(glare_spots):
        if faces and rng.random() < 0.8:
            face = faces[int(rng.integers(len(faces)))]
            weights = rng.dirichlet(np.ones(4))
            centre = weights @ face
        else:
            centre = np.array([rng.uniform(0, width), rng.uniform(0, height)])
        size = max(unit_px * rng.uniform(0.08, 0.6), step / 2)
        stretch = rng.uniform(1, 3)
        angle = rng.uniform(0, math.pi)
        dx, dy = xs - centre[0], ys - centre[1]
        u = dx * math.cos(angle) + dy * math.sin(angle)
        v = -dx * math.sin(angle) + dy * math.cos(angle)
        glare = np.exp(-((u / (size * stretch)) ** 2 + (v / size) ** 2))
        glare_map += rng.uniform(0.3, 0.85) * glare
    light = cv2.resize(light, (width, height), interpolation=cv2.INTER_LINEAR)
    out = canvas * light[:, :, None]
    if glare_spots:
        glare_full = cv2.resize(np.clip(glare_map, 0, 0.95), (width, height))
        out += (255 - np.clip(out, 0, 255)) * glare_full[:, :, None]

    cast = rng.normal(1, 0.07, 3).astype(np.float32)
    if rng.random() < 0.3:  # warm indoor light
        cast *= np.array([0.88, 0.97, 1.06], np.float32)
    exposure = rng.uniform(0.75, 1.2) if rng.random() < 0.85 else rng.uniform(0.35, 0.7)
    return np.asarray(out * cast[None, None, :] * exposure)


def _camera_effects(
    image: np.ndarray, rng: np.random.Generator, strength: float = 1.0
) -> np.ndarray:
    """Blur, sensor noise, down/up-sampling and JPEG; returns uint8."""
    out = image
    if rng.random() < 0.6:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.6) * strength)
    if rng.random() < 0.12:
        length = int(rng.integers(3, 8))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        rot = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), rng.uniform(0, 180), 1)
        kernel = np.asarray(cv2.warpAffine(kernel, rot, (length, length)), np.float32)
        kernel /= max(float(kernel.sum()), 1e-6)
        out = cv2.filter2D(out, -1, kernel)
    sigma = rng.uniform(0, 9) * strength
    noise = rng.normal(0, sigma, out.shape[:2] + (1,)) + rng.normal(0, sigma * 0.4, out.shape)
    out = np.clip(out + noise, 0, 255).astype(np.uint8)
    height, width = out.shape[:2]
    if rng.random() < 0.2:
        factor = rng.uniform(0.4, 0.8)
        small = cv2.resize(out, (max(1, int(width * factor)), max(1, int(height * factor))))
        out = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.8:
        quality = int(rng.integers(35, 96))
        ok, encoded = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if ok:
            out = np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR))
    return out


def _order_corners(face: np.ndarray) -> np.ndarray:
    """Clockwise on screen, first edge the tile's own long edge, starting from the more
    top-left end of it. Unlike vision.geometry.order_corners, which can only go by which edges
    look longer, the renderer knows the tile's true axis, which matters in low shots where a
    steep view squashes a face until its long edges look the shorter ones."""
    q = face.astype(np.float32)
    x, y = q[:, 0], q[:, 1]
    area = float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
    if area < 0:
        q = q[[1, 0, 3, 2]]
    if q[2].sum() < q[0].sum():
        q = q[[2, 3, 0, 1]]
    return q


# --------------------------------------------------------------------------- scenes


_MAX_TABLE_REACH = 100.0  # tile widths from the table point in the middle of the picture


def half_centres(quad: np.ndarray) -> np.ndarray:
    """The middles of a tile outline's two halves, (2, 2) float32: first the half between
    corners 0 and 3, then the one between corners 1 and 2 (the first edge being long)."""
    q = np.asarray(quad, np.float64)
    first = (3 * (q[0] + q[3]) + q[1] + q[2]) / 8
    second = (q[0] + q[3] + 3 * (q[1] + q[2])) / 8
    return np.array([first, second], np.float32)


def _table_bounds(camera: _Camera, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
    table = camera.image_to_table(corners)
    # A steep camera sees the table almost to the horizon (or its top rays miss the table);
    # tiles that far off would be specks, and the occupancy raster would not fit in memory.
    middle = camera.image_to_table(np.array([[width / 2, height / 2]], np.float64))[0]
    low = np.maximum(table.min(axis=0), middle - _MAX_TABLE_REACH)
    high = np.minimum(table.max(axis=0), middle + _MAX_TABLE_REACH)
    return low, high


_LOW_VIEW_HORIZON = 84.0  # degrees: the top edge of a low shot still looks at the table
_LOW_VIEW_REACH = 6.0  # tile widths around the looked-at point where a low shot's tiles lie
_LOW_VIEW_MAX_TILES = 8
_TABLE_TEXTURE_SIDE = 2400  # pixels: the longest table texture a low shot paints


def _table_in_perspective(
    rng: np.random.Generator, camera: _Camera, width: int, height: int, unit_px: float
) -> np.ndarray:
    """The table's texture painted flat over the table the camera sees, then projected, so
    its grain shrinks and converges towards the far edge as in a photo taken low."""
    low, high = _table_bounds(camera, width, height)
    extent = np.maximum(high - low, 1.0)
    scale = min(unit_px, _TABLE_TEXTURE_SIDE / float(extent.max()))
    texture_w = max(8, int(math.ceil(extent[0] * scale)))
    texture_h = max(8, int(math.ceil(extent[1] * scale)))
    texture = render_background(rng, texture_h, texture_w, scale)
    source = np.array([[0, 0], [texture_w, 0], [texture_w, texture_h], [0, texture_h]], np.float32)
    table = low + source.astype(np.float64) / scale
    target = camera.project(np.column_stack([table, np.zeros(4)]))
    matrix = cv2.getPerspectiveTransform(source, target.astype(np.float32))
    painted = cv2.warpPerspective(
        texture, matrix, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    return np.asarray(painted, np.float32)


_PRINT_COLOURS = (  # BGR of a board's printed ground: brown wood, red, green, blue, black
    (45, 70, 110),
    (40, 45, 150),
    (60, 110, 40),
    (120, 70, 30),
    (35, 35, 35),
)


def _paste_flat(
    canvas: np.ndarray, texture: np.ndarray, alpha: np.ndarray, corners: np.ndarray
) -> None:
    """Lay ``texture`` flat over the image quad ``corners`` (TL, TR, BR, BL)."""
    height, width = canvas.shape[:2]
    x0 = int(max(0, math.floor(corners[:, 0].min()) - 1))
    y0 = int(max(0, math.floor(corners[:, 1].min()) - 1))
    x1 = int(min(width, math.ceil(corners[:, 0].max()) + 2))
    y1 = int(min(height, math.ceil(corners[:, 1].max()) + 2))
    if x1 <= x0 or y1 <= y0:
        return
    th, tw = alpha.shape
    source = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32)
    offset = np.array([x0, y0], np.float32)
    matrix = cv2.getPerspectiveTransform(source, (corners - offset).astype(np.float32))
    patch = cv2.warpPerspective(texture, matrix, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(alpha, matrix, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    _blend(canvas, patch, mask.astype(np.float32), x0, y0)


def _printed_track(
    rng: np.random.Generator, side: float, aspect: float, size: float
) -> list[tuple[float, float, float]]:
    """Centres and angles, in the board's own frame (its centre at 0), of dominoes printed end
    to end round the edge of a square board ``side`` across, now and then one turned across
    the track as a board's score track steps in and out."""
    placed: list[tuple[float, float, float]] = []
    half = side / 2 - size * 0.6
    for edge in range(4):
        turn = edge * math.pi / 2
        c, s = math.cos(turn), math.sin(turn)
        along = -half
        while along < half - size * aspect * 0.5:
            across_track = rng.random() < 0.3
            length = size if across_track else size * aspect
            x, y = along + length / 2, -half
            if across_track:
                y += size * (aspect - 1) / 2 * rng.choice([-1.0, 1.0])
            angle = turn + (math.pi / 2 if across_track else 0.0)
            placed.append((x * c - y * s, x * s + y * c, angle))
            along += length
    return placed


def _paint_printed_dominoes(
    canvas: np.ndarray,
    camera: _Camera,
    rng: np.random.Generator,
    low: np.ndarray,
    high: np.ndarray,
    set_max: int,
) -> None:
    """Print pictures of dominoes on the table: a board game's score track round a board, or
    rows of them on a box lid or a poster. They are flat (no sides, no shadow, a thin printed
    outline) and are not tiles, so they are never listed: the finder must learn to pass them
    over (real board photos showed their printed track counted as tiles)."""
    extent = float(np.min(high - low))
    side = float(rng.uniform(0.5, 1.2)) * extent
    centre = (low + high) / 2 + rng.normal(0, 0.1, 2) * (high - low)
    turn = rng.uniform(0, 2 * math.pi) if rng.random() < 0.4 else rng.normal(0, 0.05)
    c, s = math.cos(turn), math.sin(turn)
    to_table = np.array([[c, s], [-s, c]])

    def project(points: np.ndarray) -> np.ndarray:
        world = points @ to_table + centre
        return camera.project(np.column_stack([world, np.zeros(len(world))]))

    ground = np.array(_PRINT_COLOURS[int(rng.integers(len(_PRINT_COLOURS)))], np.float32)
    ground = np.clip(ground * rng.uniform(0.7, 1.4) + rng.normal(0, 10, 3), 0, 255)
    square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * side / 2
    outline = project(square)
    board = np.zeros(canvas.shape[:2], np.float32)
    cv2.fillConvexPoly(board, np.round(outline).astype(np.int32), 1.0, cv2.LINE_AA)
    grain = _fractal(rng, canvas.shape[0], canvas.shape[1], max(8.0, canvas.shape[1] / 30))
    painted = ground[None, None, :] * (0.85 + 0.3 * grain)[:, :, None]
    canvas *= 1 - board[:, :, None]
    canvas += painted * board[:, :, None]

    style = random_style(rng, "white_black" if rng.random() < 0.8 else None)
    size = float(rng.uniform(0.8, 1.15))
    # Some prints are drawings, some photographs of tiles with their bevel's shading.
    flat = rng.random() < 0.5
    if rng.random() < 0.75:
        # The board's middle: a plain field of another colour ruled into squares.
        inner = side / 2 - size * (style.aspect + 0.4)
        if inner > 1:
            field = np.clip(
                np.array(_PRINT_COLOURS[int(rng.integers(len(_PRINT_COLOURS)))])
                * rng.uniform(0.8, 1.8),
                0,
                255,
            )
            middle = project(square * inner / (side / 2))
            cv2.fillConvexPoly(
                canvas, np.round(middle).astype(np.int32), field.tolist(), cv2.LINE_AA
            )
            line = [float(v) for v in field * 0.45]
            cells = int(rng.integers(6, 16))
            for k in range(cells + 1):
                t = -inner + 2 * inner * k / cells
                for ends in ([[t, -inner], [t, inner]], [[-inner, t], [inner, t]]):
                    a, b = project(np.array(ends, np.float64))
                    cv2.line(
                        canvas, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), line, 1, cv2.LINE_AA
                    )
        placements = _printed_track(rng, side, style.aspect, size)
    else:
        placements = []
        rows = int(rng.integers(1, 6))
        gap = float(rng.uniform(0.1, 0.6))
        for row in range(rows):
            y = -side / 2 + (row + 0.8) * (size + gap)
            x = -side / 2 + size
            while x + size * style.aspect < side / 2 and y < side / 2:
                placements.append((x + size * style.aspect / 2, y, 0.0))
                x += size * style.aspect + gap
    ink = tuple(float(v) for v in rng.uniform(0, 60, 3))
    frame = rng.random() < 0.8
    for x, y, angle in placements:
        ca, sa = math.cos(angle), math.sin(angle)
        half_l, half_s = size * style.aspect / 2, size / 2
        local = np.array(
            [[-half_l, -half_s], [half_l, -half_s], [half_l, half_s], [-half_l, half_s]]
        )
        corners = local @ np.array([[ca, sa], [-sa, ca]]) + np.array([x, y])
        image_corners = project(corners)
        edge = float(np.linalg.norm(image_corners[1] - image_corners[0]))
        texture_short = int(np.clip(edge / style.aspect * 1.5, 12, 200))
        texture, alpha = render_face_texture(
            _random_pips(rng, set_max), style, texture_short, rng, flat=flat
        )
        _paste_flat(canvas, texture, alpha, image_corners)
        if frame:
            cv2.polylines(
                canvas, [np.round(image_corners).astype(np.int32)], True, ink, 1, cv2.LINE_AA
            )


def _inside(points: np.ndarray, width: int, height: int, margin: float) -> bool:
    return bool(
        np.all(points[:, 0] >= margin)
        and np.all(points[:, 0] <= width - 1 - margin)
        and np.all(points[:, 1] >= margin)
        and np.all(points[:, 1] <= height - 1 - margin)
    )


def render_scene(
    seed: int,
    *,
    size: tuple[int, int] = (1280, 960),
    n_tiles: tuple[int, int] = (1, 15),
    set_max: int = 12,
    style: str | None = None,
    max_tilt_deg: float = 45.0,
    low_view: bool = False,
    close_up: bool = False,
    printed_backs: bool = False,
    blank_halves: bool = False,
    leaning: bool = False,
    pale_table: bool = False,
    printed_at_end: bool = False,
    tile_share: tuple[float, float] | None = None,
    printed_dominoes: bool = False,
    standing: bool = False,
    check_patterns: bool = False,
) -> Scene:
    """Render a photo of tiles on a table. ``size`` is (width, height).

    ``tile_share`` (low, high) sets a tile's long side as a share of the picture's width,
    overriding the sizes the other options choose: (0.025, 0.04) draws the many small tiles of
    a table seen whole.

    ``n_tiles`` bounds the number of listed (face-up, fully visible) tiles; face-down and
    frame-cut tiles come on top of that. ``style`` picks a family from STYLE_FAMILIES.

    ``low_view`` renders the shot of a player who stays seated: the phone held close and low,
    50..72 degrees from straight down, the tiles big in the near part of the picture with
    their thick sides showing, and the table's texture receding in perspective.

    ``close_up`` renders the photo of a nearly empty hand: one to three tiles (within
    ``n_tiles``) filling much of the picture, their long side up to about 90% of its short side.
    ``printed_backs`` gives the set backs with a maker's name printed large, and puts one to
    four such face-down tiles among the listed ones (``printed_at_end``: the name on one end of
    each back, the other end plain like a blank half). ``blank_halves`` draws a colour-dot set
    in which about half the listed tiles have a blank half, the tiles real photos showed being
    missed among colourful neighbours. ``leaning`` props one or two of the listed tiles up at
    one end, 15..40 degrees, as a tile leaning on its neighbour. ``pale_table`` draws thin,
    card-like white tiles on a plain table of nearly their own colour, with faint shadows: the
    plain white tile on a pale table that real photos showed being missed.
    ``printed_dominoes`` prints pictures of dominoes on the table under the tiles (a board
    game's score track, a box lid), never listed.
    ``standing`` stands a row of two to seven tiles on their long edges, their faces turned
    to the camera (about one in four shows its back instead), among the tiles lying flat: a
    seated player photographing the hand they keep stood up in front of them. It takes
    ``low_view``'s camera.
    ``check_patterns`` lays checks that are no tiles under them (paint_check_patterns: a
    gingham cloth, or checkerboards), drawn from a random stream of their own, so the scene is
    otherwise the one the seed draws without them.
    """
    width, height = size
    if width < 64 or height < 64:
        raise ValueError("scene size must be at least 64x64")
    low_n, high_n = n_tiles
    if not 0 <= low_n <= high_n:
        raise ValueError("n_tiles must be (low, high) with 0 <= low <= high")
    if not 0 <= set_max <= MAX_PIPS:
        raise ValueError(f"set_max must be within 0..{MAX_PIPS}")
    low_view = low_view or standing
    rng = np.random.default_rng(seed)
    tile_style = random_style(rng, style)
    if printed_backs:
        tile_style = replace(tile_style, printed_back=True, printed_back_at_end=printed_at_end)
    if blank_halves and style is None:
        tile_style = random_style(rng, "colour")
    if pale_table:
        card = random_style(rng, "white_black") if style is None else tile_style
        tile_style = replace(card, thickness=float(rng.uniform(0.06, 0.14)))
    if close_up:
        low_n, high_n = max(low_n, 1), max(min(high_n, 3), 1)
    target = int(rng.integers(low_n, high_n + 1))
    focal = max(width, height) * rng.uniform(0.75, 1.3)
    short = min(width, height)
    tilt_deg: float | None = None
    if low_view:
        # Chunky tiles seen low show much of their sides; keep every ray of the picture
        # below the horizon so that all of it is table.
        tile_style = replace(tile_style, thickness=float(rng.uniform(0.25, 0.45)))
        half_view = math.degrees(math.atan(height / 2 / focal))
        tilt_deg = min(float(rng.uniform(50.0, 72.0)), _LOW_VIEW_HORIZON - half_view)
        target = min(target, _LOW_VIEW_MAX_TILES)
        biggest = short / 4.5
        smallest = short / 12
    elif close_up:
        # A tile's long side (aspect x the short one) from about a third of the picture's
        # short side up to nine tenths of it.
        biggest = short * 0.9 / tile_style.aspect
        smallest = short * 0.35 / tile_style.aspect
    else:
        # The more tiles wanted, the smaller they are drawn, so that they fit.
        biggest = short / (3.2 + 1.1 * math.sqrt(max(target, 1)))
        smallest = min(biggest, max(24.0, short / 28))
    if tile_share is not None:
        smallest = tile_share[0] * width / tile_style.aspect
        biggest = tile_share[1] * width / tile_style.aspect
    unit_px = float(math.exp(rng.uniform(math.log(smallest), math.log(biggest))))

    for _attempt in range(6):
        camera = _make_camera(rng, focal, (width / 2, height / 2), unit_px, max_tilt_deg, tilt_deg)
        low, high = _table_bounds(camera, width, height)
        if low_view:
            # Tiles lie around the point the phone looks at, not out towards the horizon.
            low = np.maximum(low, -_LOW_VIEW_REACH)
            high = np.minimum(high, _LOW_VIEW_REACH)
        occupancy = _Occupancy(low - 3, high + 3)
        placed: list[_Tile] = []
        listed = 0
        block = _ImageBlock(width, height) if standing else None
        if block is not None:
            for tile in _stand_row(rng, camera, tile_style, low, high, size, occupancy, block):
                if tile.face_up:
                    tile.pips = _unlisted_pips(rng, set_max, blank_halves, placed)
                    listed += 1
                placed.append(tile)
        tries = 0
        while listed < target and tries < 60:
            tries += 1
            count = min(target - listed, int(rng.integers(1, 7)))
            offsets = _group_offsets(rng, tile_style.aspect, count)
            angle = rng.uniform(0, 2 * math.pi)
            if rng.random() < 0.5:
                angle = round(angle / (math.pi / 2)) * math.pi / 2 + rng.normal(0, 0.1)
            anchor = low + rng.random(2) * (high - low)
            c, s = math.cos(angle), math.sin(angle)
            group: list[_Tile] = []
            for along, across in offsets:
                centre = anchor + np.array([along * c - across * s, along * s + across * c])
                group.append(_Tile((float(centre[0]), float(centre[1])), angle, True, (0, 0)))
            footprints = [_tile_corners(t, tile_style.aspect, 0.0) for t in group]
            if not all(occupancy.fits(_shrunk(f, 0.02)) for f in footprints):
                continue
            visible = [
                _inside(
                    camera.project(_tile_corners(t, tile_style.aspect, tile_style.thickness)),
                    width,
                    height,
                    2.0,
                )
                for t in group
            ]
            if not all(visible):
                continue
            if block is not None and not all(
                block.fits(_silhouette(camera, t, tile_style)) for t in group
            ):
                continue
            for tile, footprint in zip(group, footprints, strict=True):
                occupancy.add(_shrunk(footprint, 0.02))
                tile.pips = _unlisted_pips(rng, set_max, blank_halves, placed)
                placed.append(tile)
                listed += 1
        if listed >= low_n:
            break
        unit_px *= 0.75
    else:
        raise RuntimeError("could not place the requested tiles")  # pragma: no cover

    if leaning and placed:
        for index in rng.choice(
            len(placed), size=min(len(placed), int(rng.integers(1, 3))), replace=False
        ):
            placed[int(index)].lean = math.radians(float(rng.uniform(15.0, 40.0)))

    # Extras that must not be listed: face-down tiles and tiles cut by the frame.
    extras = int(rng.choice([0, 1, 2, 3], p=[0.45, 0.3, 0.15, 0.1]))
    if printed_backs:
        extras = int(rng.integers(1, 5))
    for _ in range(extras * 4):
        if extras == 0:
            break
        centre = low + rng.random(2) * (high - low)
        tile = _Tile(
            (float(centre[0]), float(centre[1])),
            rng.uniform(0, 2 * math.pi),
            True,
            _random_pips(rng, set_max),
        )
        footprint = _tile_corners(tile, tile_style.aspect, 0.0)
        if not occupancy.fits(_shrunk(footprint, -0.02)):
            continue
        if block is not None and not block.fits(_silhouette(camera, tile, tile_style)):
            continue
        top = camera.project(_tile_corners(tile, tile_style.aspect, tile_style.thickness))
        if _inside(top, width, height, 2.0):
            tile.face_up = False
        elif _inside(top, width, height, 0.0) or not _inside(top, width, height, -unit_px * 3):
            continue
        occupancy.add(footprint)
        placed.append(tile)
        extras -= 1

    if low_view:
        canvas = _table_in_perspective(rng, camera, width, height, unit_px)
    elif pale_table:
        canvas = _pale_table(rng, height, width, unit_px, tile_style.body)
    else:
        canvas = render_background(rng, height, width, unit_px)
    if check_patterns:
        extent = _table_bounds(camera, width, height)
        paint_check_patterns(canvas, seed, unit_px, camera.project, extent)
    if printed_dominoes:
        _paint_printed_dominoes(canvas, camera, rng, low, high, set_max)
    styled = [(t, tile_style) for t in placed]
    _drop_shadows(canvas, camera, styled, rng, unit_px, faint=pale_table)
    order = sorted(
        range(len(placed)),
        key=lambda i: -float(camera.depth(np.array([[*placed[i].centre, 0.0]]))[0]),
    )
    listed_tiles: list[SceneTile] = []
    faces: list[np.ndarray] = []
    for index in order:
        tile = placed[index]
        face = _draw_tile(canvas, camera, tile, tile_style, rng)
        faces.append(face)
        if tile.face_up and _inside(face, width, height, 1.0):
            pips = (max(tile.pips), min(tile.pips))
            # The texture puts tile.pips[0] on the half between face corners 0 and 3.
            listed_tiles.append(
                SceneTile(
                    pips,
                    _order_corners(face),
                    half_pips=(tile.pips[0], tile.pips[1]),
                    half_centres=half_centres(face),
                )
            )
    lit = _lighting(canvas, rng, faces, unit_px)
    image = _camera_effects(lit, rng)
    return Scene(image=image, tiles=tuple(listed_tiles))


# --------------------------------------------------------------------------- tile crops


def rectify_quad(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Warp a tile quad (TL, TR, BR, BL; first edge long) to the 64x128 canonical crop, exactly
    as the pipeline cuts the tiles it finds (vision.rectify), so the reader learns from the
    crops it will be shown."""
    return np.asarray(rectify_tiles(image, [np.asarray(quad, np.float32)])[0])


def render_tile_crop(
    seed: int,
    pips: tuple[int, int],
    *,
    kind: str = "face",
    style: str | None = None,
    jitter: float = 0.025,
    set_max: int = 12,
    printed_back: bool = False,
    printed_at_end: bool = False,
) -> np.ndarray:
    """A canonical (64, 128, 3) uint8 crop as a tile finder would cut it from a photo.

    ``kind`` "face": a face-up tile with pips[0] on the left half and pips[1] on the right.
    "back": a face-down tile; "background": a quad of table with no tile; "straddle": a quad
    spanning parts of two touching tiles. ``jitter`` is the standard deviation of each corner's
    misplacement as a fraction of the tile's short side, as a real finder is never exact.
    ``printed_back`` prints a maker's name on the set's backs (seen on "back" crops), on one
    end only with ``printed_at_end``.
    """
    if kind not in CROP_KINDS:
        raise ValueError(f"unknown crop kind {kind!r}; expected one of {CROP_KINDS}")
    for count in pips:
        if not 0 <= count <= MAX_PIPS:
            raise ValueError(f"a half has 0..{MAX_PIPS} pips, not {count}")
    rng = np.random.default_rng(seed)
    tile_style = random_style(rng, style)
    if printed_back:
        tile_style = replace(tile_style, printed_back=True, printed_back_at_end=printed_at_end)
    aspect = tile_style.aspect
    unit_px = float(math.exp(rng.uniform(math.log(26), math.log(80))))
    focal = unit_px * rng.uniform(8, 14)
    camera = _make_camera(rng, focal, (0.0, 0.0), unit_px, 45.0)

    angle = rng.uniform(0, 2 * math.pi)
    target = _Tile((0.0, 0.0), angle, kind != "back", pips)
    tiles = [target] if kind != "background" else []
    c, s = math.cos(angle), math.sin(angle)
    along_axis = np.array([c, s])
    across_axis = np.array([-s, c])
    quad_centre = np.zeros(2)
    straddle_axis = along_axis if rng.random() < 0.5 else across_axis
    gap = rng.uniform(0, 0.06)
    if kind == "straddle":
        step = (aspect + gap) if straddle_axis is along_axis else (1 + gap)
        other = straddle_axis * step
        tiles.append(
            _Tile((float(other[0]), float(other[1])), angle, True, _random_pips(rng, set_max))
        )
        quad_centre = straddle_axis * step * rng.uniform(0.3, 0.7)
    # Neighbours touching or near the target, as in rows and grids of a laid-out hand.
    for axis, step in ((along_axis, aspect), (across_axis, 1.0)):
        for sign in (-1.0, 1.0):
            if rng.random() < 0.35:
                offset = (
                    axis
                    * sign
                    * (
                        step + rng.uniform(0, 0.1)
                        if rng.random() < 0.8
                        else step + rng.uniform(0.1, 0.6)
                    )
                )
                if kind == "straddle" and sign > 0 and axis is straddle_axis:
                    continue
                skew = rng.normal(0, 0.04)
                tiles.append(
                    _Tile(
                        (float(offset[0]), float(offset[1])),
                        angle + skew,
                        rng.random() < 0.85,
                        _random_pips(rng, set_max),
                    )
                )
    if kind == "background" and rng.random() < 0.3:
        tiles = [t for t in tiles if rng.random() < 0.5]

    # Frame the canvas around the target tile.
    quad_world = _tile_corners(
        _Tile((float(quad_centre[0]), float(quad_centre[1])), angle, True, (0, 0)),
        aspect,
        tile_style.thickness if kind != "background" else 0.0,
    )
    projected = camera.project(quad_world)
    margin = unit_px * 0.7
    x_low, y_low = projected.min(axis=0) - margin
    x_high, y_high = projected.max(axis=0) + margin
    width = int(math.ceil(x_high - x_low))
    height = int(math.ceil(y_high - y_low))
    camera = _Camera(
        camera.focal, (float(-x_low), float(-y_low)), camera.rotation, camera.translation
    )
    quad = camera.project(quad_world)
    if kind != "background" and rng.random() < 0.25:
        # A finder may outline the tile's base instead of its face.
        base = camera.project(
            _tile_corners(
                _Tile((float(quad_centre[0]), float(quad_centre[1])), angle, True, (0, 0)),
                aspect,
                0.0,
            )
        )
        quad = quad + (base - quad) * rng.uniform(0, 1)

    canvas = render_background(rng, height, width, unit_px)
    styled = [(t, tile_style) for t in tiles]
    _drop_shadows(canvas, camera, styled, rng, unit_px)
    order = sorted(
        range(len(tiles)),
        key=lambda i: -float(camera.depth(np.array([[*tiles[i].centre, 0.0]]))[0]),
    )
    faces = [_draw_tile(canvas, camera, tiles[i], tile_style, rng) for i in order]
    lit = _lighting(canvas, rng, faces, unit_px)
    image = _camera_effects(lit, rng, strength=rng.uniform(0.3, 1.0))

    short_side = float(np.linalg.norm(quad[1] - quad[2]))
    centre = quad.mean(axis=0)
    if rng.random() < 0.3:  # finders also miss the tile's angle and size a little
        turn = math.radians(rng.normal(0, 5))
        rotation = np.array(
            [[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]], np.float32
        )
        quad = (quad - centre) @ rotation.T + centre
    if rng.random() < 0.4:
        quad = (quad - centre) * np.float32(rng.uniform(0.93, 1.1)) + centre
    scale = jitter if rng.random() < 0.85 else jitter * 2.5
    quad = quad + rng.normal(0, scale * short_side, quad.shape).astype(np.float32)
    return rectify_quad(image, quad)
