"""Rendered table scenes for training the tile finder, cached on disk in chunks.

Each scene is rendered by training.synth at SCENE_SIZE and stored as JPEG bytes (a little
compression noise on top of the renderer's own) with the face corners of every listed tile.
Seeds for the finder start at FINDER_SEED_BASE so they never coincide with the reader's
crops. Chunks are files, so an interrupted render resumes where it stopped.
"""

from __future__ import annotations

import multiprocessing
import pickle
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from training.synth import Scene, SceneTile, render_scene

if TYPE_CHECKING:
    from training.table_synth import TableScene

DATA_DIR = Path(__file__).resolve().parent / "data"
# 1: finder v1's scenes. 2: 30% of scenes tilted up to 70 degrees (finder v2, not adopted;
# see models/MODEL_CARD.md). 3: the renderer with domed pips and 4-across 10..12, tilt <= 45.
# 4: as 3, and every fifth scene a close low shot (training.synth low_view: 50..72 degrees,
# big chunky tiles, the table in perspective), for photos taken seated across the table.
# 5: as 4, and of every twenty scenes two are close-ups, two have printed backs among the
# tiles, two have a tile leaning on its neighbour and one is a colour-dot set with blank halves
# (issue 12's failing classes); usual scenes drop from 80% to 45%.
# 6: as 5, and of every twenty scenes three (COLOURED_BODY: two usual ones, one low shot) show
# a set moulded in a strong colour with white pips (synth's "coloured_body" family).
DATA_VERSION = 6
SCENE_SIZE = (512, 384)  # width, height
FINDER_SEED_BASE = 5_000_000
LOW_VIEW_EVERY = 5
MIX_PERIOD = 20
# Which kind of scene each seed % MIX_PERIOD is; the rest (but the low views) are usual.
MIX: dict[int, str] = {
    0: "close_up",
    10: "close_up",
    1: "printed_backs",
    11: "printed_backs",
    2: "leaning",
    12: "leaning",
    3: "blank_halves",
}
# Data version 6: the seeds (% MIX_PERIOD) whose tiles are moulded in a strong colour with white
# pips: two usual scenes and one low shot in twenty.
COLOURED_BODY = frozenset({5, 15, 9})


def is_low_view(seed: int) -> bool:
    """Whether scene ``seed`` is rendered as a close low shot."""
    return seed % LOW_VIEW_EVERY == LOW_VIEW_EVERY - 1


def scene_class(seed: int) -> str:
    """The kind of scene ``seed`` is in the finder's mix: "low_view", one of MIX's classes,
    or "usual"."""
    if is_low_view(seed):
        return "low_view"
    return MIX.get(seed % MIX_PERIOD, "usual")


def render_class(
    seed: int,
    kind: str,
    size: tuple[int, int],
    n_tiles: tuple[int, int] = (1, 15),
    style: str | None = None,
) -> Scene:
    """Scene ``seed`` rendered as ``kind``: "usual", "low_view" or one of MIX's classes (each
    the render_scene switch of that name), its tiles of the ``style`` family (None: drawn)."""
    return render_scene(
        seed,
        size=size,
        n_tiles=n_tiles,
        style=style,
        low_view=kind == "low_view",
        close_up=kind == "close_up",
        printed_backs=kind == "printed_backs",
        leaning=kind == "leaning",
        blank_halves=kind == "blank_halves",
    )


Sample = tuple[bytes, np.ndarray]  # JPEG bytes, (N, 4, 2) float32 face corners


def _as_sample(image: np.ndarray, tiles: Sequence[SceneTile], quality: int) -> Sample:
    """A rendered picture as JPEG bytes at ``quality``, with its listed tiles' face corners."""
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - OpenCV always encodes a uint8 BGR image
        raise RuntimeError("JPEG encoding failed")
    corners = np.array([t.corners for t in tiles], np.float32).reshape(-1, 4, 2)
    return encoded.tobytes(), corners


def render_sample(seed: int) -> Sample:
    style = "coloured_body" if seed % MIX_PERIOD in COLOURED_BODY else None
    scene = render_class(FINDER_SEED_BASE + seed, scene_class(seed), size=SCENE_SIZE, style=style)
    return _as_sample(scene.image, scene.tiles, quality=93)


# Whole tables (training.table_synth) drawn at the size the finder's fine look sees a 12-MP
# photo: its long side at vision.finding.FINE_LOOK_SIDE. 1: the first table scenes. 2: as 1,
# and every fifth table (seed % 5 == 2) a set moulded in a strong colour with white pips.
TABLE_DATA_VERSION = 2
TABLE_SEED_BASE = 100_000_000  # far from training.score_tables' held-out 900,000,000 on
TABLE_SCENE_SIZE = (1536, 1152)


