"""Find domino faces in a photo with the learned tile finder (models/finder-int8.onnx).

    finder = TileFinder()                    # owns the onnxruntime session
    found = finder.find(image_bgr)           # list[FoundTile], corners in image pixels

The network's input and output are explained, and handled, in :mod:`vision.finding`; this
module runs it. A photo in which the first look sees many small faces (a table seen whole) is
looked at again at three times the size (FINE_LOOK_SIDE). Each face found is then looked at a
second time, on a zoomed crop of the full photo, and outlined and scored again there
(SECOND_LOOK_ZOOM).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vision.finding import (
    FINE_LOOK_HINT_SCORE,
    FINE_LOOK_SIDE,
    INPUT_LONG_SIDE,
    INPUT_MULTIPLE,
    MIN_SCORE,
    SECOND_LOOK_MIN_SCORE,
    SECOND_LOOK_SIDE,
    STRIDE,
    FoundTile,
    best_match,
    decode,
    inside_original,
    merged_looks,
    pad_to,
    preprocess,
    second_look_window,
    wants_fine_look,
    with_border,
)
from vision.session import open_session

MODELS = Path(__file__).resolve().parent.parent / "models"
DEFAULT_FINDER_MODEL = MODELS / "finder-int8.onnx"
"""The finder as trained (models/finder.onnx) in 8-bit integers (training.quantize): as
accurate, and a third quicker on a CPU."""
DEFAULT_CLOSE_UP_MODEL = MODELS / "finder-close.onnx"
"""The finder trained with close-ups of one to three tiles in its mix (vision.pipeline
CLOSE_UP_TILES says when it is used)."""

__all__ = ["DEFAULT_CLOSE_UP_MODEL", "DEFAULT_FINDER_MODEL", "MIN_SCORE", "FoundTile", "TileFinder"]


# --------------------------------------------------------------------------- the model


class TileFinder:
    """Runs the finder network; fails at construction if the model file is missing."""

    def __init__(
        self,
        model_path: Path = DEFAULT_FINDER_MODEL,
        threads: int = 1,
        second_look: bool = True,
        fine_look: bool = True,
    ) -> None:
        self._session = open_session(model_path, threads, "tile finder")
        model_input = self._session.get_inputs()[0]
        self._input = model_input.name
        self._batches = model_input.shape[0] != 1
        """False for a model exported with its batch fixed to 1 (before training.dynamic_batch):
        then the second look runs one crop at a time."""
        self.second_look = second_look
        self.fine_look = fine_look

    def find(
        self,
        image_bgr: NDArray[np.uint8],
        min_score: float = MIN_SCORE,
        cut: list[FoundTile] | None = None,
        *,
        whole_table: bool = False,
    ) -> list[FoundTile]:
        """Every face-up tile in the photo, best first. With ``cut``, the faces the first look
        found cut by the photo's edge are added to it (clipped to the photo).

        A photo in which nothing is found is looked at once more with a plain border around
        it: a tile photographed so close that it fills the frame then looks like a tile on a
        table, which is what the network knows.

        With ``fine_look`` (the default), a photo in which the first look sees many small faces
        is looked at again at FINE_LOOK_SIDE and the two looks' faces merged. A photo of the
        ``whole_table`` always is: its tiles are small by design, and where they are smallest
        (a table seen from afar, dark tiles on a busy cloth) the first look sees none at all.

        With ``second_look`` (the default), each face is then outlined and scored again on a
        zoomed crop of the photo (SECOND_LOOK_ZOOM).
        """
        height, width = image_bgr.shape[:2]
        output, scale = self._look(image_bgr, INPUT_LONG_SIDE)
        found = decode(output, scale, (width, height), min_score, cut=cut)
        if self.fine_look and max(height, width) > INPUT_LONG_SIDE:
            wanted = whole_table or wants_fine_look(
                decode(output, scale, (width, height), FINE_LOOK_HINT_SCORE), scale
            )
            if wanted:
                fine_side = min(FINE_LOOK_SIDE, max(height, width))
                found = merged_looks(found, self._find(image_bgr, min_score, fine_side), scale)
        if not found:
            framed, pad = with_border(image_bgr)
            found = inside_original(self._find(framed, min_score), pad, width, height)
        if not self.second_look:
            return found
        again = self._look_again(image_bgr, found)
        return sorted(again, key=lambda face: -face.score)

    def _look_again(
        self, image_bgr: NDArray[np.uint8], found: Sequence[FoundTile]
    ) -> list[FoundTile]:
        """Each face outlined again on its zoomed crop; all crops go through the network in one
        batch, each padded (repeating its last row and column) to the largest crop's size."""
        height, width = image_bgr.shape[:2]
        looks: list[tuple[int, NDArray[np.float32], float, tuple[int, int, int, int]]] = []
        for index, face in enumerate(found):
            left, top, right, bottom = second_look_window(face.corners, width, height)
            if min(right - left, bottom - top) < INPUT_MULTIPLE:
                continue
            crop = image_bgr[top:bottom, left:right]
            tensor, scale = preprocess(crop, SECOND_LOOK_SIDE)
            looks.append((index, tensor, scale, (left, top, right - left, bottom - top)))
        if not looks:
            return list(found)
        outputs = self._run_batch([tensor for _, tensor, _, _ in looks])
        again = list(found)
        for (index, _, scale, window), output in zip(looks, outputs, strict=True):
            left, top, crop_w, crop_h = window
            offset = np.array([left, top], np.float32)
            faces = decode(output, scale, (crop_w, crop_h), SECOND_LOOK_MIN_SCORE)
            moved = [FoundTile(corners=face.corners + offset, score=face.score) for face in faces]
            again[index] = best_match(found[index], moved)
        return again

    def _run_batch(self, tensors: Sequence[NDArray[np.float32]]) -> list[NDArray[np.float32]]:
        """The network's maps for each (1, 3, h, w) tensor, from one call on a padded batch
        when the model allows it."""
        if not self._batches:
            return [
                np.asarray(self._session.run(None, {self._input: tensor})[0], np.float32)
                for tensor in tensors
            ]
        rows = max(tensor.shape[2] for tensor in tensors)
        cols = max(tensor.shape[3] for tensor in tensors)
        batch = np.stack([pad_to(tensor[0], rows, cols) for tensor in tensors])
        (output,) = self._session.run(None, {self._input: batch})
        maps = np.asarray(output, np.float32)
        return [
            maps[index : index + 1, :, : tensor.shape[2] // STRIDE, : tensor.shape[3] // STRIDE]
            for index, tensor in enumerate(tensors)
        ]

    def _find(
        self,
        image_bgr: NDArray[np.uint8],
        min_score: float,
        long_side: int = INPUT_LONG_SIDE,
        cut: list[FoundTile] | None = None,
    ) -> list[FoundTile]:
        output, scale = self._look(image_bgr, long_side)
        height, width = image_bgr.shape[:2]
        return decode(output, scale, (width, height), min_score, cut=cut)

    def _look(
        self, image_bgr: NDArray[np.uint8], long_side: int
    ) -> tuple[NDArray[np.float32], float]:
        """The network's maps for the photo shrunk to ``long_side``, and that scale."""
        tensor, scale = preprocess(image_bgr, long_side)
        (output,) = self._session.run(None, {self._input: tensor})
        return np.asarray(output, np.float32), scale
