"""The six models a hand reader uses, loaded together once.

    models = ModelSet.load()                       # every committed model, or FileNotFoundError
    models = ModelSet.load(ModelPaths(close_up_finder=None))   # without the close-up look
    reader = HandReader(models)

Two do the work: the tile finder outlines every face-up tile, the half reader counts the
pips on each half. Three help where those are weak and may be left out (None): the close-up
finder looks again at a photo with few tiles, the outline fitter fits each outline to its
face before it is cut out, and the face-down check keeps printed backs from counting. The
marker check serves table photos only: where it is clear whether a marker lies beside a
train, it answers for the blob look (vision.markers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from vision.finder import DEFAULT_CLOSE_UP_MODEL, DEFAULT_FINDER_MODEL
from vision.fitting import DEFAULT_FITTER_MODEL
from vision.halves import DEFAULT_FACE_DOWN_MODEL, DEFAULT_HALF_MODEL
from vision.markers import DEFAULT_MARKER_MODEL, MarkerCheckLike


class FoundTileLike(Protocol):
    """What the pipeline needs from one found tile (vision.finding.FoundTile)."""

    @property
    def corners(self) -> NDArray[np.float32]: ...

    @property
    def score(self) -> float: ...


class TileFinderLike(Protocol):
    """Outlines the face-up tiles in a BGR photo."""

    def find(self, image_bgr: NDArray[np.uint8]) -> Sequence[FoundTileLike]: ...


class TileReadLike(Protocol):
    """What the pipeline needs from one read (vision.halves.TileRead)."""

    @property
    def pips(self) -> tuple[int, int]: ...

    @property
    def confidence(self) -> float: ...

    @property
    def is_tile(self) -> float: ...

    @property
    def alternatives(self) -> Sequence[tuple[tuple[int, int], float]]: ...

    @property
    def halves(self) -> tuple[int, int] | None: ...


class HalfReaderLike(Protocol):
    """Reads a batch of canonical (N, 64, 128, 3) crops in one model call."""

    def read(
        self, crops: NDArray[np.uint8], max_pips: int | None = None
    ) -> Sequence[TileReadLike]: ...


class FaceDownCheckLike(Protocol):
    """Says how likely each crop is to show a tile's face (vision.halves.FaceDownCheck)."""

    def face_up(self, crops: NDArray[np.uint8]) -> NDArray[np.float64]: ...


class OutlineFitterLike(Protocol):
    """Fits outlines to the faces they lie on (vision.fitting.OutlineFitter)."""

    def fit(
        self, image_bgr: NDArray[np.uint8], quads: list[NDArray[np.float32]]
    ) -> list[NDArray[np.float32]]: ...


@dataclass(frozen=True)
class ModelPaths:
    """Where each model's ONNX file is; None leaves a helping model out."""

    tile_finder: Path = DEFAULT_FINDER_MODEL
    half_reader: Path = DEFAULT_HALF_MODEL
    close_up_finder: Path | None = DEFAULT_CLOSE_UP_MODEL
    face_down_check: Path | None = DEFAULT_FACE_DOWN_MODEL
    outline_fitter: Path | None = DEFAULT_FITTER_MODEL
    marker_check: Path | None = DEFAULT_MARKER_MODEL

    def missing(self) -> list[Path]:
        """The named files that are not there."""
        named = (
            self.tile_finder,
            self.half_reader,
            self.close_up_finder,
            self.face_down_check,
            self.outline_fitter,
            self.marker_check,
        )
        return [path for path in named if path is not None and not Path(path).is_file()]


@dataclass(frozen=True)
class ModelSet:
    """The loaded models of one hand reader; the helping ones may be None (not used)."""

    tile_finder: TileFinderLike
    half_reader: HalfReaderLike
    close_up_finder: TileFinderLike | None = None
    face_down_check: FaceDownCheckLike | None = None
    outline_fitter: OutlineFitterLike | None = None
    marker_check: MarkerCheckLike | None = None

    @classmethod
    def load(cls, paths: ModelPaths | None = None, threads: int = 1) -> ModelSet:
        """Every model ``paths`` names, opened now with ``threads`` inference threads each.

        Raises FileNotFoundError naming the first missing model, before any photo is read.
        """
        from vision.finder import TileFinder
        from vision.fitting import OutlineFitter
        from vision.halves import FaceDownCheck, HalfReader
        from vision.markers import MarkerCheck

        paths = paths if paths is not None else ModelPaths()
        return cls(
            tile_finder=TileFinder(paths.tile_finder, threads=threads),
            half_reader=HalfReader(paths.half_reader, threads=threads),
            close_up_finder=(
                None
                if paths.close_up_finder is None
                else TileFinder(paths.close_up_finder, threads=threads)
            ),
            face_down_check=(
                None
                if paths.face_down_check is None
                else FaceDownCheck(paths.face_down_check, threads=threads)
            ),
            outline_fitter=(
                None
                if paths.outline_fitter is None
                else OutlineFitter(paths.outline_fitter, threads=threads)
            ),
            marker_check=(
                None
                if paths.marker_check is None
                else MarkerCheck(paths.marker_check, threads=threads)
            ),
        )
