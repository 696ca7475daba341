"""Train markers: is something that is not a tile lying beside a train's first tiles?

Players mark a train open to everyone with a small object (a toy train, a coin, a plastic
marker) laid beside the train where it leaves the hub. Seen from above, that is a compact blob
of a colour unlike the table, off every tile and off the hub. Two looks, both measured in the
first tile's short side so the photo's scale does not matter:

    train_markers(pixels, scale, layout, check=None) -> one of True / False / None per train

The blob look is pure image arithmetic on the photo and the tiles already read. True: a blob
as big as a coin is there. False: the table beside the train's start is plain. None: something
smaller or fainter is there, or the train was not seen to start at the hub; the app then asks
the player. Without a hub (block dominoes) nobody has a train marker and None is given: the
question does not arise.

The marker check (:class:`MarkerCheck`, models/markers.onnx) is a small network shown each
train's start turned the same way (:func:`marker_views`); where its chance is clear it answers,
and elsewhere the blob look's answer stands (:func:`settled`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.geometry import distance_outside
from vision.session import open_session
from vision.table import TableLayout

BAND = (0.75, 2.4)
"""How far from the first tiles' middle line a marker is looked for, in short sides: clear of
the tile's own edge (half a short side out) and of the next train over."""
ALONG = (-0.4, 1.6)
"""Where along the train, in the first tile's long sides from its inner end."""
HUB_RIM = 0.6
"""How far past a train's inner end the hub may still reach, in short sides: a tile lies in its
slot over the rim, and an eight-sided hub's corners and darker side stand out further. (0.3
until 2026-11-26: on 60 tuning tables the rim made 5 of 15 faint questions, and on a checked
cloth it could be called a marker; 0.9 removed 10 but lost a coin laid midway between two
trains round a bare engine.)"""
SURROUND = 3.6
"""The table's own colour is taken from round the band out to this many short sides."""
OFF_TILES = 0.2
"""Pixels this close to any tile (short sides) are never part of a marker: shadows, glare."""
DIFFERENT = 22.0
"""A pixel differs from the table when its CIELAB colour lies this far from the table's."""
SEEN_AREA = 0.3
"""A blob of at least this many square short sides is a marker (a coin is about 0.8, the
smallest plastic marker 0.45, after the strip kept clear of the tiles)."""
FAINT = 9.0
"""A blob this far from the table's colours, as big as a marker, is too faint to call a marker
and too big to call the table plain."""
UNSURE_AREA = 0.12
"""A blob from this size up to SEEN_AREA may be one: the player is asked."""
SHARED = 1.15
"""A blob no nearer this train's first tile than SHARED times its distance to another train's
lies between the two: whose marker it is, the player says. (Chosen on rendered tables of the
tuning seeds, 800,000,000 on: at 1.5 nearly every marker laid beside trains that leave
neighbouring slots of a hub was asked about, though the nearer train was its train in every
case.)"""
SOLID = 0.75
"""The least solidity (area over convex hull) of a marker seen."""
LARGEST_AREA = 3.0
"""No marker covers more than this many square short sides (a toy train about 1)."""
TABLE_COLOURS = 3
KMEANS_PP = cv2.KMEANS_PP_CENTERS
"""The table's main colours: a cloth's two, its shading, a wood's grain."""


def train_markers(
    pixels: NDArray[np.uint8],
    scale: float,
    layout: TableLayout,
    check: MarkerCheckLike | None = None,
) -> tuple[bool | None, ...]:
    """For each of ``layout``'s trains, whether a marker lies beside its start.

    ``pixels`` is the photo as decoded (BGR), ``scale`` its size relative to the photo pixels
    the layout's tiles are given in. With a marker ``check``, every train seen to start at the
    hub is put to it too, and a clear answer of the check's stands (:func:`settled`)."""
    starts = _train_starts(scale, layout)
    blobs = _blob_markers(pixels, starts, len(layout.trains))
    if check is not None:
        chances = check.chances(_views(pixels, starts, len(layout.trains)))
        blobs = tuple(settled(seen, chance) for seen, chance in zip(blobs, chances, strict=True))
    on_tiles = _markers_on_tiles(pixels, starts, layout)
    return tuple(True if on else seen for seen, on in zip(blobs, on_tiles, strict=True))


class MarkerCheckLike(Protocol):
    """Gives the chance a marker lies beside each view's train (:class:`MarkerCheck`)."""

    def chances(self, views: Sequence[NDArray[np.float32] | None]) -> tuple[float | None, ...]: ...


