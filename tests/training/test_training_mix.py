"""The mix of rendered scenes the models learn from: each failing class at its share, drawn."""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest

from training import finder_crops_data, halves_data, synth
from training.finder_crops_data import READER_MIX, training_scene
from training.halves_data import NOT_A_HALF, make_sample
from training.scenes_data import (
    COLOURED_BODY,
    MIX_PERIOD,
    SCENE_SIZE,
    TABLE_SCENE_SIZE,
    is_low_view,
    render_dark_table_sample,
    render_sample,
    render_table_sample,
    scene_class,
)
from vision.finding import FINE_LOOK_SIDE


def test_the_finder_sees_each_failing_class_at_its_share() -> None:
    shares = Counter(scene_class(seed) for seed in range(2000))
    assert shares["low_view"] == 400  # one in five, as before the classes came in
    assert shares["close_up"] == shares["printed_backs"] == shares["leaning"] == 200
    assert shares["blank_halves"] == 100
    assert shares["usual"] == 900


@pytest.fixture
def asked_families(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """The style families the renderer is asked for from now on, in order (None: any)."""
    asked: list[str | None] = []
    real_style = synth.random_style

    def style(rng: np.random.Generator, family: str | None = None) -> synth.TileStyle:
        asked.append(family)
        return real_style(rng, family)

    monkeypatch.setattr(synth, "random_style", style)
    return asked


def test_three_scenes_in_twenty_show_a_set_moulded_in_a_strong_colour(
    asked_families: list[str | None],
) -> None:
    asked = asked_families
    coloured = [seed for seed in range(60) if seed % MIX_PERIOD in COLOURED_BODY]
    assert len(coloured) == 9
    assert {scene_class(seed) for seed in coloured} == {"usual", "low_view"}
    for seed in range(20):
        asked.clear()
        render_sample(seed)
        assert ("coloured_body" in asked) == (seed in COLOURED_BODY)
    # The family's faces are its body colour, pips apart: white (or gold, or black) on colour.
    rng = np.random.default_rng(0)
    for _ in range(20):
        drawn = synth.random_style(rng, "coloured_body")
        hsv = cv2.cvtColor(np.array([[drawn.body]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0]
        assert hsv[1] >= 100
        assert len(set(drawn.pip_colours[1:])) == 1


def test_the_readers_finder_crops_show_coloured_sets_only_when_asked(
    asked_families: list[str | None],
) -> None:
    asked = asked_families
    seeds = [seed for seed in range(20) if not is_low_view(seed)]
    for coloured in (False, True):
        finder_crops_data.use_coloured_bodies(coloured)
        try:
            drawn = set()
            for seed in seeds:
                asked.clear()
                training_scene(seed, low_views=False)
                if "coloured_body" in asked:
                    drawn.add(seed)
            version = finder_crops_data.data_version()
        finally:
            finder_crops_data.use_coloured_bodies(False)
        assert drawn == ({seed for seed in seeds if seed in COLOURED_BODY} if coloured else set())
        # Crops cut from the other scenes are cached under another name.
        assert version == (6 if coloured else 5)


def test_low_shots_keep_their_seeds() -> None:
    for seed in range(200):
        assert (scene_class(seed) == "low_view") == (seed % 5 == 4) == is_low_view(seed)


def _long_sides(corners: np.ndarray) -> np.ndarray:
    edges = np.linalg.norm(np.roll(corners, -1, axis=1) - corners, axis=2)
    return np.asarray(edges.max(axis=1))


def test_a_close_up_seed_renders_a_few_big_tiles_for_the_finder() -> None:
    seed = next(s for s in range(40) if scene_class(s) == "close_up")
    usual = next(s for s in range(40) if scene_class(s) == "usual")
    _, close = render_sample(seed)
    _, hand = render_sample(usual)
    assert 1 <= len(close) <= 3
    assert _long_sides(close).min() > 0.2 * SCENE_SIZE[1]
    assert _long_sides(close).min() > _long_sides(hand).max()


def test_a_table_scene_shows_many_small_tiles_at_the_fine_looks_size() -> None:
    data, corners = render_table_sample(3)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape[1] == TABLE_SCENE_SIZE[0] == FINE_LOOK_SIDE
    assert len(corners) >= 15
    # Every listed face lies in the picture, each a small part of it (40 to 70 px long at the
    # fine look is what the finder learnt from hands).
    assert corners[..., 0].min() >= 0 and corners[..., 0].max() < image.shape[1]
    assert corners[..., 1].min() >= 0 and corners[..., 1].max() < image.shape[0]
    assert 25 < float(np.median(_long_sides(corners))) < 110


def _median_face_grey(data: bytes, corners: np.ndarray) -> float:
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    faces = np.zeros(image.shape, np.uint8)
    for quad in corners:
        cv2.fillPoly(faces, [np.round(quad).astype(np.int32)], 255)
    return float(np.median(image[faces > 0]))


def test_the_dark_table_scenes_are_black_tiles_and_other_tables_than_the_usual_ones() -> None:
    medians = []
    for seed in range(3):
        data, corners = render_dark_table_sample(seed)
        assert len(corners) >= 15
        medians.append(_median_face_grey(data, corners))
        assert data != render_table_sample(seed)[0]
    # Black faces with a few white pips: most of each face is dark.
    assert max(medians) < 90


def test_the_reader_mix_draws_blank_halves_where_it_says() -> None:
    blank_seeds = [s for s in range(60) if READER_MIX.get(s % MIX_PERIOD) == "blank_halves"]
    assert blank_seeds
    listed = blanks = 0
    for seed in blank_seeds:
        scene = training_scene(seed, low_views=False, mix=True)
        listed += len(scene.tiles)
        blanks += sum(1 for tile in scene.tiles if 0 in tile.pips)
    assert blanks >= listed // 3
    # Without the mix the same seeds are usual hands.
    plain = training_scene(blank_seeds[0], low_views=False)
    mixed = training_scene(blank_seeds[0], low_views=False, mix=True)
    assert not np.array_equal(plain.image, mixed.image)


def test_the_face_down_checks_crops_print_names_on_about_half_the_backs_only() -> None:
    seeds = range(1000, 1400)
    plain = [make_sample(seed) for seed in seeds]
    printed = [make_sample(seed, printed_backs=True) for seed in seeds]
    not_a_half = changed = 0
    for (plain_crop, plain_labels), (printed_crop, printed_labels) in zip(
        plain, printed, strict=True
    ):
        assert printed_labels == plain_labels
        differs = not np.array_equal(plain_crop, printed_crop)
        if plain_labels == (NOT_A_HALF, NOT_A_HALF) and differs:
            changed += 1
        elif differs:
            raise AssertionError("only face-down crops may change")
        not_a_half += plain_labels == (NOT_A_HALF, NOT_A_HALF)
    # Face-down tiles are 40% of the "not a half" crops (bare table and straddles the rest),
    # and half of them get a printed name: about a fifth.
    assert 0.1 * not_a_half <= changed <= 0.35 * not_a_half


def test_crops_with_printed_backs_are_cached_apart_from_plain_ones() -> None:
    plain = halves_data.chunk_path((0, 1000))
    halves_data.use_printed_backs(True)
    try:
        printed = halves_data.chunk_path((0, 1000))
    finally:
        halves_data.use_printed_backs(False)
    assert plain != printed
    assert halves_data.chunk_path((0, 1000)) == plain


def test_the_readers_coloured_crops_keep_their_labels_and_are_a_fifth() -> None:
    seeds = range(2000, 2200)
    changed = 0
    for seed in seeds:
        plain_crop, plain_labels = make_sample(seed)
        coloured_crop, coloured_labels = make_sample(seed, coloured_bodies=True)
        assert coloured_labels == plain_labels
        changed += not np.array_equal(plain_crop, coloured_crop)
    assert 0.12 * len(seeds) <= changed <= 0.3 * len(seeds)
    halves_data.use_coloured_bodies(True)
    try:
        coloured = halves_data.chunk_path((0, 1000))
    finally:
        halves_data.use_coloured_bodies(False)
    assert coloured != halves_data.chunk_path((0, 1000))


def _high_halves(seeds: range) -> tuple[int, int]:
    """How many face halves of the seeds' crops show 13 to 18 pips, of how many."""
    labels = [make_sample(seed)[1] for seed in seeds]
    faces = [half for pair in labels if pair != (NOT_A_HALF, NOT_A_HALF) for half in pair]
    return sum(half >= 13 for half in faces), len(faces)


def test_more_halves_show_thirteen_to_eighteen_only_when_asked_and_are_cached_apart() -> None:
    seeds = range(3000, 3150)
    usual, faces = _high_halves(seeds)
    plain = halves_data.chunk_path((0, 1000))
    halves_data.use_high_counts(0.5)
    try:
        high, high_faces = _high_halves(seeds)
        high_path = halves_data.chunk_path((0, 1000))
    finally:
        halves_data.use_high_counts()
    assert usual <= 0.12 * faces
    assert 0.4 * high_faces <= high <= 0.6 * high_faces
    assert high_path != plain and halves_data.chunk_path((0, 1000)) == plain
    with pytest.raises(ValueError):
        halves_data.use_high_counts(1.5)
