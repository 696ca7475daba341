"""The learned tile finder's arithmetic, without the network: pure numpy (and OpenCV for
resizing and polygons), so training (its targets), the finder and the tests share it.

The network looks at the photo shrunk to INPUT_LONG_SIDE and, on a grid STRIDE times coarser,
predicts how likely each cell is the centre of a face-up tile's face, the centre's sub-cell
offset, and the face's two half-axes: from the centre to the middle of a short edge (along the
tile) and to the middle of a long edge (across it). A face is symmetric under a half turn, so
each half-axis is encoded by its log length and its *doubled* angle (cos 2a, sin 2a): the two
opposite directions that describe the same face get the same code, and the code is continuous
as the tile turns. Centre +/- both half-axes gives the face as a parallelogram, which is close
to the true outline for tiles that are small compared with the camera's distance.

Here: the input tensor (:func:`preprocess`), the output decoded into outlines
(:func:`decode`), outlines kept inside the photo and not repeated, and the windows and matching
of the second look (:func:`second_look_window`, :func:`best_match`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.geometry import contains, covered_share, order_corners, outline_iou

STRIDE = 4
INPUT_MULTIPLE = 32
INPUT_LONG_SIDE = 512
HEATMAP, OFFSET_X, OFFSET_Y = 0, 1, 2
ALONG = slice(3, 6)  # log length (in grid cells), cos 2a, sin 2a
ACROSS = slice(6, 9)
CHANNELS = 9
MIN_SCORE = 0.3
EDGE_TOLERANCE = 0.08
OVERLAP_LIMIT = 0.3
COVERED_LIMIT = 0.5
BORDER_SHARE = 1.0

SECOND_LOOK_ZOOM = 3.0
SECOND_LOOK_SIDE = 192
"""Each found face is looked at again on a square of the full photo SECOND_LOOK_ZOOM times its
long side, shrunk to SECOND_LOOK_SIDE: the face is then drawn about 64 px long whatever its
size in the first look, well inside the sizes the finder was trained on, and with the full
photo's detail. On held-out rendered scenes this outlines tiles more tightly and scores them
better (models/MODEL_CARD.md)."""
SECOND_LOOK_MIN_SCORE = 0.1
SECOND_LOOK_MATCH = 0.3
"""A face found on the second look replaces the first outline when they overlap by more than
this IoU; otherwise the first look stands."""


FINE_LOOK_SIDE = 1536
"""A photo of many small tiles (a table seen whole, each tile a few percent of the photo's
width) is looked at again with its long side at this size, three times the first look's: its
tiles are then drawn 40 to 70 px long, as big as the scenes the finder was trained on show
them. On rendered tables of small tiles (tile_share 0.025..0.045 of the width) the first look
alone reads 82 of 209 tiles right, with the fine look 197 (models/MODEL_CARD.md)."""
SMALL_FACE_SIDE = 24.0
"""A face whose long side is shorter than this in the first look's input (pixels) is small:
the finder was trained on faces from about 28 px long up."""
SMALL_FACES_FOR_FINE_LOOK = 3
FINE_LOOK_HINT_SCORE = 0.1
"""The fine look is wanted when the first look sees at least SMALL_FACES_FOR_FINE_LOOK small
faces, counting those it only half believes (peaks down to this score): small tiles are
exactly the ones the first look scores low or misses. Set beforehand, not tuned on dev."""


@dataclass(frozen=True)
class FoundTile:
    """One face the finder believes is a face-up tile."""

    corners: NDArray[np.float32]  # (4, 2) clockwise from top-left, first edge long
    score: float  # the centre heatmap's peak, 0..1


# --------------------------------------------------------------------------- geometry


def face_axes(corners: NDArray[np.float32]) -> tuple[NDArray[np.float64], ...]:
    """Centre (diagonal crossing) and the along/across half-axes of a face quad.

    ``corners`` are clockwise with the first edge long, as SceneTile and order_corners give.
    """
    c = np.asarray(corners, np.float64).reshape(4, 2)
    along = ((c[1] + c[2]) - (c[0] + c[3])) / 4.0
    across = ((c[2] + c[3]) - (c[0] + c[1])) / 4.0
    return _diagonal_crossing(c), along, across


def _diagonal_crossing(c: NDArray[np.float64]) -> NDArray[np.float64]:
    # The face's centre seen in perspective is where its diagonals cross, not the corners' mean.
    d1, d2 = c[2] - c[0], c[3] - c[1]
    denominator = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(denominator) < 1e-9:
        return np.asarray(c.mean(axis=0), np.float64)
    t = ((c[1][0] - c[0][0]) * d2[1] - (c[1][1] - c[0][1]) * d2[0]) / denominator
    return np.asarray(c[0] + t * d1, np.float64)


def encode_axis(vector: NDArray[np.float64]) -> tuple[float, float, float]:
    """(log length, cos 2a, sin 2a) of a half-axis given in grid cells."""
    length = max(float(np.hypot(vector[0], vector[1])), 1e-3)
    angle = math.atan2(float(vector[1]), float(vector[0]))
    return math.log(length), math.cos(2 * angle), math.sin(2 * angle)


def decode_axes(code: NDArray[np.float32]) -> NDArray[np.float64]:
    """(..., 3) codes -> (..., 2) half-axis vectors (one of the two equivalent directions)."""
    code = np.asarray(code, np.float64)
    length = np.exp(np.clip(code[..., 0], -3.0, 6.0))
    angle = 0.5 * np.arctan2(code[..., 2], code[..., 1])
    return np.stack([length * np.cos(angle), length * np.sin(angle)], axis=-1)


def parallelogram(
    centre: NDArray[np.float64], along: NDArray[np.float64], across: NDArray[np.float64]
) -> NDArray[np.float32]:
    """The face outline centre +/- along +/- across, ordered like every quad in vision/."""
    corners = np.array(
        [
            centre - along - across,
            centre + along - across,
            centre + along + across,
            centre - along + across,
        ],
        np.float32,
    )
    return order_corners(corners)


# --------------------------------------------------------------------------- pre/post


def input_size(width: int, height: int, long_side: int = INPUT_LONG_SIDE) -> tuple[float, int, int]:
    """Scale and padded network input size (width, height) for a photo of width x height."""
    scale = long_side / max(width, height)
    net_w = _round_up(max(1, round(width * scale)))
    net_h = _round_up(max(1, round(height * scale)))
    return scale, net_w, net_h


def _round_up(value: int) -> int:
    return max(INPUT_MULTIPLE, -(-value // INPUT_MULTIPLE) * INPUT_MULTIPLE)


def preprocess(
    image_bgr: NDArray[np.uint8], long_side: int = INPUT_LONG_SIDE
) -> tuple[NDArray[np.float32], float]:
    """Network input (1, 3, H, W) float32 in 0..1 (BGR) and the scale applied to the photo.

    The photo is shrunk with area averaging and padded on the right and bottom by repeating
    its last row and column, so the padding has no edges of its own.
    """
    height, width = image_bgr.shape[:2]
    scale, net_w, net_h = input_size(width, height, long_side)
    new_w, new_h = max(1, round(width * scale)), max(1, round(height * scale))
    small = shrink(image_bgr, new_w, new_h)
    padded = cv2.copyMakeBorder(small, 0, net_h - new_h, 0, net_w - new_w, cv2.BORDER_REPLICATE)
    tensor = padded.transpose(2, 0, 1)[None].astype(np.float32) / np.float32(255)
    return np.ascontiguousarray(tensor), scale


def shrink(image: NDArray[np.uint8], width: int, height: int) -> NDArray[np.uint8]:
    """The image resized to width x height, averaging areas when it shrinks.

    OpenCV averages an exact halving far faster than an arbitrary ratio, so the image is
    halved while it is at least twice the size wanted, and only the rest is done in one go.
    """
    while image.shape[1] >= 2 * width and image.shape[0] >= 2 * height:
        half = (image.shape[1] // 2, image.shape[0] // 2)
        halved = cv2.resize(image[: 2 * half[1], : 2 * half[0]], half, interpolation=cv2.INTER_AREA)
        image = np.asarray(halved, np.uint8)
    shrinking = image.shape[1] > width or image.shape[0] > height
    interpolation = cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR
    return np.asarray(cv2.resize(image, (width, height), interpolation=interpolation), np.uint8)


def pad_to(tensor: NDArray[np.float32], rows: int, cols: int) -> NDArray[np.float32]:
    """A (3, h, w) network input grown to (3, rows, cols) by repeating its last row and
    column, as preprocess pads."""
    grow_rows, grow_cols = rows - tensor.shape[1], cols - tensor.shape[2]
    if grow_rows == 0 and grow_cols == 0:
        return tensor
    return np.pad(tensor, ((0, 0), (0, grow_rows), (0, grow_cols)), mode="edge")


def decode(
    output: NDArray[np.float32],
    scale: float,
    image_size: tuple[int, int],
    min_score: float = MIN_SCORE,
    edge_tolerance: float = EDGE_TOLERANCE,
    cut: list[FoundTile] | None = None,
) -> list[FoundTile]:
    """Network output (1, 9, h, w) -> faces in the photo's pixels, best first.

    Faces cut by the frame are dropped, or with ``cut``, added to it (clipped to the photo,
    best first) for the app to point at.

    Peaks are local maxima of the heatmap over 3x3 cells above ``min_score``. A face reaching
    past the photo's edge by more than ``edge_tolerance`` of its short side is cut by the frame
    and dropped; one that overshoots by less (a tile filling a close-up, or an outline a little
    too big) is clipped to the photo.
    """
    maps = np.asarray(output, np.float32)[0]
    heat = maps[HEATMAP]
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= min_score)
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-heat[ys, xs], kind="stable")
    ys, xs = ys[order], xs[order]
    width, height = image_size
    to_photo = STRIDE / scale
    centres = np.stack(
        [
            xs.astype(np.float32) + maps[OFFSET_X, ys, xs],
            ys.astype(np.float32) + maps[OFFSET_Y, ys, xs],
        ],
        axis=-1,
    ).astype(np.float64)
    along = decode_axes(maps[ALONG][:, ys, xs].T)
    across = decode_axes(maps[ACROSS][:, ys, xs].T)
    quads = parallelograms(centres * to_photo, along * to_photo, across * to_photo)
    kept = within_photo(quads, width, height, edge_tolerance)
    found = [
        FoundTile(corners=quads[index], score=float(heat[ys[index], xs[index]]))
        for index in np.flatnonzero(kept)
    ]
    if cut is not None:
        cut.extend(
            FoundTile(corners=quads[index], score=float(heat[ys[index], xs[index]]))
            for index in np.flatnonzero(~kept)
        )
    return _suppress_overlaps(found)


def parallelograms(
    centres: NDArray[np.float64], along: NDArray[np.float64], across: NDArray[np.float64]
) -> NDArray[np.float32]:
    """(N, 4, 2) outlines centre +/- along +/- across, each ordered as ``parallelogram``
    orders one (vision.geometry.order_corners), computed for all N at once."""
    corners = np.stack(
        [
            centres - along - across,
            centres + along - across,
            centres + along + across,
            centres - along + across,
        ],
        axis=1,
    ).astype(np.float32)
    return ordered_corners(corners)


def ordered_corners(quads: NDArray[np.float32]) -> NDArray[np.float32]:
    """vision.geometry.order_corners for (N, 4, 2) quads at once: clockwise on screen from the
    top-left corner, first edge long."""
    points = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    rows = np.arange(len(points))[:, None]
    centre = points.mean(axis=1, keepdims=True)
    angles = np.arctan2(points[..., 1] - centre[..., 1], points[..., 0] - centre[..., 0])
    clockwise = points[rows, np.argsort(angles, axis=1)]
    start = np.argmin(clockwise[..., 0] + clockwise[..., 1], axis=1)
    clockwise = clockwise[rows, (np.arange(4)[None, :] + start[:, None]) % 4]
    steps = (clockwise[:, [1, 2, 3, 0]] - clockwise).astype(np.float64)
    edges = np.sqrt((steps * steps).sum(axis=2))
    turn = (edges[:, 0] + edges[:, 2]) < (edges[:, 1] + edges[:, 3])
    clockwise = clockwise[rows, (np.arange(4)[None, :] + turn[:, None]) % 4]
    return np.ascontiguousarray(clockwise, dtype=np.float32)


def within_photo(
    quads: NDArray[np.float32], width: int, height: int, tolerance: float
) -> NDArray[np.bool_]:
    """Which of the (N, 4, 2) quads reach out of the photo by at most ``tolerance`` of their
    short side (the rest are cut by the frame); all are clipped to the photo in place."""
    short_side = np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2).min(axis=1)
    overshoot = np.maximum.reduce(
        [
            -quads[..., 0].min(axis=1),
            -quads[..., 1].min(axis=1),
            quads[..., 0].max(axis=1) - (width - 1),
            quads[..., 1].max(axis=1) - (height - 1),
            np.zeros(len(quads), np.float32),
        ]
    )
    limit = tolerance * short_side.astype(np.float64)
    kept = np.asarray(overshoot.astype(np.float64) <= limit, np.bool_)
    np.clip(quads[..., 0], 0, width - 1, out=quads[..., 0])
    np.clip(quads[..., 1], 0, height - 1, out=quads[..., 1])
    return kept


def _within_photo(
    quad: NDArray[np.float32], width: int, height: int, tolerance: float
) -> NDArray[np.float32] | None:
    """The quad clipped to the photo, or None if it reaches out by more than ``tolerance`` of
    its short side (a tile cut by the frame)."""
    short_side = float(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1).min())
    if _overshoot(quad, width, height) > tolerance * short_side:
        return None
    clipped = quad.copy()
    clipped[:, 0] = np.clip(clipped[:, 0], 0, width - 1)
    clipped[:, 1] = np.clip(clipped[:, 1], 0, height - 1)
    return clipped


def _overshoot(quad: NDArray[np.float32], width: int, height: int) -> float:
    """How far (pixels) the quad reaches outside the photo; 0 when it is inside."""
    return float(
        max(
            -quad[:, 0].min(),
            -quad[:, 1].min(),
            quad[:, 0].max() - (width - 1),
            quad[:, 1].max() - (height - 1),
            0.0,
        )
    )


def _suppress_overlaps(found: list[FoundTile], limit: float = 0.5) -> list[FoundTile]:
    """Drop a weaker face that is mostly the same place as a stronger one (one tile, two
    peaks); ``found`` is ordered best first. Outlines spanning two tiles are left to the
    pipeline, which ranks them by what the reader says too: by the heatmap alone, a real
    tile could be dropped for a stronger straddling peak."""
    kept_at = same_place_suppressed([face.corners for face in found], limit, covered_limit=1.0)
    return [found[index] for index in kept_at]


def same_place_suppressed(
    outlines: Sequence[NDArray[np.float32]],
    limit: float = 0.5,
    covered_limit: float = COVERED_LIMIT,
) -> list[int]:
    """Indices of the outlines (ordered best first) kept when each one lying in the same place
    as better kept ones is dropped: its centre inside the middle ``limit`` of a better
    outline, the two overlapping by more than OVERLAP_LIMIT, or more than COVERED_LIMIT of
    it lying on better outlines (one spanning the ends of two touching tiles; more than
    ``covered_limit``)."""
    # Outlines whose bounding boxes do not meet cannot overlap, nor hold each other's centre:
    # only the others meeting a candidate's box are tested, which keeps big hands and tables
    # quick (the boxes are compared all at once).
    if not outlines:
        return []
    corners = np.stack([np.asarray(quad, np.float64).reshape(4, 2) for quad in outlines])
    lows, highs = corners.min(axis=1), corners.max(axis=1)
    kept: list[int] = []
    for index, candidate in enumerate(outlines):
        kept_at = np.asarray(kept, np.intp)
        low, high = lows[index], highs[index]
        meets = np.all(low <= highs[kept_at], axis=1) & np.all(lows[kept_at] <= high, axis=1)
        near = [int(other) for other in kept_at[meets]]
        centre = candidate.mean(axis=0)
        if any(
            _inside_shrunk(centre, outlines[other], limit)
            or outline_iou(candidate, outlines[other]) > OVERLAP_LIMIT
            for other in near
        ):
            continue
        # The share covered is at most 1, so a limit of 1 or more never drops an outline.
        if (
            covered_limit < 1.0
            and covered_share(candidate, [outlines[o] for o in near]) > covered_limit
        ):
            continue
        kept.append(index)
    return kept


def long_side(corners: NDArray[np.float32]) -> float:
    """The longest edge of an outline, in its own pixels."""
    quad = np.asarray(corners, np.float64).reshape(4, 2)
    return float(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1).max())


def wants_fine_look(candidates: Sequence[FoundTile], scale: float) -> bool:
    """Whether the first look (at ``scale`` = input pixels per photo pixel) saw enough small
    faces, believed or not, to look at the photo again at FINE_LOOK_SIDE."""
    small = sum(
        1
        for face in candidates
        if face.score >= FINE_LOOK_HINT_SCORE and long_side(face.corners) * scale < SMALL_FACE_SIDE
    )
    return small >= SMALL_FACES_FOR_FINE_LOOK


def merged_looks(
    first: Sequence[FoundTile], fine: Sequence[FoundTile], scale: float
) -> list[FoundTile]:
    """The faces of two looks at one photo, best first, each place outlined once: where both
    looks found a face the better scored outline stands. Of the fine look's faces only the
    small ones count (at most twice SMALL_FACE_SIDE at the first look's ``scale``): the fine
    look is there for them, and a big tile seen three times larger than the finder was
    trained on is best outlined by the first look."""
    small = [face for face in fine if long_side(face.corners) * scale < 2 * SMALL_FACE_SIDE]
    ranked = sorted([*first, *small], key=lambda face: -face.score)
    kept = same_place_suppressed([face.corners for face in ranked], covered_limit=1.0)
    return [ranked[index] for index in kept]


def _inside_shrunk(point: NDArray[np.float32], quad: NDArray[np.float32], factor: float) -> bool:
    middle = quad.mean(axis=0)
    return contains(middle + (quad - middle) * factor, point)


def with_border(
    image_bgr: NDArray[np.uint8], share: float = BORDER_SHARE
) -> tuple[NDArray[np.uint8], int]:
    """The photo framed by a plain border (``share`` of its long side on every side), in a
    grey that stands out from the photo's own edge, and the border's width."""
    height, width = image_bgr.shape[:2]
    pad = max(1, round(share * max(height, width)))
    edge = np.concatenate([image_bgr[0], image_bgr[-1], image_bgr[:, 0], image_bgr[:, -1]]).astype(
        np.float32
    )
    grey = 40 if float(np.median(edge.mean(axis=1))) > 110 else 200
    framed = cv2.copyMakeBorder(
        image_bgr, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(grey, grey, grey)
    )
    return np.asarray(framed, np.uint8), pad


def inside_original(
    found: list[FoundTile], pad: int, width: int, height: int, tolerance: float = EDGE_TOLERANCE
) -> list[FoundTile]:
    """Faces found in the framed photo, moved back into the photo; faces lying mostly on the
    border (more than ``tolerance`` of their short side outside the photo) are dropped."""
    kept: list[FoundTile] = []
    for face in found:
        quad = _within_photo(face.corners - np.float32(pad), width, height, tolerance)
        if quad is not None:
            kept.append(FoundTile(corners=quad, score=face.score))
    return kept


def second_look_window(
    corners: NDArray[np.float32], width: int, height: int, zoom: float = SECOND_LOOK_ZOOM
) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of the square ``zoom`` times the face's long side around its
    middle, clipped to the photo."""
    quad = np.asarray(corners, np.float64).reshape(4, 2)
    half = zoom * float(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1).max()) / 2
    middle_x, middle_y = quad.mean(axis=0)
    left, top = max(0, int(middle_x - half)), max(0, int(middle_y - half))
    right, bottom = min(width, int(middle_x + half)), min(height, int(middle_y + half))
    return left, top, right, bottom


def best_match(
    first: FoundTile, again: Sequence[FoundTile], min_iou: float = SECOND_LOOK_MATCH
) -> FoundTile:
    """The second look's face overlapping the first outline most (IoU above ``min_iou``), or
    the first outline when none does."""
    best, best_iou = first, min_iou
    for face in again:
        overlap = outline_iou(face.corners, first.corners)
        if overlap > best_iou:
            best, best_iou = face, overlap
    return best