@dataclass(frozen=True)
class _TrainStarts:
    """The layout's tiles in the photo's pixels, and where each train leaves the hub."""

    outlines: list[NDArray[np.float32]]
    hub: NDArray[np.float32]
    firsts: list[NDArray[np.float32]]
    """Each train's first tile."""
    shorts: list[float | None]
    """Its short side, or None for a train not seen to start at the hub (nothing is asked)."""


def _train_starts(scale: float, layout: TableLayout) -> _TrainStarts | None:
    """None without a hub (block dominoes: nobody has a train marker)."""
    if layout.hub is None:
        return None
    outlines = [np.asarray(tile.corners, np.float32) * scale for tile in layout.tiles]
    hub = np.asarray(layout.hub.centre, np.float32) * scale
    firsts = [outlines[train.tiles[0]] for train in layout.trains]
    shorts: list[float | None] = []
    for first in firsts:
        short = _short_side(first)
        shorts.append(short if short >= 3 and _starts_at_hub(first, hub, short) else None)
    return _TrainStarts(outlines, hub, firsts, shorts)


def _blob_markers(
    pixels: NDArray[np.uint8], starts: _TrainStarts | None, trains: int
) -> tuple[bool | None, ...]:
    if starts is None:
        return (None,) * trains
    seen: list[bool | None] = []
    for index, (first, short) in enumerate(zip(starts.firsts, starts.shorts, strict=True)):
        if short is None:
            seen.append(None)
            continue
        others = [other for position, other in enumerate(starts.firsts) if position != index]
        seen.append(_marker_beside(pixels, first, starts.hub, starts.outlines, others, short))
    return tuple(seen)


ON_TILE_SCALE = 24
"""A tile looked at for a marker lying on it is drawn this many pixels to a short side."""
ON_TILE_MARGIN = 0.12
"""Its outline's edge is left out this far (short sides): an outline a little off the tile
takes in the table there."""
ON_TILE_ENDS = 0.35
"""The tile's face colour is taken from this far in from each end (short sides, past the
margin)."""
ON_TILE_DIFFERENT = 18.0
"""A pixel differs from the tile's face when its CIELAB colour lies this far from the face's."""
ON_TILE_WIDTH = 0.5
"""Pips, the dividing line and a spinner are narrower than this (short sides); a coin, a
plastic marker or a toy train lying on the tile is wider, so an opening this wide keeps only
those."""
ON_TILE_AREA = 0.63
"""What is left must cover this many square short sides to be a marker on the tile: a coin
or a toy train covers the tile's width; a half's crowded pips (an 8 in three rows of three)
cover less once the edge is left out. (Chosen with the two below on 60 rendered tuning
tables, seeds 800,000,000 on, markers laid on tiles and not.)"""
ON_TILE_EVEN = 32.0
"""A marker is one thing, evenly lit: its lightness varies less than this (CIELAB L's
standard deviation); crowded pips with the face between them, or glare, vary more."""
ON_TILE_UNLIKE = 40.0
"""On average it lies this far from the face's colour (CIELAB)."""
ON_TILE_EDGE = 120.0
"""Its edge is sharp: the lightness changes round it by at least this much (mean Sobel
magnitude at ON_TILE_SCALE); glare fades out."""


def _markers_on_tiles(
    pixels: NDArray[np.uint8], starts: _TrainStarts | None, layout: TableLayout
) -> tuple[bool, ...]:
    """For each train, whether a marker lies on its first or last tile (players lay one on the
    train as often as beside it). Only trains seen to start at the hub are looked at."""
    if starts is None:
        return (False,) * len(layout.trains)
    found = []
    for train, short in zip(layout.trains, starts.shorts, strict=True):
        ends = {train.tiles[0], train.tiles[-1]}
        found.append(
            short is not None and any(_marker_on(pixels, starts.outlines[i]) for i in ends)
        )
    return tuple(found)


