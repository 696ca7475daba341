"""Synthetic training data for the half reader: canonical tile crops and per-half labels.

Each sample is a (64, 128, 3) crop from training.synth.render_tile_crop and two labels, one per
half: the pip count 0..18, or NOT_A_HALF for face-down tiles, bare table and crops that
straddle two tiles. Sets are cached as .npz under training/data/ (git-ignored).
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from training.synth import MAX_PIPS, render_tile_crop

NOT_A_HALF = MAX_PIPS + 1
NUM_CLASSES = MAX_PIPS + 2
DATA_DIR = Path(__file__).resolve().parent / "data"
DATA_VERSION = 5  # bump when training.synth changes what it draws, so stale caches go unused
PRINTED_BACKS_DATA_VERSION = 6
"""The same crops, but half the face-down ones carry a maker's name printed on their backs (as
the face-down check, models/face-down.onnx, learnt them)."""
PRINTED_BACK_SHARE = 0.5
_printed_backs = False
COLOURED_BODY_DATA_VERSION = 7
"""The crops of version 5, but COLOURED_BODY_SHARE of them cut from sets moulded in a strong
colour with white pips (training.synth's "coloured_body" family)."""
COLOURED_BODY_SHARE = 0.2
_coloured_bodies = False
HIGH_COUNT_SHARE = 0.06
"""How many halves show 13 to 18 pips (the rest 0 to 12) unless use_high_counts says more."""
_high_count_share = HIGH_COUNT_SHARE


def use_printed_backs(printed: bool = True) -> None:
    """Print a maker's name on PRINTED_BACK_SHARE of the face-down crops from now on (data
    version 6); set before build_set or render_chunk, whose worker processes are forked."""
    global _printed_backs
    _printed_backs = printed


def use_coloured_bodies(coloured: bool = True) -> None:
    """Cut COLOURED_BODY_SHARE of the crops from strongly coloured sets from now on (data
    version 7; not with printed backs); set before build_set, as use_printed_backs."""
    global _coloured_bodies
    _coloured_bodies = coloured


def use_high_counts(share: float = HIGH_COUNT_SHARE) -> None:
    """Draw ``share`` of the halves with 13 to 18 pips from now on (the crops are otherwise
    those of the data version, and cached apart); set before build_set, as use_printed_backs."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"a share is 0..1, not {share}")
    global _high_count_share
    _high_count_share = share


def data_version() -> int:
    """The version of the crops rendered now (see use_printed_backs, use_coloured_bodies)."""
    if _printed_backs:
        return PRINTED_BACKS_DATA_VERSION
    return COLOURED_BODY_DATA_VERSION if _coloured_bodies else DATA_VERSION


# Share of crops of each kind; most are face-up tiles.
_KIND_WEIGHTS = {"face": 0.85, "back": 0.06, "background": 0.06, "straddle": 0.03}


def _half_count(rng: np.random.Generator) -> int:
    """Pip counts of one half: 0..12 (the sets most people own) most of the time, 13..18 on
    the share use_high_counts sets."""
    # The same draw as before the share could change (below 0.94: 0..12), so every data
    # version's crops stay what they were at the usual share.
    if rng.random() < 1.0 - _high_count_share:
        return int(rng.integers(0, 13))
    return int(rng.integers(13, MAX_PIPS + 1))


def make_sample(
    seed: int, printed_backs: bool = False, coloured_bodies: bool = False
) -> tuple[np.ndarray, tuple[int, int]]:
    """One crop and its two half labels (left, right), fully determined by ``seed`` (and
    ``printed_backs``, which prints a name on some face-down tiles and changes nothing else;
    ``coloured_bodies``, which cuts some crops from strongly coloured sets instead)."""
    rng = np.random.default_rng([seed, 7])
    kinds = list(_KIND_WEIGHTS)
    kind = kinds[int(rng.choice(len(kinds), p=list(_KIND_WEIGHTS.values())))]
    pips = (_half_count(rng), _half_count(rng))
    jitter = float(rng.uniform(0.01, 0.04))
    printed = printed_backs and kind == "back" and bool(rng.random() < PRINTED_BACK_SHARE)
    coloured = coloured_bodies and bool(rng.random() < COLOURED_BODY_SHARE)
    crop = render_tile_crop(
        seed,
        pips,
        kind=kind,
        jitter=jitter,
        set_max=12,
        printed_back=printed,
        style="coloured_body" if coloured else None,
    )
    labels = pips if kind == "face" else (NOT_A_HALF, NOT_A_HALF)
    return crop, labels


def _chunk(seeds: list[int]) -> tuple[np.ndarray, np.ndarray]:
    crops = np.empty((len(seeds), 64, 128, 3), np.uint8)
    labels = np.empty((len(seeds), 2), np.int64)
    for i, seed in enumerate(seeds):
        crops[i], pair = make_sample(seed, _printed_backs, _coloured_bodies and not _printed_backs)
        labels[i] = pair
    return crops, labels


def _chunk_file(first_seed: int, count: int) -> Path:
    high = "" if _high_count_share == HIGH_COUNT_SHARE else f"_high{round(_high_count_share * 100)}"
    return DATA_DIR / f"halves_v{data_version()}{high}_{first_seed}_{count}.npz"


def chunk_jobs(first_seed: int, count: int, chunk: int = 1000) -> list[tuple[int, int]]:
    """(first seed, size) of each cached chunk of a set."""
    end = first_seed + count
    return [(s, min(chunk, end - s)) for s in range(first_seed, end, chunk)]


def chunk_path(job: tuple[int, int]) -> Path:
    return _chunk_file(*job)


def load_chunk(path: Path) -> tuple[np.ndarray, np.ndarray]:
    with np.load(path) as stored:
        return stored["crops"], stored["labels"]


def render_chunk(job: tuple[int, int]) -> Path:
    """Render one chunk of samples to its cache file (skipped when already there)."""
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    return _render_chunk(job)


def _render_chunk(job: tuple[int, int]) -> Path:
    """Render one chunk of samples to its cache file (skipped when already there)."""
    first_seed, count = job
    return cached_chunk(
        _chunk_file(first_seed, count),
        lambda: _chunk(list(range(first_seed, first_seed + count))),
    )


def cached_chunk(path: Path, render: Callable[[], tuple[np.ndarray, np.ndarray]]) -> Path:
    """``path``, written with ``render()``'s crops and labels unless it is already there; a
    chunk is renamed into place only once whole, so an interrupted run leaves no half file."""
    if not path.exists():
        crops, labels = render()
        partial = path.with_suffix(".part.npz")
        np.savez(partial, crops=crops, labels=labels)
        partial.rename(path)
    return path


def build_set(
    first_seed: int, count: int, workers: int = 2, log: bool = True, chunk: int = 1000
) -> tuple[np.ndarray, np.ndarray]:
    """Render ``count`` samples with seeds first_seed.. ; chunks are cached on disk, so an
    interrupted run resumes where it stopped."""
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    jobs = chunk_jobs(first_seed, count, chunk)

    def progress(done: int, crops: int, elapsed: float) -> None:
        if log and (done % 5 == 0 or done == len(jobs)):
            print(f"  {crops}/{count} crops ready after {elapsed:.0f}s", flush=True)

    return gather_chunks(_render_chunk, jobs, workers, progress)


def gather_seed_chunks(
    render: Callable[[tuple[int, int]], Path],
    first_seed: int,
    count: int,
    chunk: int,
    workers: int,
    units: tuple[str, str],
) -> tuple[np.ndarray, np.ndarray]:
    """gather_chunks over ``count`` seeds from first_seed, ``chunk`` to a cached file, printing
    every fifth chunk how many of the ``units`` (what a seed draws, what a set holds: "scenes",
    "crops") are done."""
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    jobs = chunk_jobs(first_seed, count, chunk)
    drawn, held = units

    def progress(done: int, items: int, elapsed: float) -> None:
        if done % 5 == 0 or done == len(jobs):
            print(
                f"  {min(done * chunk, count)}/{count} {drawn}, {items} {held} after"
                f" {elapsed:.0f}s",
                flush=True,
            )

    return gather_chunks(render, jobs, workers, progress)


def gather_chunks(
    render: Callable[[tuple[int, int]], Path],
    jobs: list[tuple[int, int]],
    workers: int,
    progress: Callable[[int, int, float], None],
) -> tuple[np.ndarray, np.ndarray]:
    """Render (or find cached) every chunk on ``workers`` processes and join their crops and
    labels in job order; ``progress(chunks done, crops so far, seconds)`` after each."""
    started = time.monotonic()
    crops_parts: list[np.ndarray] = []
    label_parts: list[np.ndarray] = []
    crops_so_far = 0
    context = multiprocessing.get_context("fork")
    with context.Pool(workers) as pool:
        for done, path in enumerate(pool.imap(render, jobs), start=1):
            with np.load(path) as stored:
                crops_parts.append(stored["crops"])
                label_parts.append(stored["labels"])
            crops_so_far += len(crops_parts[-1])
            progress(done, crops_so_far, time.monotonic() - started)
    return np.concatenate(crops_parts), np.concatenate(label_parts)
