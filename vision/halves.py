"""Read the pip counts of canonical tile crops with the half-reader ONNX model.

    reader = HalfReader()                    # models/halves.onnx, one intra-op thread
    reads = reader.read(crops)               # crops: (N, 64, 128, 3) uint8 BGR
    reads[0].pips, reads[0].confidence, reads[0].is_tile
    FaceDownCheck().face_up(crops)           # models/face-down.onnx: does a crop show a face?

The model classifies one 64x64 half into 0..18 pips or "not a face-up half". Each crop is cut
at its divider (x = 64) and the right half is turned 180 degrees, so every half reaches the
model with the divider on its right edge. The exported graph already divides its logits by the
calibration temperature, so a softmax of its output is a calibrated probability.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vision.session import open_session

DEFAULT_HALF_MODEL = Path(__file__).resolve().parent.parent / "models" / "halves-int8.onnx"
DEFAULT_FACE_DOWN_MODEL = Path(__file__).resolve().parent.parent / "models" / "face-down-int8.onnx"
"""Both as trained (models/halves.onnx, models/face-down.onnx) in 8-bit integers
(training.quantize)."""
MAX_PIPS = 18
NOT_A_HALF = MAX_PIPS + 1
NUM_CLASSES = MAX_PIPS + 2
HALF_SIZE = 64
CROP_SHAPE = (HALF_SIZE, 2 * HALF_SIZE, 3)


@dataclass(frozen=True)
class TileRead:
    """What the reader makes of one crop."""

    pips: tuple[int, int]  # larger first
    confidence: float  # calibrated probability that both halves are read right
    is_tile: float  # probability that the crop is a face-up domino at all
    alternatives: tuple[tuple[tuple[int, int], float], ...] = ()
    """Other tiles the crop may show, most probable first: (pips larger first, probability)."""
    halves: tuple[int, int] | None = None
    """The counts as read on the crop's first (left) half and its second, where known."""


