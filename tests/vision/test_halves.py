"""The half reader: pure pre/post-processing, failing fast, and the committed model."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from training.synth import random_style, render_face_texture
from vision.halves import (
    DEFAULT_HALF_MODEL,
    NOT_A_HALF,
    NUM_CLASSES,
    HalfReader,
    other_readings,
    postprocess,
    preprocess_halves,
    softmax,
    split_halves,
)


def _crop_with_divider() -> np.ndarray:
    crop = np.full((3, 64, 128, 3), 230, np.uint8)
    crop[:, :, 62:66] = 20  # the divider bar at x = 64
    crop[:, 5, 10] = (255, 0, 0)  # a blue mark in the left half, top left
    crop[:, 5, 100] = (0, 0, 255)  # a red mark in the right half, top
    return crop


def test_halves_come_out_left_then_right_turned_so_the_divider_is_on_the_right() -> None:
    crops = _crop_with_divider()
    halves = split_halves(crops)
    assert halves.shape == (6, 64, 64, 3)
    assert np.array_equal(halves[0], crops[0, :, :64])
    for half in halves:
        assert half[:, -2:].mean() < 40, "divider must sit on the half's right edge"
        assert half[:, :10].mean() > 200
    # The right half turned 180 degrees: its top mark ends up near the bottom.
    assert tuple(halves[1][64 - 1 - 5, 127 - 100]) == (0, 0, 255)


def test_preprocess_gives_float_nchw_in_unit_range_keeping_bgr() -> None:
    crops = _crop_with_divider()
    batch = preprocess_halves(crops)
    assert batch.shape == (6, 3, 64, 64) and batch.dtype == np.float32
    assert 0.0 <= batch.min() and batch.max() <= 1.0
    assert batch[0, 0, 5, 10] == 1.0 and batch[0, 2, 5, 10] == 0.0


@pytest.mark.parametrize(
    "bad",
    [np.zeros((2, 64, 64, 3), np.uint8), np.zeros((2, 64, 128, 3), np.float32), [[1, 2]]],
)
def test_malformed_crops_are_refused_with_a_message(bad: object) -> None:
    with pytest.raises(ValueError, match="crops"):
        preprocess_halves(bad)  # type: ignore[arg-type]


def _logits(*classes: int, strength: float = 12.0) -> np.ndarray:
    logits = np.zeros((len(classes), NUM_CLASSES), np.float32)
    for row, cls in enumerate(classes):
        logits[row, cls] = strength
    return logits


def test_postprocess_pairs_halves_and_orders_pips_larger_first() -> None:
    reads = postprocess(_logits(5, 12, 0, 0))
    assert [r.pips for r in reads] == [(12, 5), (0, 0)]
    assert all(r.confidence > 0.99 and r.is_tile > 0.99 for r in reads)


def test_confidence_is_the_product_of_both_halves_probabilities() -> None:
    logits = _logits(3, 7, strength=2.0)
    probs = softmax(logits)
    (read,) = postprocess(logits, max_pips=18)
    assert read.pips == (7, 3)
    assert read.confidence == pytest.approx(probs[0, 3] * probs[1, 7])
    assert read.confidence < 0.2  # two unsure halves make an unsure tile


def test_a_half_that_is_not_a_face_makes_the_crop_not_a_tile() -> None:
    (read,) = postprocess(_logits(4, NOT_A_HALF))
    assert read.is_tile < 0.01
    assert read.confidence < 0.01


def _unsure(first: int, second: int, share: float, halves: int = 2) -> np.ndarray:
    """Logits of halves that are `share` sure of `first`, the rest on `second`."""
    probs = np.full((halves, NUM_CLASSES), 1e-6)
    probs[:, first] = share
    probs[:, second] = 1 - share
    return np.log(probs / probs.sum(axis=1, keepdims=True)).astype(np.float32)


def test_other_readings_add_up_both_ways_round_and_leave_out_the_tile_read() -> None:
    first = np.zeros(19)
    first[[5, 3, 8]] = [0.6, 0.3, 0.1]
    second = np.zeros(19)
    second[[3, 5, 9]] = [0.7, 0.2, 0.1]
    others = dict(other_readings(first, second, (5, 3)))
    assert (5, 3) not in others
    assert others[(5, 5)] == pytest.approx(0.6 * 0.2)
    assert others[(3, 3)] == pytest.approx(0.3 * 0.7)
    assert others[(9, 5)] == pytest.approx(0.6 * 0.1)
    # 8 on the first half with 3 on the second, or 8 with 5: separate tiles.
    assert others[(8, 3)] == pytest.approx(0.1 * 0.7)
    chances = list(dict(other_readings(first, second, (5, 3))).values())
    assert chances == sorted(chances, reverse=True)


def test_each_read_carries_its_next_likeliest_tile() -> None:
    logits = np.log(np.full((2, NUM_CLASSES), 1e-6)).astype(np.float32)
    logits[0, 12], logits[0, 10] = np.log(0.6), np.log(0.4)
    logits[1, 4] = 0.0
    (read,) = postprocess(logits, max_pips=12)
    assert read.pips == (12, 4)
    assert read.alternatives[0][0] == (10, 4)
    assert read.alternatives[0][1] == pytest.approx(0.4, abs=0.01)


def test_a_known_set_rules_out_counts_above_its_highest_half() -> None:
    logits = _unsure(18, 9, 0.7)
    assert postprocess(logits, max_pips=18)[0].pips == (18, 18)
    (read,) = postprocess(logits, max_pips=12)
    assert read.pips == (9, 9)
    assert read.confidence == pytest.approx(1.0, abs=1e-3)  # only 9 is left


def test_a_photo_of_low_halves_reads_an_unsure_high_count_as_a_double_12_count() -> None:
    clear_lows = _logits(3, 5, 7, 1, 0, 6, 2, 4, 9, 11, 10, 8)
    unsure = _unsure(18, 9, 0.7)
    reads = postprocess(np.concatenate([clear_lows, unsure]))
    assert reads[-1].pips == (9, 9)
    assert [r.pips for r in reads[:6]] == [(5, 3), (7, 1), (6, 0), (4, 2), (11, 9), (10, 8)]


def test_a_photo_of_clear_double_18_halves_keeps_counts_above_12() -> None:
    logits = _logits(15, 18, 13, 17, 16, 14)
    assert [r.pips for r in postprocess(logits)] == [(18, 15), (17, 13), (16, 14)]


def test_an_impossible_set_size_is_refused() -> None:
    with pytest.raises(ValueError, match="max_pips"):
        postprocess(_logits(1, 2), max_pips=19)


def test_postprocess_refuses_wrong_shapes() -> None:
    with pytest.raises(ValueError, match="logits"):
        postprocess(np.zeros((3, NUM_CLASSES), np.float32))


def test_missing_model_fails_fast_naming_the_path(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.onnx"
    with pytest.raises(FileNotFoundError, match="nowhere.onnx"):
        HalfReader(missing)


def _clean_crop(
    pips: tuple[int, int], family: str, seed: int, dense_variants: bool = False
) -> np.ndarray:
    """An upright, evenly lit tile face filling the crop: the easiest case there is.

    10..12 are drawn as 4-row columns unless ``dense_variants`` asks for any arrangement.
    """
    rng = np.random.default_rng(seed)
    style = dataclasses.replace(
        random_style(rng, family), corner_radius=0.06, dense_variants=dense_variants
    )
    texture, alpha = render_face_texture(pips, style, 128, rng)
    face = texture * alpha[:, :, None] + 90 * (1 - alpha[:, :, None])
    image = np.clip(face, 0, 255).astype(np.uint8)
    return np.asarray(cv2.resize(image, (128, 64), interpolation=cv2.INTER_AREA))


@pytest.fixture(scope="module")
def reader() -> HalfReader:
    return HalfReader(DEFAULT_HALF_MODEL)


@pytest.mark.parametrize("family", ["white_black", "colour", "black_white"])
def test_committed_model_reads_clean_tiles_of_every_count(reader: HalfReader, family: str) -> None:
    pairs = [(n, 12 - n) for n in range(13)] + [(n, n) for n in range(0, 13, 3)]
    crops = np.stack([_clean_crop(p, family, seed) for seed, p in enumerate(pairs)])
    reads = reader.read(crops)
    wrong = [(p, r.pips) for p, r in zip(pairs, reads, strict=True) if r.pips != (max(p), min(p))]
    assert not wrong, f"misread (expected, got): {wrong}"
    assert all(r.is_tile > 0.5 for r in reads)


def test_committed_model_reads_a_tile_turned_round_the_same(reader: HalfReader) -> None:
    crop = _clean_crop((9, 2), "colour", 42)
    turned = crop[::-1, ::-1].copy()
    first, second = reader.read(np.stack([crop, turned]))
    assert first.pips == second.pips == (9, 2)


def test_committed_model_rejects_a_bare_table(reader: HalfReader) -> None:
    rng = np.random.default_rng(3)
    noise = cv2.GaussianBlur(rng.normal(0, 1, (64, 128)).astype(np.float32), (0, 0), 4)
    wood = np.clip(np.stack([60 + 400 * noise, 100 + 400 * noise, 150 + 400 * noise], -1), 0, 255)
    (read,) = reader.read(wood.astype(np.uint8)[None])
    assert read.is_tile < 0.5


def test_empty_batch_reads_nothing(reader: HalfReader) -> None:
    assert reader.read(np.zeros((0, 64, 128, 3), np.uint8)) == []


def test_no_threads_is_refused(tmp_path: Path) -> None:
    model = tmp_path / "some.onnx"
    model.write_bytes(b"not read")
    with pytest.raises(ValueError, match="threads"):
        HalfReader(model, threads=0)
