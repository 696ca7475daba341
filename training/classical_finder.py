"""Find face-up dominoes in a photo and return each tile's four corners.

Classical search: the photo is shrunk to about 1000 px, several channels (brightness,
whiteness, yellowness and inverted brightness for black tiles) are thresholded at many
levels, and every connected region whose outline is a convex quadrilateral with a domino's
proportions becomes a candidate. Touching tiles separate at the levels where the thin dark
gap between them falls below the threshold. Candidates are checked for the divider bar
across the middle, duplicates across levels are merged, and a region that holds two or
more smaller tiles is dropped in their favour.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.geometry import edge_lengths, order_corners

WORK_LONG_SIDE = 1000
"""Long side, in pixels, of the shrunk copy the search runs on."""

MIN_ASPECT = 1.4
MAX_ASPECT = 2.9
"""A domino is 2:1; a view tilted up to about 45 degrees shortens one side by up to 0.7."""

MIN_RECTANGULARITY = 0.86
MIN_SOLIDITY = 0.5
MIN_DIVIDER = 0.6
MIN_SEAM = 0.6
MIN_BOX_FILL = 0.78
MIN_AREA_FRACTION = 0.0004
"""Smallest tile, as a fraction of the photo's area (about 1.5% of its width long)."""

_LEVELS = 10
_CHECK_SIZE = (128, 64)


@dataclass(frozen=True)
class Candidate:
    """A possible tile on the shrunk working copy."""

    quad: NDArray[np.float32]
    """(4, 2) corners, clockwise from top-left, first edge long."""
    area: float
    shape_score: float
    divider: float

    @property
    def score(self) -> float:
        """Ranking used to pick between overlapping candidates."""
        return self.shape_score * (0.5 + self.divider)


def find_tiles(image_bgr: NDArray[np.uint8]) -> list[NDArray[np.float32]]:
    """Return the corners of every face-up tile: (4, 2) float32, image pixel coordinates."""
    height, width = image_bgr.shape[:2]
    scale = min(1.0, WORK_LONG_SIDE / max(height, width))
    if scale < 1.0:
        small = _u8(
            cv2.resize(
                image_bgr,
                (max(int(round(width * scale)), 1), max(int(round(height * scale)), 1)),
                interpolation=cv2.INTER_AREA,
            )
        )
    else:
        small = image_bgr
    found = select_tiles(candidate_tiles(small))
    return [(c.quad / np.float32(scale)).astype(np.float32) for c in found]


def candidate_tiles(small_bgr: NDArray[np.uint8]) -> list[Candidate]:
    """Every tile-shaped region at any threshold level of any search channel."""
    height, width = small_bgr.shape[:2]
    smooth = _u8(cv2.GaussianBlur(small_bgr, (3, 3), 0))
    gray = _u8(cv2.cvtColor(smooth, cv2.COLOR_BGR2GRAY))
    candidates: list[Candidate] = []
    regions: list[Region] = []
    seen: set[tuple[int, ...]] = set()
    channels = _search_channels(smooth, gray)
    for channel in channels:
        low, high = _percentiles(channel, (5.0, 99.5))
        if high - low < 20:
            continue
        for level in np.linspace(low, high, _LEVELS + 2)[1:-1]:
            mask = np.zeros((height + 2, width + 2), dtype=np.uint8)
            mask[1:-1, 1:-1] = (channel > level).astype(np.uint8) * 255
            _collect(mask, gray, seen, candidates, regions)
    # Regions enclosed by edges find faces whose surroundings are as bright as they are
    # (ivory on white paper): the face ends where the tile's side or its shadow begins.
    for low_edge, high_edge in ((20, 60), (40, 120)):
        edges = cv2.Canny(gray, low_edge, high_edge)
        edges = _u8(cv2.dilate(edges, np.ones((3, 3), np.uint8)))
        mask = np.zeros((height + 2, width + 2), dtype=np.uint8)
        mask[1:-1, 1:-1] = 255 - edges
        _collect(mask, gray, seen, candidates, regions)
    # Locally brighter than their surroundings: faces next to their own shaded sides and
    # shadows, whatever the overall brightness of the table.
    for block in (51, 151):
        for source in (gray, channels[3]):
            local = cv2.adaptiveThreshold(
                source, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, -4
            )
            mask = np.zeros((height + 2, width + 2), dtype=np.uint8)
            mask[1:-1, 1:-1] = _u8(local)
            _collect(mask, gray, seen, candidates, regions)
    # Tiles in one photo are about the same size, so the separate tiles found so far say
    # how many tiles a merged row or grid holds.
    singles = select_tiles(candidates)
    typical = float(np.median([c.area for c in singles])) if singles else None
    for region in regions:
        candidates.extend(_grid_candidates(gray, region, typical, (width, height)))
    return candidates