def _marker_on(pixels: NDArray[np.uint8], outline: NDArray[np.float32]) -> bool:
    """Whether something wider than any pip and unlike the tile's face lies on the tile."""
    edges = np.linalg.norm(np.roll(outline, -1, axis=0) - outline, axis=1)
    corners = outline if edges[0] >= edges[1] else np.roll(outline, -1, axis=0)
    side = ON_TILE_SCALE
    flat = np.array([[0, 0], [2 * side, 0], [2 * side, side], [0, side]], np.float32)
    transform = cv2.getPerspectiveTransform(np.ascontiguousarray(corners, np.float32), flat)
    face = cv2.warpPerspective(pixels, transform, (2 * side, side), flags=cv2.INTER_AREA)
    margin = int(round(ON_TILE_MARGIN * side))
    inner = cv2.cvtColor(
        np.ascontiguousarray(face[margin:-margin, margin:-margin]), cv2.COLOR_BGR2LAB
    ).astype(np.float32)
    # A marker lies across the middle (a coin is as wide as the tile and may cover half of
    # it); the tile's two ends are mostly its face even where a half's pips crowd them.
    end = int(round(ON_TILE_ENDS * side))
    colour = np.median(
        np.concatenate([inner[:, :end], inner[:, -end:]], axis=1).reshape(-1, 3), axis=0
    )
    differs = (np.linalg.norm(inner - colour, axis=2) > ON_TILE_DIFFERENT).astype(np.uint8)
    width = int(round(ON_TILE_WIDTH * side)) | 1
    kept = cv2.morphologyEx(
        differs, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
    )
    count, labels, stats, _ = cv2.connectedComponentsWithStats(kept, connectivity=8)
    for index in range(1, count):
        if stats[index, cv2.CC_STAT_AREA] < ON_TILE_AREA * side * side:
            continue
        blob = labels == index
        seen = inner[blob]
        if (
            _solidity(blob) >= SOLID
            and float(seen[:, 0].std()) <= ON_TILE_EVEN
            and float(np.linalg.norm(seen.mean(axis=0) - colour)) >= ON_TILE_UNLIKE
            and _edge_strength(inner[:, :, 0], blob) >= ON_TILE_EDGE
        ):
            return True
    return False


def _edge_strength(lightness: NDArray[np.float32], blob: NDArray[np.bool_]) -> float:
    """How sharply the lightness changes round the blob's edge (Sobel, mean)."""
    rim = blob & ~cv2.erode(blob.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    across = cv2.Sobel(lightness, cv2.CV_32F, 1, 0)
    down = cv2.Sobel(lightness, cv2.CV_32F, 0, 1)
    return float(np.hypot(across, down)[rim].mean()) if rim.any() else 0.0


def _solidity(blob: NDArray[np.bool_]) -> float:
    """The blob's area over its convex hull's: a marker is a compact thing, a table's pattern
    straggles."""
    points = cv2.findNonZero(blob.astype(np.uint8))
    if points is None:
        return 0.0
    hull = cv2.contourArea(cv2.convexHull(points))
    return float(blob.sum()) / max(hull, 1.0)


def _short_side(outline: NDArray[np.float32]) -> float:
    edges = np.linalg.norm(np.roll(outline, -1, axis=0) - outline, axis=1)
    return float(np.sort(edges)[:2].mean())


def _starts_at_hub(outline: NDArray[np.float32], hub: NDArray[np.float32], short: float) -> bool:
    """Whether the tile's near end lies within a plastic hub's reach of the hub's centre."""
    return float(np.linalg.norm(outline.mean(axis=0) - hub)) < 6.0 * short


def _axes(
    outline: NDArray[np.float32], hub: NDArray[np.float32]
) -> tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.float32], float]:
    """The tile's inner end's middle, the unit vector out along it, the one across, its length."""
    edges = np.roll(outline, -1, axis=0) - outline
    longest = int(np.argmax(np.linalg.norm(edges, axis=1)))
    along = edges[longest] / max(float(np.linalg.norm(edges[longest])), 1e-6)
    centre = outline.mean(axis=0)
    if float(np.dot(centre - hub, along)) < 0:
        along = -along
    across = np.array([-along[1], along[0]], np.float32)
    length = float(np.linalg.norm(edges[longest]))
    inner = centre - along * length / 2
    return inner.astype(np.float32), along.astype(np.float32), across, length