def split_halves(crops: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """(N, 64, 128, 3) crops -> (2N, 64, 64, 3) halves, left then right (turned 180 degrees)."""
    if not isinstance(crops, np.ndarray) or crops.dtype != np.uint8:
        raise ValueError("crops must be a uint8 numpy array")
    if crops.ndim != 4 or crops.shape[1:] != CROP_SHAPE:
        raise ValueError(f"crops must have shape (N, 64, 128, 3), got {crops.shape}")
    halves = np.empty((2 * len(crops), HALF_SIZE, HALF_SIZE, 3), np.uint8)
    halves[0::2] = crops[:, :, :HALF_SIZE]
    halves[1::2] = crops[:, ::-1, : HALF_SIZE - 1 : -1]
    return halves


def preprocess_halves(crops: NDArray[np.uint8]) -> NDArray[np.float32]:
    """Model input for N crops: float32 (2N, 3, 64, 64) in 0..1, BGR channel order."""
    halves = split_halves(crops)
    return np.ascontiguousarray(halves.transpose(0, 3, 1, 2), dtype=np.float32) / np.float32(255)


def softmax(logits: NDArray[np.float32]) -> NDArray[np.float64]:
    """Row-wise softmax, stable for large logits."""
    shifted = logits.astype(np.float64) - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    return np.asarray(exp / exp.sum(axis=1, keepdims=True), np.float64)


TRAINED_SHARE_UP_TO_12 = 0.94
"""Share of training halves with 0..12 pips (uniform within 0..12 and within 13..18): the
reader's probabilities carry this prior, which postprocess divides out to weigh set sizes."""

SET_SIZE_PRIOR = {12: 0.9, MAX_PIPS: 0.1}
"""When the set is not known: most tables play double-12 (or smaller); double-15 and -18 sets
are the exception, so a photo is read as one only on clear evidence."""


def _training_prior() -> NDArray[np.float64]:
    prior = np.empty(MAX_PIPS + 1, np.float64)
    prior[:13] = TRAINED_SHARE_UP_TO_12 / 13
    prior[13:] = (1 - TRAINED_SHARE_UP_TO_12) / (MAX_PIPS - 12)
    return prior


def likely_set_max(pip_probs: NDArray[np.float64]) -> int:
    """The most probable highest pip count of the set, given every half in one photo.

    ``pip_probs`` (halves, 19) are P(count | face-up half). Each candidate set size makes every
    count up to its maximum equally likely; the halves' likelihoods (the reader's probabilities
    over its training prior) are multiplied across the photo.
    """
    if len(pip_probs) == 0:
        return min(SET_SIZE_PRIOR)
    likelihood = pip_probs / _training_prior()
    best, best_score = min(SET_SIZE_PRIOR), -math.inf
    for set_max, prior in SET_SIZE_PRIOR.items():
        per_half = likelihood[:, : set_max + 1].sum(axis=1) / (set_max + 1)
        score = math.log(prior) + float(np.log(np.maximum(per_half, 1e-300)).sum())
        if score > best_score:
            best, best_score = set_max, score
    return best


def postprocess(logits: NDArray[np.float32], max_pips: int | None = None) -> list[TileRead]:
    """Calibrated logits (2N, 20), halves in preprocess order -> one TileRead per crop.

    Counts above ``max_pips`` (the set's highest half, when the caller knows it) are ruled out;
    without it, the photo's halves together decide between a double-12 and a bigger set.
    """
    if logits.ndim != 2 or logits.shape[1] != NUM_CLASSES or len(logits) % 2:
        raise ValueError(f"logits must have shape (2N, {NUM_CLASSES}), got {logits.shape}")
    if max_pips is not None and not 0 <= max_pips <= MAX_PIPS:
        raise ValueError(f"max_pips must be within 0..{MAX_PIPS}")
    probs = softmax(logits)
    face_up = 1.0 - probs[:, NOT_A_HALF]
    pip_probs = probs[:, :NOT_A_HALF].copy()
    if max_pips is None:
        given_face = pip_probs / np.maximum(face_up, 1e-12)[:, None]
        max_pips = likely_set_max(given_face[face_up >= 0.5])
    if max_pips < MAX_PIPS:
        allowed = pip_probs[:, : max_pips + 1].sum(axis=1)
        pip_probs[:, max_pips + 1 :] = 0.0
        pip_probs *= (face_up / np.maximum(allowed, 1e-12))[:, None]
    counts = pip_probs.argmax(axis=1)
    best = pip_probs[np.arange(len(probs)), counts]
    reads: list[TileRead] = []
    for tile in range(len(logits) // 2):
        first, second = 2 * tile, 2 * tile + 1
        a, b = int(counts[first]), int(counts[second])
        pips = (max(a, b), min(a, b))
        reads.append(
            TileRead(
                pips=pips,
                confidence=float(best[first] * best[second]),
                is_tile=float(face_up[first] * face_up[second]),
                alternatives=other_readings(pip_probs[first], pip_probs[second], pips),
                halves=(a, b),
            )
        )
    return reads


OTHER_COUNTS = 3
"""Each half's most probable counts combined into a tile's other readings: a misread half is
nearly always the reader's second or third choice."""


def other_readings(
    first: NDArray[np.float64], second: NDArray[np.float64], read: tuple[int, int]
) -> tuple[tuple[tuple[int, int], float], ...]:
    """The tiles other than ``read`` that two halves' count probabilities may show, most
    probable first. A tile's probability adds up both ways round (5 on the first half and 3
    on the second, or 3 and 5)."""
    tops_first = np.argsort(-first, kind="stable")[:OTHER_COUNTS]
    tops_second = np.argsort(-second, kind="stable")[:OTHER_COUNTS]
    likely: dict[tuple[int, int], float] = {}
    for a in tops_first:
        for b in tops_second:
            pips = (int(max(a, b)), int(min(a, b)))
            if pips != read:
                likely[pips] = likely.get(pips, 0.0) + float(first[a] * second[b])
    return tuple(sorted(likely.items(), key=lambda item: (-item[1], item[0])))


def shows_a_face(logits: NDArray[np.float32]) -> NDArray[np.float64]:
    """Calibrated logits (2N, 20), halves in preprocess order -> (N,): how likely each crop is
    to show a tile's face, by what a face shows and a back does not.

    A face shows two face-up halves, or at least one half with pips on it: the other half
    may be blank, and a blank half looks much like a plain stretch of back. A face-down tile
    whose maker's name covers one end shows neither: its plain end passes for a blank half,
    but the printed end is no half at all. The larger of the three probabilities is taken.
    """
    if logits.ndim != 2 or logits.shape[1] != NUM_CLASSES or len(logits) % 2:
        raise ValueError(f"logits must have shape (2N, {NUM_CLASSES}), got {logits.shape}")
    probs = softmax(logits)
    face_up = 1.0 - probs[:, NOT_A_HALF]
    with_pips = face_up - probs[:, 0]
    both_face_up = face_up[0::2] * face_up[1::2]
    one_with_pips = np.maximum(with_pips[0::2], with_pips[1::2])
    return np.asarray(np.maximum(both_face_up, one_with_pips), np.float64)


class HalfReader:
    """Owns the ONNX Runtime session of the half reader."""

    def __init__(
        self, model_path: Path = DEFAULT_HALF_MODEL, threads: int = 1, what: str = "half-reader"
    ) -> None:
        self._session = open_session(model_path, threads, what)
        self._input = self._session.get_inputs()[0].name

    def logits(self, crops: NDArray[np.uint8]) -> NDArray[np.float32]:
        """Calibrated logits (2N, 20) of the crops' halves."""
        if len(crops) == 0:
            return np.zeros((0, NUM_CLASSES), np.float32)
        batch = preprocess_halves(crops)
        (output,) = self._session.run(None, {self._input: batch})
        return np.asarray(output, np.float32)

    def read(self, crops: NDArray[np.uint8], max_pips: int | None = None) -> list[TileRead]:
        """Read every crop in one model call (see postprocess for ``max_pips``)."""
        if isinstance(crops, np.ndarray) and crops.ndim == 4 and len(crops) == 0:
            return []
        return postprocess(self.logits(crops), max_pips)


class FaceDownCheck:
    """A second opinion on whether a crop is a face-up tile at all.

    The half reader never saw a face-down tile with a maker's name printed on its back, and
    reads the letters as pips. The check is a half reader trained like it but with such backs
    among its face-down tiles (models/face-down.onnx). Only what it makes of each half is
    used (no face, a blank, or pips), not its counts: those are less sure on dense colour sets
    than the reader's own.
    """

    def __init__(self, model_path: Path = DEFAULT_FACE_DOWN_MODEL, threads: int = 1) -> None:
        self._reader = HalfReader(model_path, threads, what="face-down check")

    def face_up(self, crops: NDArray[np.uint8]) -> NDArray[np.float64]:
        """(N,) how likely each crop is to show a tile's face (shows_a_face)."""
        if isinstance(crops, np.ndarray) and crops.ndim == 4 and len(crops) == 0:
            return np.zeros(0, np.float64)
        return shows_a_face(self._reader.logits(crops))