def render_table_sample(seed: int) -> Sample:
    """Table ``seed`` as a finder sample: its face-up tiles only (face-down hands, the
    boneyard, the hub and markers are what the finder must learn to pass over)."""
    from training.table_synth import render_table

    scene = render_table(
        TABLE_SEED_BASE + seed, size=TABLE_SCENE_SIZE, coloured_tiles=seed % 5 == 2
    )
    return _as_sample(scene.image, scene.tiles, quality=90)


# Tables of black tiles with white pips only (one table in four is so otherwise): the
# held-out tables lost most of their missed tiles on them. Their own seeds, far from the
# other tables' and from training.score_tables' tuning (800,000,000) and held-out ones.
DARK_TABLE_SEED_BASE = 110_000_000


def render_dark_table_sample(seed: int) -> Sample:
    """Table ``seed`` of black tiles as a finder sample (as render_table_sample)."""
    from training.table_synth import render_table

    scene = render_table(DARK_TABLE_SEED_BASE + seed, size=TABLE_SCENE_SIZE, dark_tiles=True)
    return _as_sample(scene.image, scene.tiles, quality=90)


# Pictures of dominoes printed under the tiles (training.synth's printed_dominoes: a board
# game's score track, a box lid), at the tables' size with tiles as small as a table's or a
# little bigger. 1: the first printed scenes.
PRINTED_DATA_VERSION = 1
PRINTED_SEED_BASE = 200_000_000


def render_printed_sample(seed: int) -> Sample:
    """Scene ``seed`` with printed dominoes (printed_scene) as a finder sample."""
    scene = printed_scene(seed)
    return _as_sample(scene.image, scene.tiles, quality=90)


def printed_scene(seed: int) -> Scene:
    """Scene ``seed`` with printed dominoes, which are never listed: 0 to 25 tiles of a
    double-6 to double-12 set on or beside a printed board."""
    return render_scene(
        PRINTED_SEED_BASE + seed,
        size=TABLE_SCENE_SIZE,
        n_tiles=(0, 25),
        set_max=(6, 9, 12)[seed % 3],
        tile_share=(0.025, 0.08),
        max_tilt_deg=35.0,
        printed_dominoes=True,
    )


# Hand-sized scenes with a row of tiles stood on their long edges, faces to a camera held low
# (training.synth's standing): the hand a seated player keeps stood up in front of them, which
# real photos of lines seen low (karthik's) showed the finder missing. 1: the first of them.
STANDING_DATA_VERSION = 1
STANDING_SEED_BASE = 300_000_000


def standing_scene(seed: int, size: tuple[int, int] = SCENE_SIZE) -> Scene:
    """Scene ``seed`` with a row of tiles stood up, in any style (one in five of a set
    moulded in a strong colour, as the hands' mix)."""
    style = "coloured_body" if seed % 5 == 3 else None
    return render_scene(STANDING_SEED_BASE + seed, size=size, style=style, standing=True)


# Part of a table seen low and close (training.table_synth's seen_low): chains of touching
# tiles a tenth of the picture long, the way a seated player photographs the lines in front
# of them; real photos of such lines (karthik's) lose the flat tiles laid end to end.
# Hand-sized, shown whole like the hands. 1: the first of them.
LOW_TABLE_DATA_VERSION = 1
LOW_TABLE_SEED_BASE = 400_000_000


def low_table_scene(seed: int, size: tuple[int, int] = SCENE_SIZE) -> TableScene:
    """Table ``seed`` seen low and close: a block line in every other table, one in three of
    a set moulded in a strong colour."""
    from training.table_synth import render_table

    return render_table(
        LOW_TABLE_SEED_BASE + seed,
        size=size,
        block=seed % 2 == 0,
        coloured_tiles=seed % 3 == 1,
        seen_low=True,
    )


# Hands and parts of tables seen low laid on checks that are no tiles (training.synth's
# paint_check_patterns: a gingham cloth, or a calibration checkerboard): real photos of tiles
# on a check cloth, and a webcam's calibration card, had slivers of their checks counted as
# tiles. Hand-sized. 1: the first of them.
CHECKED_DATA_VERSION = 1
CHECKED_SEED_BASE = 500_000_000


def checked_scene(seed: int, size: tuple[int, int] = SCENE_SIZE) -> Scene | TableScene:
    """Scene ``seed`` on checks: every other one part of a table seen low (a block line in
    one of those four), the rest hands, half of them seen low."""
    if seed % 2 == 0:
        from training.table_synth import render_table

        return render_table(
            CHECKED_SEED_BASE + seed,
            size=size,
            block=seed % 8 == 0,
            seen_low=True,
            check_patterns=True,
        )
    return render_scene(
        CHECKED_SEED_BASE + seed, size=size, low_view=seed % 4 == 1, check_patterns=True
    )