def _marker_beside(
    pixels: NDArray[np.uint8],
    first: NDArray[np.float32],
    hub: NDArray[np.float32],
    outlines: Sequence[NDArray[np.float32]],
    others: Sequence[NDArray[np.float32]],
    short: float,
) -> bool | None:
    inner, along, across, length = _axes(first, hub)
    # Work in a window round the train's start only.
    reach = SURROUND * short + ALONG[1] * length
    height, width = pixels.shape[:2]
    left = int(max(0, inner[0] - reach))
    top = int(max(0, inner[1] - reach))
    right = int(min(width, inner[0] + reach + 1))
    bottom = int(min(height, inner[1] + reach + 1))
    if right - left < 4 or bottom - top < 4:
        return None
    # Colour is converted pixel by pixel, so the window alone is converted (a whole 3-MP photo
    # took longer than the windows of all its trains).
    window = cv2.cvtColor(
        np.ascontiguousarray(pixels[top:bottom, left:right]), cv2.COLOR_BGR2LAB
    ).astype(np.float32)
    ys, xs = np.mgrid[top:bottom, left:right].astype(np.float32)
    rel_x, rel_y = xs - inner[0], ys - inner[1]
    a = (rel_x * along[0] + rel_y * along[1]) / length
    b = np.abs(rel_x * across[0] + rel_y * across[1]) / short

    clear = np.ones(window.shape[:2], np.uint8)
    grow = max(1, int(round(OFF_TILES * short)))
    for outline in outlines:
        shifted = np.round(outline - np.array([left, top], np.float32)).astype(np.int32)
        cv2.fillConvexPoly(clear, shifted, 0)
    kept_off = cv2.erode(clear, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * grow + 1,) * 2))
    # The hub: everything nearer its centre than the train's inner end (plus its rim).
    hub_radius = float(np.linalg.norm(inner - hub)) + HUB_RIM * short
    off_hub = np.hypot(xs - hub[0], ys - hub[1]) > hub_radius
    usable = (np.asarray(kept_off) > 0) & off_hub

    in_band = (a >= ALONG[0]) & (a <= ALONG[1]) & (b >= BAND[0]) & (b <= BAND[1]) & usable
    around = (b > BAND[1]) & (b <= SURROUND) & (a >= ALONG[0] - 1) & (a <= ALONG[1] + 1) & usable
    if int(in_band.sum()) < 0.5 * short * short or int(around.sum()) < short * short:
        return None
    distance = _distance_from_table(window, window[around])
    place = (usable, in_band, (left, top), first, others, short)
    strong = _blobs_verdict(distance > DIFFERENT, *place)
    if strong is not False:
        return strong
    # Nothing stands out; something faint as big as a marker and shaped like one (a silver
    # coin on a grey table) still makes the plain answer unsafe. A faint straggling or
    # sprawling patch is the table's own grain, veins or shading.
    faint = _blobs_verdict(distance > FAINT, *place, shaped_only=True)
    return None if faint is not False else False


def _blobs_verdict(
    differs_mask: NDArray[np.bool_],
    usable: NDArray[np.bool_],
    in_band: NDArray[np.bool_],
    offset: tuple[int, int],
    first: NDArray[np.float32],
    others: Sequence[NDArray[np.float32]],
    short: float,
    *,
    shaped_only: bool = False,
) -> bool | None:
    """True for a marker-sized blob of differing pixels beside this train; None for one that
    may be a marker; False for none. With ``shaped_only``, blobs bigger than any marker or
    not compact like one are passed over instead of doubted."""
    # Table grain, veins and the seams of a patterned cloth are thinner than any marker: an
    # opening wipes them out.
    thin = max(1, int(round(0.12 * short)))
    differs = cv2.morphologyEx(
        (differs_mask & usable).astype(np.uint8),
        cv2.MORPH_OPEN,
        cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * thin + 1,) * 2),
    )
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(differs, connectivity=8)
    unit = short * short
    verdict: bool | None = False
    for index in range(1, count):
        blob = labels == index
        inside = int((blob & in_band).sum()) / unit
        if inside < UNSURE_AREA:
            continue
        whole = int(stats[index, cv2.CC_STAT_AREA]) / unit
        compact = _solidity(blob) >= SOLID
        if shaped_only and (whole > LARGEST_AREA or not compact):
            continue
        centre = (centroids[index] + np.array(offset)).astype(np.float32)
        mine = distance_outside(first, centre)
        nearest_other = min((distance_outside(other, centre) for other in others), default=1e9)
        if nearest_other < mine:
            if mine <= SHARED * nearest_other:
                verdict = None  # between the two: whose it is, the player says
            continue  # the other train's marker
        if whole > LARGEST_AREA:
            # Part of something far bigger than a marker (a patch of the table's pattern the
            # table's colours missed, a bag of tiles): no telling what lies on it.
            verdict = None
            continue
        if (
            inside >= SEEN_AREA
            and inside >= 0.5 * whole
            and nearest_other > SHARED * mine
            and compact
        ):
            return True
        verdict = None
    return verdict


