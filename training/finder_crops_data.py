"""Reader training crops cut along the tile finder's own outlines on rendered scenes.

The reader only ever sees tiles as the finder outlines them: a little loose, a little turned,
sometimes cutting off the last row of pips. Crops rendered with random corner noise
(training/halves_data.py) miss the finder's particular habits, so these crops come from
whole rendered scenes (training.synth.render_scene), outlined by the finder the app runs
(vision.finder.DEFAULT_FINDER_MODEL, models/finder-int8.onnx since 2026-11-26) and cut by
the pipeline's own rectifier. Each found outline is labelled by the rendered tile it
overlaps (IoU >= MATCH_IOU), its two ends by which rendered half lies nearer; outlines that
overlap no tile (IoU < STRAY_IOU) are "not a half" on both ends, as the reader must learn to
turn down the finder's false finds. Chunks of scenes are cached like the other sets.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from training.halves_data import DATA_DIR, NOT_A_HALF, cached_chunk, gather_seed_chunks
from training.scenes_data import (
    COLOURED_BODY,
    MIX_PERIOD,
    is_low_view,
    printed_scene,
    render_class,
)
from training.synth import Scene, half_centres
from vision.finder import DEFAULT_FINDER_MODEL, TileFinder
from vision.geometry import outline_iou
from vision.rectify import rectify_tiles

# Bump when training.synth changes (the finder's own file is fingerprinted in each cache
# file's name, _finder_tag). 1: reader v5 (finder v1).
# 2: finder v3 and every fifth scene a close low shot (reader v6, not adopted: see
# models/MODEL_CARD.md). 3: finder v3, usual shots only, as reader v5 was made. 4: outlines
# after the finder's second look, as the pipeline cuts them. 5: finder v4, and of every
# twenty scenes one a close-up, two with printed backs, two with blank halves among colour
# dots and one with a leaning tile (issue 12's failing classes; still no low shots).
# 6 (use_coloured_bodies): as 5, and the scenes of scenes_data.COLOURED_BODY's seeds drawn in
# a set moulded in a strong colour, as scene data 6 draws them.
DATA_VERSION = 5
COLOURED_BODY_DATA_VERSION = 6
READER_LOW_VIEWS = False
# Which kind of scene each seed % MIX_PERIOD is (as the finder's MIX, other shares).
READER_MIX: dict[int, str] = {
    0: "close_up",
    1: "printed_backs",
    11: "printed_backs",
    2: "blank_halves",
    12: "blank_halves",
    3: "leaning",
}
MATCH_IOU = 0.5
STRAY_IOU = 0.2
SCENE_SIZES = ((1280, 960), (1600, 1200), (960, 1280))

_finder: TileFinder | None = None
_crop_finder: tuple[Path, bool] = (DEFAULT_FINDER_MODEL, True)
_coloured_bodies = False


def use_coloured_bodies(coloured: bool = True) -> None:
    """Draw the scenes of COLOURED_BODY's seeds in a set moulded in a strong colour from now on
    (data version 6); set before build_set, as use_finder."""
    global _coloured_bodies
    _coloured_bodies = coloured


def data_version() -> int:
    """The version of the crops rendered now (see use_coloured_bodies)."""
    return COLOURED_BODY_DATA_VERSION if _coloured_bodies else DATA_VERSION


def use_finder(model: Path, second_look: bool = True) -> None:
    """Cut the crops with another finder than the app's (for a reader meant to learn
    that finder's outlines); set before build_set, whose worker processes are forked."""
    global _finder, _crop_finder
    _finder, _crop_finder = None, (model, second_look)
    _finder_tag.cache_clear()


def _get_finder() -> TileFinder:
    global _finder
    if _finder is None:
        model, second_look = _crop_finder
        _finder = TileFinder(model, threads=1, second_look=second_look)
    return _finder


def training_scene(seed: int, low_views: bool = True, mix: bool = False) -> Scene:
    """The rendered scene of ``seed`` (its size drawn from SCENE_SIZES by the seed too; with
    ``low_views``, a close low shot as often as in the finder's scenes; with ``mix``, the
    failing classes of READER_MIX among the others)."""
    rng = np.random.default_rng([seed, 11])
    size = SCENE_SIZES[int(rng.integers(len(SCENE_SIZES)))]
    low_view = low_views and is_low_view(seed)
    if low_view:
        kind = "low_view"
    else:
        kind = READER_MIX.get(seed % MIX_PERIOD, "usual") if mix else "usual"
    coloured = _coloured_bodies and seed % MIX_PERIOD in COLOURED_BODY
    style = "coloured_body" if coloured else None
    return render_class(seed, kind, size=size, n_tiles=(1, 12), style=style)


def best_overlap(quad: np.ndarray, scene: Scene) -> tuple[int, float]:
    """The listed tile ``quad`` overlaps most and that IoU; (-1, 0.0) in an empty scene."""
    overlaps = [outline_iou(quad, tile.corners) for tile in scene.tiles]
    if not overlaps:
        return -1, 0.0
    best = int(np.argmax(overlaps))
    return best, overlaps[best]


