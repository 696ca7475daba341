"""Reader training crops cut where the app cuts them on a photo of the whole table.

A table's tiles are small (a rendered table's short side is about 29 pixels before the photo
is enlarged to 12 MP), and the half reader never learnt from tiles that size cut along the
outlines the table pipeline reports: after the finder's fine look, the outline fitter and
the reading on along the trains. These crops come from rendered tables
(training.table_synth.render_table), shown to the pipeline exactly as
``python -m training.score_tables`` shows them (enlarged, JPEG) and read as a game's page
reads them (the set and the round's engine known). Each tile the pipeline reports is cut
again from the decoded photo along its outline and labelled by the rendered tile it overlaps
(training.finder_crops_data.label_outline), its ends by which rendered half lies nearer; an
outline on no tile is "not a half" on both ends.

Seeds 600,000,000 on are used; the tuning (800,000,000 on) and held-out (900,000,000 on)
tables stay unseen. Chunks are cached in training/data/ like the other crop sets, named by
the models that cut them.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import fields
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from training.finder_crops_data import labelled_crops
from training.halves_data import DATA_DIR, cached_chunk, gather_seed_chunks
from training.score_tables import round_engine, table_photo
from training.synth import Scene
from vision.decode import MAX_PIXELS, decode_photo
from vision.models import ModelPaths
from vision.pipeline import READ_LONG_SIDE, HandReader, default_reader

FIRST_SEED = 600_000_000
DATA_VERSION = 1
"""Bump when the renderer or the table pipeline changes what is cut."""


def long_edge_first(quad: NDArray[np.float32]) -> NDArray[np.float32]:
    """The outline with its corners turned, if need be, so its first edge is a long one (as
    rectify_tiles and half_centres take it); still clockwise."""
    quad = np.asarray(quad, np.float32)
    first = float(np.linalg.norm(quad[1] - quad[0]))
    second = float(np.linalg.norm(quad[2] - quad[1]))
    return quad if first >= second else np.roll(quad, -1, axis=0)


def table_crops(seed: int, reader: HandReader) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """The crops of one rendered table as the pipeline reports its tiles, and their labels."""
    scene, enlarged, data = table_photo(seed, native=False)
    layout = reader.read_table(data, scene.set_max, round_engine(scene)).layout
    photo = decode_photo(data, max_pixels=MAX_PIXELS, min_long_side=READ_LONG_SIDE)
    # Labelled in the render's own pixels (overlaps do not change with scale).
    quads = [
        long_edge_first(np.asarray(tile.corners, np.float32) * photo.scale) for tile in layout.tiles
    ]
    rendered = Scene(image=scene.image, tiles=scene.tiles)
    return labelled_crops(photo.pixels, quads, rendered, to_image=enlarged * photo.scale)


@functools.lru_cache(maxsize=1)
def _models_tag() -> str:
    """A short fingerprint of the committed models that read the tables."""
    digest = hashlib.sha1()
    paths = ModelPaths()
    for field in fields(paths):
        path = getattr(paths, field.name)
        if path is not None:
            digest.update(Path(path).read_bytes())
    return digest.hexdigest()[:8]


def _chunk_file(first_seed: int, count: int) -> Path:
    return DATA_DIR / f"table_crops_v{DATA_VERSION}_{_models_tag()}_{first_seed}_{count}.npz"


def _render_chunk(job: tuple[int, int]) -> Path:
    first_seed, count = job

    def render() -> tuple[np.ndarray, np.ndarray]:
        reader = default_reader()
        parts = [table_crops(seed, reader) for seed in range(first_seed, first_seed + count)]
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])

    return cached_chunk(_chunk_file(first_seed, count), render)


def build_set(
    first_seed: int, tables: int, workers: int = 2, chunk: int = 25
) -> tuple[np.ndarray, np.ndarray]:
    """Crops of ``tables`` rendered tables with seeds first_seed.. (cached per chunk)."""
    return gather_seed_chunks(
        _render_chunk, first_seed, tables, chunk, workers, ("tables", "crops")
    )