def _distance_from_table(
    window: NDArray[np.float32], table: NDArray[np.float32]
) -> NDArray[np.float32]:
    """Each pixel's CIELAB distance from the nearest of the table's main colours (a patterned
    or grained table has several), found by k-means on pixels of the table round the band."""
    rng = np.random.default_rng(0)
    sample = table if len(table) <= 4000 else table[rng.choice(len(table), 4000, replace=False)]
    colours = min(TABLE_COLOURS, len(sample))
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(0)
    labels = np.zeros((len(sample), 1), np.int32)
    _, _, found = cv2.kmeans(
        np.ascontiguousarray(sample, np.float32), colours, labels, criteria, 2, KMEANS_PP
    )
    centres = np.asarray(found, np.float32).reshape(-1, 3)
    # One colour and one channel at a time, keeping the nearest squared distance, and a single
    # square root: the same figures as a (pixels, colours, 3) difference array, many times
    # quicker (numpy sums a short last axis slowly).
    lightness, green_red, blue_yellow = cv2.split(window)
    nearest_squared = np.full(window.shape[:2], np.inf, np.float32)
    for centre in centres:
        across_l = lightness - centre[0]
        across_a = green_red - centre[1]
        across_b = blue_yellow - centre[2]
        np.minimum(
            nearest_squared,
            across_l * across_l + across_a * across_a + across_b * across_b,
            out=nearest_squared,
        )
    return np.sqrt(nearest_squared)


VIEW_ACROSS = 3.2
"""A marker check's view reaches this many short sides to each side of the first tile's middle
line: the band markers are looked for in (BAND) and the next train's edge."""
VIEW_ALONG = (-1.0, 4.0)
"""From one short side inside the train's inner end (the hub's rim) to four out along it."""
VIEW_SCALE = 10
"""View pixels per short side: a coin is ten across."""
VIEW_SHAPE = (
    int(round((VIEW_ALONG[1] - VIEW_ALONG[0]) * VIEW_SCALE)),
    int(round(2 * VIEW_ACROSS * VIEW_SCALE)),
)
"""(height, width) of a view: along the train downwards, across it left to right."""
VIEW_CHANNELS = 5
"""Blue, green, red (0..1), the tiles read (1 on a tile), the hub's reach (1 inside)."""


def marker_views(
    pixels: NDArray[np.uint8], scale: float, layout: TableLayout
) -> tuple[NDArray[np.float32] | None, ...]:
    """For each train, what a marker check looks at: the table round its start turned so the
    train runs down the view from the hub, ``VIEW_SCALE`` pixels to a short side, with the
    tiles read and the hub's reach as two more channels; None for a train not seen to start
    at a hub (or with no hub at all), where no marker question is put to a model.

    Pure image arithmetic, (height, width, VIEW_CHANNELS) float32 each."""
    return _views(pixels, _train_starts(scale, layout), len(layout.trains))


def _views(
    pixels: NDArray[np.uint8], starts: _TrainStarts | None, trains: int
) -> tuple[NDArray[np.float32] | None, ...]:
    if starts is None:
        return (None,) * trains
    return tuple(
        None if short is None else _view(pixels, first, starts.hub, starts.outlines, short)
        for first, short in zip(starts.firsts, starts.shorts, strict=True)
    )