def label_outline(quad: np.ndarray, scene: Scene) -> tuple[int, int] | None:
    """(left, right) half labels of the crop cut along ``quad`` (first edge long), or None
    when the outline half-covers a tile and is neither clearly it nor clearly nothing."""
    best, overlap = best_overlap(quad, scene)
    if overlap < STRAY_IOU:
        return NOT_A_HALF, NOT_A_HALF
    if overlap < MATCH_IOU:
        return None
    tile = scene.tiles[best]
    assert tile.half_centres is not None
    left_end = half_centres(quad)[0]
    distances = np.linalg.norm(tile.half_centres - left_end, axis=1)
    first, second = tile.half_pips
    return (first, second) if distances[0] <= distances[1] else (second, first)


def labelled_crops(
    image: np.ndarray, quads: Sequence[np.ndarray], scene: Scene, to_image: float = 1.0
) -> tuple[np.ndarray, np.ndarray]:
    """Crops of ``image`` cut along ``quads`` (its pixels, first edge long) and their (left,
    right) labels from ``scene``, whose pixels ``to_image`` takes to the image's; outlines that
    half-cover a tile are left out."""
    kept: list[np.ndarray] = []
    labels: list[tuple[int, int]] = []
    for quad in quads:
        label = label_outline(np.asarray(quad, np.float32) / np.float32(to_image), scene)
        if label is not None:
            kept.append(quad)
            labels.append(label)
    if not kept:
        return np.zeros((0, 64, 128, 3), np.uint8), np.zeros((0, 2), np.int64)
    return rectify_tiles(image, kept), np.array(labels, np.int64)


def scene_crops(seed: int, classes: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The finder's crops of one rendered scene and their (left, right) labels; with
    ``classes``, the scene may be one of READER_MIX's failing classes."""
    scene = training_scene(seed, low_views=READER_LOW_VIEWS, mix=classes)
    found = _get_finder().find(scene.image)
    return labelled_crops(scene.image, [tile.corners for tile in found], scene)


PRINTED_DATA_VERSION = 1
"""Bump when training.synth's printed dominoes change (scenes_data.printed_scene)."""


def printed_scene_crops(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The finder's crops of one rendered scene with printed dominoes on the table
    (scenes_data.printed_scene): the outlines it puts on a printed domino lie on no listed tile,
    so both their ends are "not a half"."""
    scene = printed_scene(seed)
    found = _get_finder().find(scene.image)
    return labelled_crops(scene.image, [tile.corners for tile in found], scene)


def _render_printed_chunk(job: tuple[int, int]) -> Path:
    first_seed, count = job
    name = f"finder_crops_printed_v{PRINTED_DATA_VERSION}_{_finder_tag()}_{first_seed}_{count}.npz"
    return cached_chunk(DATA_DIR / name, _seeds_crops(printed_scene_crops, first_seed, count))


def build_printed_set(
    first_seed: int, scenes: int, workers: int = 2, chunk: int = 25
) -> tuple[np.ndarray, np.ndarray]:
    """Crops of ``scenes`` rendered scenes with printed dominoes, seeds first_seed.. (cached
    per chunk)."""
    return gather_seed_chunks(
        _render_printed_chunk, first_seed, scenes, chunk, workers, ("scenes", "crops")
    )


@functools.lru_cache(maxsize=1)
def _finder_tag() -> str:
    """A short fingerprint of the finder that cuts the crops: a cache cut by another finder
    (a retrained one, or one kept aside for a comparison) is then never taken for this one's."""
    model, second_look = _crop_finder
    tag = hashlib.sha1(model.read_bytes()).hexdigest()[:8]
    return tag if second_look else f"{tag}first"


def _chunk_file(first_seed: int, count: int, classes: bool) -> Path:
    kind = "" if classes else "_usual"
    name = f"finder_crops_v{data_version()}{kind}_{_finder_tag()}_{first_seed}_{count}.npz"
    return DATA_DIR / name


def _seeds_crops(
    crops_of: Callable[[int], tuple[np.ndarray, np.ndarray]], first_seed: int, count: int
) -> Callable[[], tuple[np.ndarray, np.ndarray]]:
    """What renders the crops and labels of seeds first_seed.. one after another, joined."""

    def render() -> tuple[np.ndarray, np.ndarray]:
        parts = [crops_of(seed) for seed in range(first_seed, first_seed + count)]
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])

    return render


def _render_chunk(job: tuple[int, int], classes: bool = True) -> Path:
    first_seed, count = job
    crops_of = functools.partial(scene_crops, classes=classes)
    path = _chunk_file(first_seed, count, classes)
    return cached_chunk(path, _seeds_crops(crops_of, first_seed, count))


def build_set(
    first_seed: int, scenes: int, workers: int = 2, chunk: int = 50, classes: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """Crops of ``scenes`` rendered scenes with seeds first_seed.. (cached per chunk); without
    ``classes``, usual scenes only (as reader v5 learnt from)."""
    render = functools.partial(_render_chunk, classes=classes)
    return gather_seed_chunks(render, first_seed, scenes, chunk, workers, ("scenes", "crops"))
