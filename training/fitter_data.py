"""Training data for the outline fitter: neighbourhoods of outlines and the face's own corners.

Each rendered scene (a mix weighted to low shots and leaning tiles, whose faces the finder's
parallelograms fit worst) is encoded as a JPEG as a phone would, outlined by the committed
tile finder exactly as the pipeline does, and each outline that lies on a listed tile (IoU >=
MATCH_IOU) gives one sample: the pipeline's context crop around it (vision.fitting) and the
tile's rendered face corners in the fitter's coordinates, in the order of the outline's own
corners. JITTERED more samples per tile start from the true face's bounding rectangle turned,
stretched and moved, as a finder might miss it. Chunks of scenes are cached in training/data.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from training.halves_data import DATA_DIR, cached_chunk, gather_seed_chunks
from training.synth import Scene, render_scene
from vision.finder import DEFAULT_FINDER_MODEL, TileFinder
from vision.fitting import context_crops, to_context
from vision.geometry import order_corners, outline_iou

# Bump when the samples change. 1: the committed fitter's data, views cut the reader's way
# (area-filtered regions). 2: views cut from a pyramid of the photo, as the pipeline cuts them.
DATA_VERSION = 2
TRAIN_FIRST_SEED = 13_000_000
VAL_FIRST_SEED = 13_900_000
MIX_PERIOD = 20
KIND_OF_SEED: dict[int, dict[str, bool]] = {
    **{share: {"low_view": True} for share in range(6)},
    **{share: {"leaning": True} for share in range(6, 9)},
    9: {"close_up": True},
    10: {"printed_backs": True},
    11: {"blank_halves": True},
    12: {"pale_table": True},
}
"""render_scene options by seed % MIX_PERIOD; the other seeds are usual scenes."""
SCENE_SIZES = ((1280, 960), (1600, 1200), (960, 1280))
MATCH_IOU = 0.25
JITTERED = 2

_finder: TileFinder | None = None


def _get_finder() -> TileFinder:
    global _finder
    if _finder is None:
        _finder = TileFinder(DEFAULT_FINDER_MODEL, threads=1)
    return _finder


def training_scene(seed: int) -> Scene:
    """The rendered scene of ``seed``, its kind and size drawn from the seed, as a phone's
    JPEG decoded again."""
    rng = np.random.default_rng([seed, 23])
    size = SCENE_SIZES[int(rng.integers(len(SCENE_SIZES)))]
    options = KIND_OF_SEED.get(seed % MIX_PERIOD, {})
    scene = render_scene(seed, size=size, n_tiles=(1, 12), **options)
    quality = int(rng.integers(75, 96))
    ok, encoded = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - OpenCV always encodes a uint8 BGR image
        raise RuntimeError("JPEG encoding failed")
    image = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return Scene(image=np.asarray(image, np.uint8), tiles=scene.tiles)


def matched_corners(quad: np.ndarray, face: np.ndarray) -> np.ndarray:
    """The face's corners in the fitter's coordinates around ``quad``, turned so that each
    lies nearest the outline corner of the same place (the fitter answers in the outline's
    own order)."""
    target = to_context(quad, face)
    outline = to_context(quad, np.asarray(quad, np.float32))
    shifts = [np.roll(target, -shift, axis=0) for shift in range(4)]
    costs = [float(np.linalg.norm(shifted - outline, axis=1).sum()) for shifted in shifts]
    return shifts[int(np.argmin(costs))]


def jittered_outline(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A parallelogram outline near ``face`` as a finder might give it: the face's bounding
    rectangle turned up to 12 degrees, stretched and moved."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(np.asarray(face, np.float32))
    w *= float(rng.uniform(0.85, 1.15))
    h *= float(rng.uniform(0.85, 1.2))
    angle += float(rng.uniform(-12.0, 12.0))
    shift = max(w, h) * 0.08
    cx += float(rng.uniform(-shift, shift))
    cy += float(rng.uniform(-shift, shift))
    box = cv2.boxPoints(((cx, cy), (w, h), angle))
    return order_corners(np.asarray(box, np.float32))


def scene_samples(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The context crops of one scene's outlines and their (4, 2) face corners."""
    scene = training_scene(seed)
    rng = np.random.default_rng([seed, 29])
    quads: list[np.ndarray] = []
    faces: list[np.ndarray] = []
    for found in _get_finder().find(scene.image):
        overlaps = [outline_iou(found.corners, tile.corners) for tile in scene.tiles]
        if overlaps and max(overlaps) >= MATCH_IOU:
            quads.append(np.asarray(found.corners, np.float32))
            faces.append(np.asarray(scene.tiles[int(np.argmax(overlaps))].corners, np.float32))
    for tile in scene.tiles:
        for _ in range(JITTERED):
            quads.append(jittered_outline(tile.corners, rng))
            faces.append(np.asarray(tile.corners, np.float32))
    if not quads:
        return np.zeros((0, 96, 96, 3), np.uint8), np.zeros((0, 4, 2), np.float32)
    targets = np.array(
        [matched_corners(quad, face) for quad, face in zip(quads, faces, strict=True)],
        np.float32,
    )
    return context_crops(scene.image, quads), targets


def _chunk_file(first_seed: int, count: int) -> Path:
    return DATA_DIR / f"fitter_v{DATA_VERSION}_{first_seed}_{count}.npz"


def _render_chunk(job: tuple[int, int]) -> Path:
    first_seed, count = job

    def render() -> tuple[np.ndarray, np.ndarray]:
        parts = [scene_samples(seed) for seed in range(first_seed, first_seed + count)]
        return np.concatenate([part[0] for part in parts]), np.concatenate(
            [part[1] for part in parts]
        )

    return cached_chunk(_chunk_file(first_seed, count), render)


def build_set(
    first_seed: int, scenes: int, workers: int = 2, chunk: int = 50
) -> tuple[np.ndarray, np.ndarray]:
    """Samples of ``scenes`` rendered scenes with seeds first_seed.. (cached per chunk)."""
    return gather_seed_chunks(
        _render_chunk, first_seed, scenes, chunk, workers, ("scenes", "samples")
    )