def _view(
    pixels: NDArray[np.uint8],
    first: NDArray[np.float32],
    hub: NDArray[np.float32],
    outlines: Sequence[NDArray[np.float32]],
    short: float,
) -> NDArray[np.float32]:
    inner, along, across, _length = _axes(first, hub)
    height, width = VIEW_SHAPE
    # Shrink the neighbourhood first (area averaging), so a big photo's fine pattern does
    # not alias when it is sampled ten pixels to a short side.
    reach = short * (max(abs(VIEW_ALONG[0]), VIEW_ALONG[1]) + VIEW_ACROSS + 1)
    rows, cols = pixels.shape[:2]
    left = int(max(0, math.floor(inner[0] - reach)))
    top = int(max(0, math.floor(inner[1] - reach)))
    right = int(min(cols, math.ceil(inner[0] + reach + 1)))
    bottom = int(min(rows, math.ceil(inner[1] + reach + 1)))
    shrink = min(1.0, 2.0 * VIEW_SCALE / short)
    window = np.ascontiguousarray(pixels[top:bottom, left:right])
    if shrink < 1.0 and window.size:
        size = (max(1, round(window.shape[1] * shrink)), max(1, round(window.shape[0] * shrink)))
        window = np.asarray(cv2.resize(window, size, interpolation=cv2.INTER_AREA), np.uint8)
    # View pixel (x, y) -> photo point; then into the shrunk window.
    step = short / VIEW_SCALE
    origin = inner + along * (VIEW_ALONG[0] * short) - across * (VIEW_ACROSS * short)
    to_photo = np.array(
        [
            [across[0] * step, along[0] * step, origin[0] + (across[0] + along[0]) * step / 2],
            [across[1] * step, along[1] * step, origin[1] + (across[1] + along[1]) * step / 2],
        ],
        np.float64,
    )
    to_window = to_photo.copy()
    to_window[:, 2] -= (left, top)
    if window.size:
        sx = window.shape[1] / max(1, right - left)
        sy = window.shape[0] / max(1, bottom - top)
        to_window[0] *= sx
        to_window[1] *= sy
        to_window[:, 2] -= 0.5  # pixel centres
        colour = cv2.warpAffine(
            window,
            to_window,
            (width, height),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
    else:
        colour = np.zeros((height, width, 3), np.uint8)
    # Photo point -> view pixel, for the tiles' outlines and the hub.
    to_view = cv2.invertAffineTransform(to_photo)
    tiles = np.zeros((height, width), np.uint8)
    for outline in outlines:
        if np.linalg.norm(outline.mean(axis=0) - inner) > reach + 2 * short:
            continue
        placed = outline @ to_view[:, :2].T + to_view[:, 2]
        cv2.fillConvexPoly(tiles, np.round(placed * 16).astype(np.int32), 1, cv2.LINE_AA, 4)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32) + np.float32(0.5)
    points_x = origin[0] + (xs * across[0] + ys * along[0]) * step
    points_y = origin[1] + (xs * across[1] + ys * along[1]) * step
    hub_radius = float(np.linalg.norm(inner - hub)) + HUB_RIM * short
    in_hub = np.hypot(points_x - hub[0], points_y - hub[1]) <= hub_radius
    view = np.empty((height, width, VIEW_CHANNELS), np.float32)
    view[..., :3] = colour.astype(np.float32) / np.float32(255)
    view[..., 3] = tiles
    view[..., 4] = in_hub
    return view


DEFAULT_MARKER_MODEL = Path(__file__).resolve().parent.parent / "models" / "markers.onnx"
MARKER_FROM = 0.55
"""From this chance of the marker check's on, a train has a marker..."""
NONE_UP_TO = 0.45
"""...and up to this one it has none; between the two the blob look's answer stands (chosen on
120 rendered tuning tables, seeds 800,000,000 on, among 0.35 to 0.5 either side for the two
checks joined: models/MODEL_CARD.md, "Marker check v2"; 0.35 / 0.65 for the first check
alone)."""


class MarkerCheck:
    """Says how likely a marker lies beside each train's start, from its view (one batched
    model call per photo). Trained on rendered tables only (models/MODEL_CARD.md)."""

    def __init__(self, model_path: Path = DEFAULT_MARKER_MODEL, threads: int = 1) -> None:
        self._session = open_session(model_path, threads, "marker check")
        self._input_name = self._session.get_inputs()[0].name

    def chances(self, views: Sequence[NDArray[np.float32] | None]) -> tuple[float | None, ...]:
        """For each view, the chance a marker lies beside its train; None for no view."""
        present = [view for view in views if view is not None]
        if not present:
            return tuple(None for _ in views)
        batch = np.ascontiguousarray(np.stack(present).transpose(0, 3, 1, 2), np.float32)
        (logits,) = self._session.run(None, {self._input_name: batch})
        chances = iter(1.0 / (1.0 + np.exp(-np.asarray(logits, np.float64)[:, 0])))
        return tuple(None if view is None else float(next(chances)) for view in views)


def settled(blobs: bool | None, chance: float | None) -> bool | None:
    """A train's marker from the blob look and the marker check's chance: a clear chance
    answers; where it is unclear (or the check had no view) the blob look's answer stands, a
    doubt included, so the player is asked."""
    if chance is not None and chance >= MARKER_FROM:
        return True
    if chance is not None and chance <= NONE_UP_TO:
        return False
    return blobs


def with_markers(layout: TableLayout, markers: Sequence[bool | None]) -> TableLayout:
    """``layout`` with each train's marker set."""
    trains = tuple(
        replace(train, marker=marker) for train, marker in zip(layout.trains, markers, strict=True)
    )
    return replace(layout, trains=trains)