@dataclass(frozen=True)
class Region:
    """A rectangular region that may be several touching tiles."""

    quad: NDArray[np.float32]
    aspect: float
    area: float
    shape_score: float


def _search_channels(smooth: NDArray[np.uint8], gray: NDArray[np.uint8]) -> list[NDArray[np.uint8]]:
    """Brightness, whiteness, yellowness, bright-and-yellow, and darkness (black tiles)."""
    whiteness = _u8(np.min(smooth, axis=2))
    yellowness = _u8(_u8(cv2.cvtColor(smooth, cv2.COLOR_BGR2LAB))[:, :, 2])
    # Ivory faces on white paper differ from the paper only in hue and from their own
    # shaded sides only in brightness: a pixel both yellowish and bright is face.
    bright_yellow = _u8(np.minimum(_stretch(yellowness), _stretch(gray)))
    return [gray, whiteness, yellowness, bright_yellow, np.asarray(255 - gray, dtype=np.uint8)]


def _percentiles(channel: NDArray[np.uint8], quantiles: tuple[float, ...]) -> list[float]:
    """Percentiles of a uint8 image from its histogram (far cheaper than sorting)."""
    counts = np.bincount(channel.ravel(), minlength=256)
    cumulative = np.cumsum(counts)
    total = float(cumulative[-1])
    return [float(np.searchsorted(cumulative, q / 100.0 * total)) for q in quantiles]


def _stretch(channel: NDArray[np.uint8]) -> NDArray[np.uint8]:
    low, high = _percentiles(channel, (5.0, 99.5))
    scaled = (channel.astype(np.float32) - low) * (255.0 / max(high - low, 1.0))
    return _u8(np.clip(scaled, 0, 255))


def _u8(array: object) -> NDArray[np.uint8]:
    """View OpenCV's loosely typed result as the uint8 array it is."""
    return np.asarray(array, dtype=np.uint8)


