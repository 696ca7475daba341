"""Tile outlines: four corners in photo pixels, put in one order, compared by overlap.

Every part of the pipeline (the finder's outlines, the photo's own outline, the rectifier)
and the tools outside it (the classical finder, the renderer's scorers) agree on one
convention: corners clockwise on screen, starting top-left, the first edge a long one, so
that a crop along the outline lays the tile's long axis horizontal.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

Corners = NDArray[np.float32]
"""A (4, 2) float32 array of corners (x, y) in photo pixels."""


def edge_lengths(corners: Corners) -> NDArray[np.float64]:
    """The lengths of the four edges, from corner 0 to 1, 1 to 2, 2 to 3 and 3 to 0."""
    steps = (corners[[1, 2, 3, 0]] - corners).astype(np.float64)
    return np.asarray(np.sqrt((steps * steps).sum(axis=1)), dtype=np.float64)


def order_corners(corners: Corners) -> Corners:
    """Order 4 corners clockwise (on screen) from the top-left one, first edge long."""
    points = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    clockwise = points[np.argsort(angles)]
    start = int(np.argmin(clockwise[:, 0] + clockwise[:, 1]))
    clockwise = np.roll(clockwise, -start, axis=0)
    edges = edge_lengths(clockwise)
    if edges[0] + edges[2] < edges[1] + edges[3]:
        clockwise = np.roll(clockwise, -1, axis=0)
    return np.ascontiguousarray(clockwise, dtype=np.float32)


def _contour(corners: Corners) -> NDArray[np.float32]:
    return np.asarray(corners, dtype=np.float32).reshape(-1, 1, 2)


def contains(outline: Corners, point: NDArray[np.floating]) -> bool:
    """Whether ``point`` lies inside ``outline`` or on its edge."""
    at = (float(point[0]), float(point[1]))
    return cv2.pointPolygonTest(_contour(outline), at, False) >= 0


def distance_outside(
    outline: NDArray[np.floating] | Sequence[Sequence[float]],
    point: Sequence[float] | NDArray[np.floating],
) -> float:
    """How far ``point`` lies outside ``outline`` (0 inside it or on its edge)."""
    contour = np.asarray(outline, dtype=np.float32).reshape(-1, 1, 2)
    at = (float(point[0]), float(point[1]))
    return max(0.0, -float(cv2.pointPolygonTest(contour, at, True)))


def outline_iou(first: Corners, second: Corners) -> float:
    """Intersection over union of two convex outlines."""
    a, b = _contour(first), _contour(second)
    inter, _ = cv2.intersectConvexConvex(a, b)
    union = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return float(inter / union) if union > 0 else 0.0


def covered_share(outline: Corners, others: Sequence[Corners]) -> float:
    """The share of ``outline``'s area lying on the ``others`` (which do not overlap much
    among themselves, so their overlaps with it are simply added)."""
    shape = _contour(outline)
    area = cv2.contourArea(shape)
    if area <= 0:
        return 1.0
    covered = sum(cv2.intersectConvexConvex(shape, _contour(other))[0] for other in others)
    return float(min(1.0, covered / area))


@dataclass(frozen=True, eq=False)
class Quad:
    """A tile outline in the pipeline's corner order (see :func:`order_corners`)."""

    corners: Corners

    @classmethod
    def of(cls, corners: Corners | Sequence[Sequence[float]]) -> Quad:
        """An outline from four corners in any order."""
        return cls(order_corners(np.asarray(corners, dtype=np.float32)))

    @property
    def long_side(self) -> float:
        """The longer of the two pairs of opposite edges, averaged."""
        edges = edge_lengths(self.corners)
        return float(max(edges[0] + edges[2], edges[1] + edges[3]) / 2)

    def iou(self, other: Quad) -> float:
        """Intersection over union with another outline."""
        return outline_iou(self.corners, other.corners)

    def covered_share(self, others: Sequence[Quad]) -> float:
        """The share of this outline lying on the others."""
        return covered_share(self.corners, [other.corners for other in others])


def long_axis(corners: Corners | NDArray[np.float64]) -> tuple[NDArray[np.float64], float, float]:
    """The unit vector along the outline's long sides (zero for an outline of no size), their
    mean length and the short sides' mean length."""
    points = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    edges = np.roll(points, -1, axis=0) - points
    lengths = np.linalg.norm(edges, axis=1)
    first = 0 if lengths[0] + lengths[2] >= lengths[1] + lengths[3] else 1
    along = edges[first] - edges[first + 2]
    norm = float(np.linalg.norm(along))
    unit = along / norm if norm > 0 else along
    long = float(lengths[first] + lengths[first + 2]) / 2
    short = float(lengths[1 - first] + lengths[3 - first]) / 2
    return unit, long, short


NEIGHBOURS = 6
"""How many of the nearest outlines lying the same way (long sides within 15 degrees:
PARALLEL) give the size the tiles have round an outline. A photo taken at a slant shows near
tiles bigger than far ones, and tiles pointing away from the camera shorter than those across
its view, so only tiles lying the same way nearby are compared; at least MIN_NEIGHBOURS."""
MIN_NEIGHBOURS = 4
NEAR = 4.0
"""Neighbours lie within this many of the outline's short sides of its middle (far across a
slanted photo tiles are another size)."""
PARALLEL = math.cos(math.radians(15))
STRETCHED = 1.3
"""An outline whose long sides are this many times the length of those round it, its short
sides theirs or a little more (at most WIDENED times), is stretched: the finder's outline
sat loose on the tile and onto the next; it is cut back to the neighbours' size both ways."""
WIDENED = 1.5


def cut_to_neighbours(outlines: Sequence[Corners]) -> list[Corners]:
    """The outlines, each stretched one cut back to the median size of its NEIGHBOURS
    nearest, about its own middle (the others as they are).

    One set's tiles are all one size; an outline run a third of a tile onto the next tile's
    end in a line of tiles breaks the joint between them, so the chain comes apart there. An
    outline much wider than its neighbours too (two tiles side by side) is left as it is.
    """
    if len(outlines) <= MIN_NEIGHBOURS:
        return list(outlines)
    axes = [long_axis(outline) for outline in outlines]
    units = np.array([unit for unit, _, _ in axes])
    centres = np.array([np.asarray(outline, np.float64).mean(axis=0) for outline in outlines])
    result = list(outlines)
    for index, (unit, long, short) in enumerate(axes):
        distances = np.hypot(*(centres - centres[index]).T)
        distances[np.abs(units @ unit) < PARALLEL] = np.inf
        distances[distances > NEAR * short] = np.inf
        distances[index] = np.inf
        nearest = np.argsort(distances)[:NEIGHBOURS]
        nearest = nearest[np.isfinite(distances[nearest])]
        if len(nearest) < MIN_NEIGHBOURS:
            continue
        usual_long = float(np.median([axes[other][1] for other in nearest]))
        usual_short = float(np.median([axes[other][2] for other in nearest]))
        if usual_long <= 0 or long <= STRETCHED * usual_long or short > WIDENED * usual_short:
            continue
        across = np.array([-unit[1], unit[0]])
        offsets = np.asarray(outlines[index], np.float64) - centres[index]
        along, aside = offsets @ unit, offsets @ across
        narrower = min(1.0, usual_short / max(short, 1e-6))
        cut = np.outer(along * usual_long / long, unit) + np.outer(aside * narrower, across)
        result[index] = (centres[index] + cut).astype(np.float32)
    return result
