"""Fit a found tile's outline to its face with the outline fitter ONNX model.

    fitter = OutlineFitter()                 # models/outline-fitter.onnx
    fitted = fitter.fit(image_bgr, quads)    # one (4, 2) outline per quad, same order

The tile finder outlines each face as a parallelogram around its centre. Seen from low across
the table a face is a trapezoid with its thick side showing below it, and the finder's
outline sits turned or loose on it, so the reader's crop loses a column of pips. The fitter
looks at the neighbourhood of an outline (CONTEXT_ALONG x CONTEXT_ACROSS of it, laid square)
and gives the face's own four corners there.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.geometry import order_corners
from vision.session import open_session

DEFAULT_FITTER_MODEL = Path(__file__).resolve().parent.parent / "models" / "outline-fitter.onnx"
CONTEXT_SIZE = 96
CONTEXT_ALONG = 1.5
CONTEXT_ACROSS = 3.0
"""The fitter sees the outline grown about its middle by these factors along and across the
tile (a face is about twice as long as wide, so the neighbourhood is about square), warped
to CONTEXT_SIZE pixels square: room for a face the outline sits turned or short on."""

FIT_ROUNDS = 3
"""Each outline is fitted, then fitted again from where the round before put it (a view
centred on the face shows it whole). Chosen on rendered tuning scenes (seeds 8,700,000 on)
among one to four rounds; see models/MODEL_CARD.md."""


def context_quad(quad: NDArray[np.float32]) -> NDArray[np.float32]:
    """The neighbourhood the fitter sees around ``quad`` (corners in the same order)."""
    corners = np.asarray(quad, np.float32).reshape(4, 2)
    middle = corners.mean(axis=0)
    along = ((corners[1] - corners[0]) + (corners[2] - corners[3])) / 2
    across = ((corners[3] - corners[0]) + (corners[2] - corners[1])) / 2
    half_along = along * (CONTEXT_ALONG / 2)
    half_across = across * (CONTEXT_ACROSS / 2)
    return np.array(
        [
            middle - half_along - half_across,
            middle + half_along - half_across,
            middle + half_along + half_across,
            middle - half_along + half_across,
        ],
        np.float32,
    )


class Pyramid:
    """The photo halved again and again (cv2.pyrDown), each level made when first asked for:
    a view is cut from the level where its neighbourhood is at most MAX_SHRINK times the view,
    so no pip is lost between the samples of the warp, and a photo's levels serve all of its
    views in every round."""

    def __init__(self, image_bgr: NDArray[np.uint8]) -> None:
        self._levels = [image_bgr]

    def level(self, index: int) -> NDArray[np.uint8]:
        """The photo halved ``index`` times."""
        while len(self._levels) <= index:
            self._levels.append(np.asarray(cv2.pyrDown(self._levels[-1]), np.uint8))
        return self._levels[index]


MAX_SHRINK = 1.5
MAX_LEVEL = 6
_VIEW = np.array(
    [[0, 0], [CONTEXT_SIZE, 0], [CONTEXT_SIZE, CONTEXT_SIZE], [0, CONTEXT_SIZE]], np.float32
)


def context_crops(
    image_bgr: NDArray[np.uint8] | Pyramid, quads: list[NDArray[np.float32]]
) -> NDArray[np.uint8]:
    """(N, CONTEXT_SIZE, CONTEXT_SIZE, 3) uint8: each outline's neighbourhood laid square."""
    pyramid = image_bgr if isinstance(image_bgr, Pyramid) else Pyramid(image_bgr)
    views = np.zeros((len(quads), CONTEXT_SIZE, CONTEXT_SIZE, 3), np.uint8)
    for index, quad in enumerate(quads):
        corners = context_quad(quad)
        longest = float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).max())
        shrink = longest / CONTEXT_SIZE
        level = 0
        if shrink > MAX_SHRINK:
            level = min(MAX_LEVEL, math.ceil(math.log2(shrink / MAX_SHRINK)))
        transform = cv2.getPerspectiveTransform(corners / np.float32(2**level), _VIEW)
        views[index] = cv2.warpPerspective(
            pyramid.level(level),
            transform,
            (CONTEXT_SIZE, CONTEXT_SIZE),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
    return views


def _square_to_context(quad: NDArray[np.float32]) -> NDArray[np.float64]:
    """The transform from the unit square (the fitter's coordinates) to the photo."""
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    return np.asarray(cv2.getPerspectiveTransform(unit, context_quad(quad)), np.float64)


def to_context(quad: NDArray[np.float32], points: NDArray[np.float32]) -> NDArray[np.float32]:
    """Photo points in the fitter's coordinates around ``quad`` (0..1 across its view)."""
    inverse = np.asarray(np.linalg.inv(_square_to_context(quad)), np.float64)
    return _transformed(inverse, points)


def from_context(quad: NDArray[np.float32], points: NDArray[np.float32]) -> NDArray[np.float32]:
    """The fitter's coordinates around ``quad`` as photo points."""
    return _transformed(_square_to_context(quad), points)


def _transformed(matrix: NDArray[np.float64], points: NDArray[np.float32]) -> NDArray[np.float32]:
    flat = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return np.asarray(cv2.perspectiveTransform(flat, matrix).reshape(-1, 2), np.float32)


def preprocess_contexts(crops: NDArray[np.uint8]) -> NDArray[np.float32]:
    """Model input: float32 (N, 3, CONTEXT_SIZE, CONTEXT_SIZE) in 0..1, BGR channel order."""
    return np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32) / np.float32(255)


def fitted_outline(
    quad: NDArray[np.float32], predicted: NDArray[np.float32]
) -> NDArray[np.float32]:
    """The face's outline in the photo from the fitter's four corners around ``quad``, in the
    pipeline's corner order; ``quad`` itself when the four make no convex outline."""
    corners = from_context(quad, np.asarray(predicted, np.float32).reshape(4, 2))
    ordered = order_corners(corners)
    contour = ordered.reshape(-1, 1, 2)
    if not cv2.isContourConvex(contour) or cv2.contourArea(contour) < 1.0:
        return np.asarray(quad, np.float32)
    return ordered


class OutlineFitter:
    """Fits outlines to faces: one batched model call per round for all of a photo's outlines."""

    def __init__(
        self, model_path: Path = DEFAULT_FITTER_MODEL, threads: int = 1, rounds: int = FIT_ROUNDS
    ) -> None:
        self._session = open_session(model_path, threads, "outline fitter")
        self._input_name = self._session.get_inputs()[0].name
        self.rounds = rounds

    def fit(
        self, image_bgr: NDArray[np.uint8], quads: list[NDArray[np.float32]]
    ) -> list[NDArray[np.float32]]:
        """Each outline fitted to the face it lies on (``rounds`` model calls)."""
        pyramid = Pyramid(image_bgr)
        for _ in range(self.rounds):
            quads = self.fit_once(pyramid, quads)
        return quads

    def fit_once(
        self, image_bgr: NDArray[np.uint8] | Pyramid, quads: list[NDArray[np.float32]]
    ) -> list[NDArray[np.float32]]:
        """Each outline moved to where the model sees the face's corners, in one call."""
        if not quads:
            return []
        inputs = preprocess_contexts(context_crops(image_bgr, quads))
        (corners,) = self._session.run(None, {self._input_name: inputs})
        predicted = np.asarray(corners, np.float32).reshape(len(quads), 4, 2)
        return [fitted_outline(quad, points) for quad, points in zip(quads, predicted, strict=True)]