# Small black tiles with white pips and no divider (training.synth's "plain_black" family),
# a few to twenty in a hand-sized picture, each 5 to 11% of its width long, seen from above
# or a little aslant: a robot's webcam frames of such a set had almost none found. Double-6
# and double-9 sets, as such sets are. 1: the first of them.
PLAIN_BLACK_DATA_VERSION = 1
PLAIN_BLACK_SEED_BASE = 600_000_000


def plain_black_scene(seed: int, size: tuple[int, int] = SCENE_SIZE) -> Scene:
    """Scene ``seed`` of small black tiles with white pips and no divider."""
    return render_scene(
        PLAIN_BLACK_SEED_BASE + seed,
        size=size,
        style="plain_black",
        set_max=(6, 9)[seed % 2],
        n_tiles=(2, 20),
        tile_share=(0.05, 0.11),
        max_tilt_deg=30.0,
    )


def _hand_sized(scene: Callable[[int], Scene | TableScene]) -> Callable[[int], Sample]:
    """A finder sample of each seed's hand-sized scene, shown whole."""

    def render(seed: int) -> Sample:
        drawn = scene(seed)
        return _as_sample(drawn.image, drawn.tiles, quality=93)

    return render


@dataclass(frozen=True)
class SceneKind:
    """What build_scenes can render: its cache files' stem, the renderer of one seed, and
    whether its pictures are hand-sized (cached in big chunks) or table-sized (small ones,
    which lose little if a render is stopped)."""

    stem: str
    render: Callable[[int], Sample]
    hand_sized: bool


KINDS: dict[str, SceneKind] = {
    "hands": SceneKind(f"scenes-v{DATA_VERSION}", render_sample, hand_sized=True),
    "tables": SceneKind(f"tables-v{TABLE_DATA_VERSION}", render_table_sample, hand_sized=False),
    "dark tables": SceneKind(
        f"dark-tables-v{TABLE_DATA_VERSION}", render_dark_table_sample, hand_sized=False
    ),
    "printed": SceneKind(
        f"printed-v{PRINTED_DATA_VERSION}", render_printed_sample, hand_sized=False
    ),
    "standing": SceneKind(
        f"standing-v{STANDING_DATA_VERSION}", _hand_sized(standing_scene), hand_sized=True
    ),
    "low tables": SceneKind(
        f"low-tables-v{LOW_TABLE_DATA_VERSION}", _hand_sized(low_table_scene), hand_sized=True
    ),
    "plain black": SceneKind(
        f"plain-black-v{PLAIN_BLACK_DATA_VERSION}", _hand_sized(plain_black_scene), hand_sized=True
    ),
    "checked": SceneKind(
        f"checked-v{CHECKED_DATA_VERSION}", _hand_sized(checked_scene), hand_sized=True
    ),
}
TABLE_SIZED_CHUNK = 50


def _chunk_file(first_seed: int, count: int, kind: str = "hands") -> Path:
    return DATA_DIR / f"{KINDS[kind].stem}-{first_seed}-{count}.pkl"


def _render_chunk(job: tuple[int, int, str]) -> Path:
    first_seed, count, kind = job
    path = _chunk_file(first_seed, count, kind)
    render = KINDS[kind].render
    if not path.exists():
        samples = [render(seed) for seed in range(first_seed, first_seed + count)]
        partial = path.with_suffix(".part")
        partial.write_bytes(pickle.dumps(samples, protocol=pickle.HIGHEST_PROTOCOL))
        partial.rename(path)
    return path


def build_scenes(
    first_seed: int, count: int, workers: int = 2, chunk: int = 250, kind: str = "hands"
) -> list[Sample]:
    """Render ``count`` scenes of ``kind`` (one of KINDS) with seeds first_seed.. (cached)
    and return them all."""
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    if not KINDS[kind].hand_sized:
        chunk = min(chunk, TABLE_SIZED_CHUNK)
    jobs = [
        (start, min(chunk, first_seed + count - start), kind)
        for start in range(first_seed, first_seed + count, chunk)
    ]
    samples: list[Sample] = []
    context = multiprocessing.get_context("fork")
    with context.Pool(workers) as pool:
        for done, path in enumerate(pool.imap(_render_chunk, jobs), start=1):
            samples.extend(pickle.loads(path.read_bytes()))
            if done % 4 == 0 or done == len(jobs):
                elapsed = time.monotonic() - started
                print(f"  {len(samples)}/{count} scenes ready after {elapsed:.0f}s", flush=True)
    return samples


def decode_sample(sample: Sample) -> tuple[np.ndarray, np.ndarray]:
    data, corners = sample
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    return image, corners


if __name__ == "__main__":
    import sys

    first, total = int(sys.argv[1]), int(sys.argv[2])
    build_scenes(first, total)
