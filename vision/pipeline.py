"""Read a hand from a photo: decode, find tiles, rectify, read halves in one batch, score."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from companion.rules import Rules, Tile, score_hand
from vision.decode import MAX_PIXELS, decode_photo
from vision.rectify import rectify_tiles
from vision.tiles import find_tiles
from vision.types import DetectedTile, HandReading

READ_LONG_SIDE = 2000
"""JPEGs are decoded at a reduced scale down to this long side: tiles stay far larger than
the 128-px crop the reader sees, and decoding a 12 MP photo in full costs more than the rest
of the pipeline."""

MIN_IS_TILE = 0.5
"""Crops the reader thinks are not face-up dominoes (backs, clutter) are dropped."""


class TileReadLike(Protocol):
    """What the pipeline needs from one read (vision.halves.TileRead)."""

    @property
    def pips(self) -> tuple[int, int]: ...

    @property
    def confidence(self) -> float: ...

    @property
    def is_tile(self) -> float: ...


class HalfReaderLike(Protocol):
    """Reads a batch of canonical (N, 64, 128, 3) crops in one model call."""

    def read(self, crops: NDArray[np.uint8]) -> Sequence[TileReadLike]: ...


class HandReader:
    """Reads hands from photo bytes; holds one model session for many photos."""

    def __init__(
        self,
        half_reader: HalfReaderLike | None = None,
        *,
        model_path: Path | None = None,
        threads: int = 1,
        max_pixels: int = MAX_PIXELS,
    ) -> None:
        self._half_reader = half_reader
        self._model_path = model_path
        self._threads = threads
        self._max_pixels = max_pixels

    @property
    def half_reader(self) -> HalfReaderLike:
        """The learned half reader, loaded on first use (fails fast if the model is missing)."""
        if self._half_reader is None:
            from vision.halves import DEFAULT_HALF_MODEL, HalfReader

            path = self._model_path if self._model_path is not None else DEFAULT_HALF_MODEL
            self._half_reader = HalfReader(path, threads=self._threads)
        return self._half_reader

    def read(self, data: bytes) -> HandReading:
        """Read every face-up tile in the photo. Raises PhotoError for unreadable bytes."""
        started = time.perf_counter()
        photo = decode_photo(data, max_pixels=self._max_pixels, min_long_side=READ_LONG_SIDE)
        quads = find_tiles(photo.pixels)
        tiles: list[DetectedTile] = []
        if quads:
            crops = rectify_tiles(photo.pixels, quads)
            reads = self.half_reader.read(crops)
            to_photo = 1.0 / photo.scale
            for quad, read in zip(quads, reads, strict=True):
                if read.is_tile < MIN_IS_TILE:
                    continue
                tiles.append(
                    DetectedTile(
                        pips=(max(read.pips), min(read.pips)),
                        confidence=float(np.clip(read.confidence * read.is_tile, 0.0, 1.0)),
                        corners=_photo_corners(quad, to_photo, photo.width, photo.height),
                    )
                )
        elapsed_ms = int(round((time.perf_counter() - started) * 1000))
        return HandReading(
            width=photo.width, height=photo.height, tiles=tuple(tiles), ms=elapsed_ms
        )


def _photo_corners(
    quad: NDArray[np.float32], to_photo: float, width: int, height: int
) -> tuple[tuple[int, int], ...]:
    scaled = np.asarray(quad, dtype=np.float64) * to_photo
    xs = np.clip(np.round(scaled[:, 0]), 0, width - 1).astype(int)
    ys = np.clip(np.round(scaled[:, 1]), 0, height - 1).astype(int)
    return tuple((int(x), int(y)) for x, y in zip(xs, ys, strict=True))


_default_reader: HandReader | None = None


def read_hand(data: bytes) -> HandReading:
    """Read a hand from photo bytes with the shared default reader."""
    global _default_reader
    if _default_reader is None:
        _default_reader = HandReader()
    return _default_reader.read(data)


def score_reading(reading: HandReading, blank_scoring: str = "pips") -> int:
    """The hand's points under the given blank rule, by the rules engine's own scoring."""
    rules = Rules.from_json({"blank_scoring": blank_scoring})
    tiles = [Tile(high, low) for high, low in reading.pip_pairs]
    return score_hand(tiles, rules).points