def _collect(
    padded_mask: NDArray[np.uint8],
    gray: NDArray[np.uint8],
    seen: set[tuple[int, ...]],
    candidates: list[Candidate],
    regions: list[Region],
) -> None:
    """Add one binary mask's tile candidates and rectangular regions; `seen` skips
    regions met at an earlier level."""
    height, width = gray.shape
    image_area = float(height * width)
    min_area = MIN_AREA_FRACTION * image_area
    contours, hierarchy = cv2.findContours(padded_mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return
    for contour, links in zip(contours, hierarchy[0], strict=True):
        if links[3] != -1:
            continue  # a hole, not a region
        area = cv2.contourArea(contour)
        if area < min_area or area > 0.98 * image_area:
            continue
        x, y, w, h = cv2.boundingRect(contour)
        key = (x // 3, y // 3, w // 3, h // 3, int(area) // 40)
        if key in seen:
            continue
        seen.add(key)
        (_, _), (box_w, box_h), _ = cv2.minAreaRect(contour)
        if area < MIN_SOLIDITY * MIN_BOX_FILL * box_w * box_h:
            continue  # far from a filled rectangle: skip the costlier checks
        points = contour.reshape(-1, 2).astype(np.float32) - 1.0  # undo the padding
        _shape_candidate(points, area, image_area, (width, height), gray, candidates, regions)


def _shape_candidate(
    points: NDArray[np.float32],
    area: float,
    image_area: float,
    size: tuple[int, int],
    gray: NDArray[np.uint8],
    candidates: list[Candidate],
    regions: list[Region],
) -> None:
    """Add the region as one tile, and as a possible grid of touching tiles."""
    hull = np.asarray(cv2.convexHull(points), dtype=np.float32)
    hull_area = cv2.contourArea(hull)
    if hull_area <= 0:
        return
    solidity = area / hull_area
    if solidity < MIN_SOLIDITY:
        return
    (_, _), (rect_w, rect_h), _ = cv2.minAreaRect(hull)
    if min(rect_w, rect_h) < 6:
        return
    rectangularity = hull_area / (rect_w * rect_h)
    quad = _hull_to_quad(hull)
    quad_area = cv2.contourArea(quad)
    if quad_area <= 0:
        return
    # Compare with the quad, not the rotated box, so a perspective trapezoid still fits.
    fit = min(hull_area, quad_area) / max(hull_area, quad_area)
    if max(fit, rectangularity) < MIN_RECTANGULARITY or rectangularity < MIN_BOX_FILL:
        return
    ordered = order_corners(quad)
    aspect = _quad_aspect(ordered)
    whole_frame = hull_area >= 0.35 * image_area  # a close-up of a single tile
    shape_score = float(max(fit, rectangularity) * min(solidity / 0.9, 1.0))
    if MIN_ASPECT <= aspect <= MAX_ASPECT and (whole_frame or not _touches_border(ordered, size)):
        candidate = _checked(gray, ordered, shape_score * _aspect_fit(aspect))
        if candidate is not None:
            candidates.append(candidate)
    if not whole_frame and not _touches_border(ordered, size):
        regions.append(Region(ordered, aspect, float(quad_area), shape_score))


def _aspect_fit(aspect: float) -> float:
    return 1.0 - min(abs(float(np.log(aspect / 2.0))) / 0.8, 1.0) * 0.5


def _checked(gray: NDArray[np.uint8], quad: NDArray[np.float32], shape: float) -> Candidate | None:
    divider = divider_strength(gray, quad)
    if divider < MIN_DIVIDER:
        return None
    return Candidate(
        quad=quad, area=float(cv2.contourArea(quad)), shape_score=shape, divider=divider
    )


_MAX_GRID = 8
_MAX_GRID_CELLS = 16


def _grid_candidates(
    gray: NDArray[np.uint8],
    region: Region,
    typical_area: float | None,
    size: tuple[int, int],
) -> list[Candidate]:
    """Split a rectangular region into rows and columns of touching tiles.

    Tiles laid edge to edge in a row or grid merge into one rectangle wherever the seams
    between them are too faint; a split whose cells have a domino's proportions (and the
    typical tile size, when known) and each show a divider bar gives one candidate per cell.
    """
    quad, aspect, shape_score = region.quad, region.aspect, region.shape_score
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32)
    to_quad = np.asarray(cv2.getPerspectiveTransform(unit, quad), dtype=np.float64)
    short_side = float(min(edge_lengths(quad)))
    long_side = short_side * aspect
    for along in range(1, _MAX_GRID + 1):
        for across in range(1, _MAX_GRID + 1):
            if not 2 <= along * across <= _MAX_GRID_CELLS:
                continue
            cell_area = region.area / (along * across)
            if typical_area is not None and not 0.4 <= cell_area / typical_area <= 2.5:
                continue
            cell_along, cell_across = long_side / along, short_side / across
            if min(cell_along, cell_across) < 8:
                continue
            cell_aspect = max(cell_along, cell_across) / min(cell_along, cell_across)
            if not MIN_ASPECT <= cell_aspect <= MAX_ASPECT:
                continue
            cells = _split_cells(gray, to_quad, along, across, cell_along >= cell_across, size)
            if cells:
                score = 0.95 * shape_score * _aspect_fit(cell_aspect)
                return [
                    Candidate(order_corners(c), float(cv2.contourArea(c)), score, d)
                    for c, d in cells
                ]
    return []


def _split_cells(
    gray: NDArray[np.uint8],
    to_quad: NDArray[np.float64],
    along: int,
    across: int,
    long_along: bool,
    size: tuple[int, int],
) -> list[tuple[NDArray[np.float32], float]]:
    """The cells of one split with their divider strengths, or [] if any cell fails."""
    grid_x, grid_y = np.meshgrid(np.linspace(0, 1, along + 1), np.linspace(0, 1, across + 1))
    points = np.stack([grid_x, grid_y], axis=-1).astype(np.float32).reshape(-1, 1, 2)
    mapped = cv2.perspectiveTransform(points, to_quad).reshape(across + 1, along + 1, 2)
    cells: list[tuple[NDArray[np.float32], float]] = []
    for j in range(across):
        for i in range(along):
            cell = np.array(
                [mapped[j, i], mapped[j, i + 1], mapped[j + 1, i + 1], mapped[j + 1, i]],
                dtype=np.float32,
            )
            if not long_along:
                cell = np.roll(cell, -1, axis=0)
            if _touches_border(cell, size):
                return []
            divider = divider_strength(gray, cell)
            if divider < MIN_DIVIDER:
                return []
            cells.append((cell, divider))
    # Touching tiles leave a seam (a thin gap or shadow line) between them; a split along a
    # line with no seam is cutting through one tile.
    for j in range(across):
        for i in range(along - 1):
            pair = np.array(
                [mapped[j, i], mapped[j, i + 2], mapped[j + 1, i + 2], mapped[j + 1, i]],
                dtype=np.float32,
            )
            if divider_strength(gray, pair) < MIN_SEAM:
                return []
    for j in range(across - 1):
        for i in range(along):
            pair = np.array(
                [mapped[j, i], mapped[j + 2, i], mapped[j + 2, i + 1], mapped[j, i + 1]],
                dtype=np.float32,
            )
            if divider_strength(gray, pair) < MIN_SEAM:
                return []
    return cells


def _hull_to_quad(hull: NDArray[np.float32]) -> NDArray[np.float32]:
    perimeter = cv2.arcLength(hull, True)
    for fraction in (0.02, 0.035, 0.05, 0.07, 0.09):
        approx = cv2.approxPolyDP(hull, fraction * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
        if len(approx) < 4:
            break
    box = cv2.boxPoints(cv2.minAreaRect(hull))
    return np.asarray(box, dtype=np.float32)


def _quad_aspect(quad: NDArray[np.float32]) -> float:
    edges = edge_lengths(quad)
    first = (edges[0] + edges[2]) / 2.0
    second = (edges[1] + edges[3]) / 2.0
    shorter = min(first, second)
    return float(max(first, second) / shorter) if shorter > 0 else 0.0


def _touches_border(quad: NDArray[np.float32], size: tuple[int, int]) -> bool:
    width, height = size
    margin = 2.0
    xs, ys = quad[:, 0], quad[:, 1]
    return bool(
        xs.min() < margin
        or ys.min() < margin
        or xs.max() > width - 1 - margin
        or ys.max() > height - 1 - margin
    )


def divider_strength(gray: NDArray[np.uint8], quad: NDArray[np.float32]) -> float:
    """How clearly a bar crosses the middle of the tile (0..1), dark or light.

    The bar is the one mark every face-up domino has and a face-down one lacks.
    """
    width, height = _CHECK_SIZE
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
    transform = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    face = cv2.warpPerspective(gray, transform, (width, height), flags=cv2.INTER_LINEAR)
    inner_u8 = _u8(face[height // 6 : height - height // 6, :])
    (body,) = _percentiles(inner_u8, (50.0,))
    deviation = _u8(cv2.absdiff(inner_u8, np.full_like(inner_u8, int(body))))
    spread = _percentiles(deviation, (50.0,))[0] + 3.0
    inner = inner_u8.astype(np.float32)
    threshold = max(3.0 * spread, 12.0)
    middle = inner[:, width // 2 - 10 : width // 2 + 10]
    best = 0.0
    for sign in (1.0, -1.0):
        contrast = sign * (body - middle)
        # The bar runs along the short axis: most rows have a marked pixel near the middle,
        # and the mark is thin there (the gap between two round pips widens away from the
        # point where they come closest, so it fails this).
        marked = contrast > threshold
        thin = marked.sum(axis=1) <= (3 * middle.shape[1]) // 4
        row_marked = marked.any(axis=1) & thin
        best = max(best, float(row_marked.mean()))
    return best


def select_tiles(candidates: list[Candidate]) -> list[Candidate]:
    """Merge duplicates across levels and keep one tile per place."""
    ranked = sorted(candidates, key=lambda c: c.score, reverse=True)
    distinct: list[Candidate] = []
    for candidate in ranked:
        if any(_iou(candidate, kept) > 0.6 for kept in distinct):
            continue
        distinct.append(candidate)
    # A region holding two or more smaller tiles is those tiles merged.
    singles = [c for c in distinct if _contained_count(c, distinct) < 2]
    # Larger first: a small look-alike inside a tile (two pips and the gap between them)
    # must not displace the tile.
    chosen: list[Candidate] = []
    for candidate in sorted(singles, key=lambda c: c.score, reverse=True):
        if any(_overlap(candidate, kept) > 0.25 for kept in chosen):
            continue
        chosen.append(candidate)
    chosen.sort(key=lambda c: (float(c.quad[:, 1].mean()), float(c.quad[:, 0].mean())))
    return chosen


def _contained_count(outer: Candidate, others: list[Candidate]) -> int:
    count = 0
    for other in others:
        if other is outer or other.area > 0.7 * outer.area or other.area < 0.15 * outer.area:
            continue
        centre = other.quad.mean(axis=0)
        inside = cv2.pointPolygonTest(
            outer.quad.reshape(-1, 1, 2), (float(centre[0]), float(centre[1])), False
        )
        if inside > 0:
            count += 1
    return count


def _iou(first: Candidate, second: Candidate) -> float:
    intersection, _ = cv2.intersectConvexConvex(first.quad, second.quad)
    union = first.area + second.area - float(intersection)
    return float(intersection) / union if union > 0 else 0.0


def _overlap(first: Candidate, second: Candidate) -> float:
    """Intersection over the smaller area."""
    intersection, _ = cv2.intersectConvexConvex(first.quad, second.quad)
    smaller = min(first.area, second.area)
    return float(intersection) / smaller if smaller > 0 else 0.0


@dataclass(frozen=True)
class _Classical:
    corners: NDArray[np.float32]
    score: float = 1.0  # no belief of its own: the reader alone says whether it is a tile


class ClassicalTileFinder:
    """The hand-written finder behind the pipeline's finder interface, for comparisons."""

    def find(self, image_bgr: NDArray[np.uint8]) -> list[_Classical]:
        """Every tile outline the hand-written finder sees."""
        return [_Classical(quad) for quad in find_tiles(image_bgr)]
