"""The synthetic renderer: deterministic, honest labels, right pip layouts."""

from __future__ import annotations

import dataclasses
from typing import Any

import cv2
import numpy as np
import pytest

from training.synth import (
    MAX_PIPS,
    TileStyle,
    layout_variants,
    pip_layout,
    random_style,
    render_back_texture,
    render_face_texture,
    render_scene,
    render_tile_crop,
)
from vision.rectify import CROP_HEIGHT, CROP_WIDTH


def test_same_seed_same_scene_and_different_seed_differs() -> None:
    first = render_scene(11, size=(480, 360), n_tiles=(2, 4))
    again = render_scene(11, size=(480, 360), n_tiles=(2, 4))
    other = render_scene(12, size=(480, 360), n_tiles=(2, 4))
    assert np.array_equal(first.image, again.image)
    assert [t.pips for t in first.tiles] == [t.pips for t in again.tiles]
    assert not np.array_equal(first.image, other.image)


@pytest.mark.parametrize("seed", range(4))
def test_listed_tiles_are_inside_and_well_formed(seed: int) -> None:
    width, height = 640, 480
    scene = render_scene(seed, size=(width, height), n_tiles=(1, 8), set_max=12)
    assert scene.image.shape == (height, width, 3) and scene.image.dtype == np.uint8
    assert 1 <= len(scene.tiles) <= 8
    for tile in scene.tiles:
        assert 0 <= tile.pips[1] <= tile.pips[0] <= 12
        corners = tile.corners
        assert corners.shape == (4, 2)
        assert np.all(corners >= 0) and np.all(corners[:, 0] < width)
        assert np.all(corners[:, 1] < height)
        x, y = corners[:, 0], corners[:, 1]
        signed_area = float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
        assert signed_area > 0, "corners must run clockwise on screen"
        edges = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
        assert edges[0] > edges[1] and edges[2] > edges[3], "first edge must be a long one"


@pytest.mark.parametrize("seed", [5, 6])
def test_listed_corners_sit_on_a_tile_face(seed: int) -> None:
    """Inside a listed outline: a light tile body with dark pips and divider on it."""
    scene = render_scene(seed, size=(800, 600), n_tiles=(3, 3), style="white_black")
    gray = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY).astype(float)
    for tile in scene.tiles:
        centre = tile.corners.mean(axis=0)
        inner = np.zeros(gray.shape, np.uint8)
        cv2.fillConvexPoly(
            inner, np.round(centre + 0.85 * (tile.corners - centre)).astype(np.int32), 1
        )
        face = gray[inner > 0]
        body, marks = np.percentile(face, 75), np.percentile(face, 3)
        # Exposure scales both, so compare them as a ratio.
        assert body > 1.4 * marks + 5


def _count_blobs(half: np.ndarray) -> int:
    gray = cv2.cvtColor(half, cv2.COLOR_BGR2GRAY)
    _, dark = cv2.threshold(gray, 128, 255, cv2.THRESH_BINARY_INV)
    count, _, stats, _ = cv2.connectedComponentsWithStats(dark)
    return sum(1 for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= 12)


@pytest.mark.parametrize("count", range(MAX_PIPS + 1))
def test_pip_layouts_render_the_right_number_of_pips(count: int) -> None:
    rng = np.random.default_rng(count)
    style = dataclasses.replace(
        random_style(rng, "white_black"),
        body=(245.0, 245.0, 245.0),
        divider=(245.0, 245.0, 245.0),
        spinner=False,
        engraved=False,
        corner_radius=0.02,
        pip_scale=1.0,
        layout_spread=1.0,
    )
    texture, _ = render_face_texture((count, MAX_PIPS - count), style, 240, rng)
    image = np.clip(texture, 0, 255).astype(np.uint8)
    middle = image.shape[1] // 2
    margin = 6  # the bevel darkens the rim
    assert _count_blobs(image[margin:-margin, margin : middle - 2]) == count
    assert _count_blobs(image[margin:-margin, middle + 2 : -margin]) == MAX_PIPS - count


def test_layouts_stay_inside_their_half() -> None:
    for count in range(MAX_PIPS + 1):
        points, radius = pip_layout(count)
        assert len(points) == count
        if count:
            assert points.min() - radius > 0 and points.max() + radius < 1


def _clean_style(rng: np.random.Generator, dense_variants: bool = True) -> TileStyle:
    return dataclasses.replace(
        random_style(rng, "white_black"),
        body=(245.0, 245.0, 245.0),
        divider=(245.0, 245.0, 245.0),
        spinner=False,
        engraved=False,
        corner_radius=0.02,
        pip_scale=1.0,
        layout_spread=1.0,
        dense_variants=dense_variants,
    )


def test_every_arrangement_has_the_right_count_inside_the_half_without_touching_pips() -> None:
    assert [layout_variants(n) for n in (9, 10, 11, 12, 13)] == [1, 4, 4, 4, 1]
    for count in range(2, MAX_PIPS + 1):
        for variant in range(layout_variants(count)):
            points, radius = pip_layout(count, variant)
            assert len(points) == count
            assert points.min() - radius > 0 and points.max() + radius < 1
            gaps = np.linalg.norm(points[:, None] - points[None], axis=2) + 9 * np.eye(count)
            assert gaps.min() > 2.5 * radius, (count, variant)


@pytest.mark.parametrize("count", [10, 11, 12])
def test_dense_halves_render_the_right_number_of_pips_whatever_their_arrangement(
    count: int,
) -> None:
    for seed in range(4):
        rng = np.random.default_rng(seed)
        texture, _ = render_face_texture((count, count), _clean_style(rng), 240, rng)
        image = np.clip(texture, 0, 255).astype(np.uint8)
        middle, margin = image.shape[1] // 2, 6
        assert _count_blobs(image[margin:-margin, margin : middle - 2]) == count
        assert _count_blobs(image[margin:-margin, middle + 2 : -margin]) == count


def _face(pips: tuple[int, int], seed: int, dense_variants: bool) -> np.ndarray:
    rng = np.random.default_rng(seed)
    texture, _ = render_face_texture(pips, _clean_style(rng, dense_variants), 96, rng)
    return texture


def test_only_10_to_12_get_other_arrangements() -> None:
    for seed in range(3):
        for pips in [(9, 0), (8, 3), (13, 18), (7, 7)]:
            assert np.array_equal(_face(pips, seed, True), _face(pips, seed, False))
    changed = [
        not np.array_equal(_face((n, n), seed, True), _face((n, n), seed, False))
        for n in (10, 11, 12)
        for seed in range(3)
    ]
    assert sum(changed) >= 5


def test_unknown_arrangements_are_refused() -> None:
    with pytest.raises(ValueError, match="layouts 0..3"):
        pip_layout(11, 4)
    with pytest.raises(ValueError, match="layouts 0..0"):
        pip_layout(9, 1)


@pytest.mark.parametrize("kind", ["face", "back", "background", "straddle"])
def test_tile_crops_have_the_canonical_shape_and_are_deterministic(kind: str) -> None:
    crop = render_tile_crop(3, (6, 2), kind=kind)
    assert crop.shape == (CROP_HEIGHT, CROP_WIDTH, 3) and crop.dtype == np.uint8
    assert np.array_equal(crop, render_tile_crop(3, (6, 2), kind=kind))


def test_bad_arguments_are_refused_with_a_message() -> None:
    with pytest.raises(ValueError, match="0..18"):
        render_tile_crop(0, (19, 0))
    with pytest.raises(ValueError, match="kind"):
        render_tile_crop(0, (1, 0), kind="sideways")
    with pytest.raises(ValueError, match="style"):
        render_scene(0, style="plaid")


def test_scene_tiles_say_which_end_shows_which_count() -> None:
    """The end a listed tile names as blank (``half_pips``) is the plain one in the picture,
    so crops cut along any other outline can be labelled end by end."""
    checked = 0
    for seed in range(30):
        scene = render_scene(seed, size=(900, 700), n_tiles=(1, 1), set_max=3, style="white_black")
        (tile,) = scene.tiles
        assert tile.half_centres is not None and tile.half_centres.shape == (2, 2)
        assert sorted(tile.half_pips, reverse=True) == list(tile.pips)
        if tile.pips[1] != 0 or tile.pips[0] == 0:
            continue
        gray = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY).astype(float)
        short_side = float(np.linalg.norm(tile.corners[1] - tile.corners[2]))
        ink = []
        for centre in tile.half_centres:
            disc = np.zeros(gray.shape, np.uint8)
            cv2.circle(disc, tuple(int(v) for v in centre), int(short_side * 0.28), 1, -1)
            values = gray[disc > 0]
            ink.append(float(np.mean(values < np.median(values) - 25)))
        blank = tile.half_pips.index(0)
        if ink[1 - blank] < 0.02:
            continue  # glare can wash a lone pip out
        assert ink[blank] < 0.5 * ink[1 - blank], (seed, tile.half_pips, ink)
        checked += 1
    assert checked >= 4


def _aspect_distortion(scene_tiles: object) -> list[float]:
    """How far each listed face's outline is from a domino's 2:1 shape (|log ratio|)."""
    values = []
    for tile in scene_tiles:  # type: ignore[attr-defined]
        edges = np.linalg.norm(np.roll(tile.corners, -1, axis=0) - tile.corners, axis=1)
        along, across = (edges[0] + edges[2]) / 2, (edges[1] + edges[3]) / 2
        values.append(abs(float(np.log(along / across / 2.0))))
    return values


def test_low_view_scenes_look_at_tiles_from_low_across_the_table() -> None:
    """A seated player's shot: faces squashed by the steep view far more than in the usual
    shots, and still well-formed listed tiles inside the picture."""
    width, height = 640, 480
    low: list[float] = []
    usual: list[float] = []
    for seed in range(6):
        scene = render_scene(seed, size=(width, height), n_tiles=(1, 8), low_view=True)
        assert 1 <= len(scene.tiles) <= 8
        for tile in scene.tiles:
            assert np.all(tile.corners >= 0) and np.all(tile.corners[:, 0] < width)
            assert np.all(tile.corners[:, 1] < height)
        low += _aspect_distortion(scene.tiles)
        usual += _aspect_distortion(render_scene(seed, size=(width, height)).tiles)
    assert np.median(low) > 1.5 * np.median(usual)
    again = render_scene(3, size=(width, height), n_tiles=(1, 8), low_view=True)
    first = render_scene(3, size=(width, height), n_tiles=(1, 8), low_view=True)
    assert np.array_equal(first.image, again.image)


def test_tiles_stood_up_face_the_low_camera() -> None:
    """A seated player's hand stood up in front of them: from the same low camera as a low
    shot, the stood-up faces keep nearly a domino's shape where tiles lying flat are squashed
    (the scene has both), and every listed face stays inside the picture."""
    width, height = 640, 480
    standing: list[float] = []
    low: list[float] = []
    for seed in range(8):
        scene = render_scene(seed, size=(width, height), standing=True)
        assert scene.tiles
        for tile in scene.tiles:
            assert np.all(tile.corners >= 0) and np.all(tile.corners[:, 0] < width)
            assert np.all(tile.corners[:, 1] < height)
        standing += _aspect_distortion(scene.tiles)
        low += _aspect_distortion(render_scene(seed, size=(width, height), low_view=True).tiles)
    # Faces within a fifth (log ratio) of a domino's 2:1 shape: the rows stood up bring many.
    assert np.mean(np.array(standing) < 0.2) > 2 * np.mean(np.array(low) < 0.2)
    first = render_scene(5, size=(width, height), standing=True)
    again = render_scene(5, size=(width, height), standing=True)
    assert np.array_equal(first.image, again.image)


def test_close_ups_show_one_to_three_big_tiles() -> None:
    width, height = 640, 480
    for seed in range(8):
        scene = render_scene(seed, size=(width, height), close_up=True)
        assert 1 <= len(scene.tiles) <= 3
        for tile in scene.tiles:
            edges = np.linalg.norm(np.roll(tile.corners, -1, axis=0) - tile.corners, axis=1)
            assert max(edges) > 0.2 * height  # far bigger than in a usual hand
            assert np.all(tile.corners >= 0) and np.all(tile.corners[:, 0] < width)


def test_printed_backs_carry_ink_and_are_never_listed() -> None:
    plain = random_style(np.random.default_rng(3))
    printed = dataclasses.replace(plain, printed_back=True)
    plain_back, _ = render_back_texture(plain, 60, np.random.default_rng(4))
    printed_back, _ = render_back_texture(printed, 60, np.random.default_rng(4))
    assert printed_back.std() > 3 * plain_back.std()
    for seed in range(6):
        scene = render_scene(seed, size=(640, 480), printed_backs=True, n_tiles=(2, 5))
        assert 2 <= len(scene.tiles) <= 5  # the face-down tiles come on top, unlisted


def test_a_back_printed_at_one_end_leaves_the_other_end_plain() -> None:
    plain = random_style(np.random.default_rng(3))
    at_end = dataclasses.replace(plain, printed_back=True, printed_back_at_end=True)
    inked_ends = []
    for seed in range(8):
        back, _ = render_back_texture(at_end, 60, np.random.default_rng(seed))
        middle = back.shape[1] // 2
        # Ignore the bevelled rim; compare each end's spread of brightness.
        spreads = [back[8:-8, 8 : middle - 4].std(), back[8:-8, middle + 4 : -8].std()]
        assert max(spreads) > 3 * min(spreads)
        inked_ends.append(int(np.argmax(spreads)))
    assert set(inked_ends) == {0, 1}  # either end may carry the name


def test_blank_halves_come_in_a_colour_dot_set() -> None:
    blanks = 0
    listed = 0
    for seed in range(6):
        scene = render_scene(seed, size=(640, 480), blank_halves=True, n_tiles=(4, 8))
        listed += len(scene.tiles)
        blanks += sum(1 for tile in scene.tiles if 0 in tile.pips)
    assert blanks >= listed // 3  # about half, where a usual hand has one in seven


def test_leaning_tiles_are_drawn_shorter_than_they_lie() -> None:
    def long_sides(scene: Any) -> list[float]:
        sides = []
        for tile in scene.tiles:
            edges = np.linalg.norm(np.roll(tile.corners, -1, axis=0) - tile.corners, axis=1)
            sides.append(float((edges[0] + edges[2]) / (edges[1] + edges[3])))
        return sides

    flat: list[float] = []
    leaning: list[float] = []
    for seed in range(8):
        flat += long_sides(render_scene(seed, size=(640, 480), n_tiles=(3, 6), max_tilt_deg=5))
        leaning += long_sides(
            render_scene(seed, size=(640, 480), n_tiles=(3, 6), max_tilt_deg=5, leaning=True)
        )
    # Seen from above, a tile propped up at one end looks squatter than the flat tiles.
    assert min(leaning) < 0.9 * min(flat)


def _table_and_face_contrast(scene: Any) -> float:
    """How far the colour of the table around the listed tiles is from their faces' (BGR)."""
    image = scene.image.astype(np.float32)
    faces = np.zeros(image.shape[:2], np.uint8)
    for tile in scene.tiles:
        cv2.fillConvexPoly(faces, np.round(tile.corners).astype(np.int32), 1)
    near = cv2.dilate(faces, np.ones((41, 41), np.uint8)) - faces
    # Medians, so that the pips on the faces do not count as the faces' colour.
    face, table = np.median(image[faces == 1], axis=0), np.median(image[near == 1], axis=0)
    return float(np.linalg.norm(face - table))


def test_pale_tables_are_nearly_the_colour_of_their_white_tiles() -> None:
    pale = [
        _table_and_face_contrast(
            render_scene(seed, size=(640, 480), n_tiles=(2, 5), pale_table=True)
        )
        for seed in range(8)
    ]
    usual = [
        _table_and_face_contrast(
            render_scene(seed, size=(640, 480), n_tiles=(2, 5), style="white_black")
        )
        for seed in range(8)
    ]
    # Faces with black pips on a table of their own colour stand out far less than usual.
    assert float(np.median(pale)) < 0.5 * float(np.median(usual))


@pytest.mark.parametrize("seed", range(3))
def test_printed_dominoes_are_drawn_but_never_listed(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A board game's printed score track or a box lid's picture is not a tile: the finder must
    # learn to pass it over, so it is never among the listed tiles, and drawing it moves none.
    import training.synth as synth

    pasted: list[np.ndarray] = []
    real_paste = synth._paste_flat

    def paste(canvas: np.ndarray, texture: np.ndarray, alpha: np.ndarray, corners: Any) -> None:
        pasted.append(np.asarray(corners))
        real_paste(canvas, texture, alpha, corners)

    monkeypatch.setattr(synth, "_paste_flat", paste)
    plain = render_scene(seed, size=(640, 480), n_tiles=(2, 6), max_tilt_deg=20)
    assert pasted == []
    printed = render_scene(
        seed, size=(640, 480), n_tiles=(2, 6), max_tilt_deg=20, printed_dominoes=True
    )
    assert pasted  # a track or rows of prints, some of it in view
    assert [t.pips for t in printed.tiles] == [t.pips for t in plain.tiles]
    for ours, theirs in zip(printed.tiles, plain.tiles, strict=True):
        assert np.allclose(ours.corners, theirs.corners)
    empty = render_scene(seed, size=(640, 480), n_tiles=(0, 0), printed_dominoes=True)
    assert empty.tiles == ()


def test_benchmarks_can_render_the_same_tops_with_or_without_sample_photos(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import training.synth as synth

    red = np.zeros((50, 50, 3), np.uint8)
    red[:, :, 2] = 255

    def tops() -> list[np.ndarray]:
        return [synth.render_background(np.random.default_rng(s), 40, 60, 5.0) for s in range(40)]

    monkeypatch.setattr(synth, "_sample_photos", lambda: (red,))
    monkeypatch.setattr(synth, "_with_sample_photos", True)  # the tests turn them off
    with_photos = tops()
    synth.use_sample_photos(False)
    turned_off = tops()
    synth.use_sample_photos(True)
    monkeypatch.setattr(synth, "_sample_photos", lambda: ())
    cloth_only = tops()
    assert all(np.array_equal(a, b) for a, b in zip(turned_off, cloth_only, strict=True))
    assert any(not np.array_equal(a, b) for a, b in zip(with_photos, cloth_only, strict=True))


def _edges_off_the_tiles(scene: Any) -> int:
    """Hard edges in the picture away from its listed tiles (the table and what lies on it)."""
    gray = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
    off = np.ones(gray.shape, np.uint8)
    for tile in scene.tiles:
        cv2.fillConvexPoly(off, np.round(tile.corners).astype(np.int32), 0)
    off = cv2.erode(off, np.ones((9, 9), np.uint8))
    return int(np.count_nonzero(cv2.Canny(gray, 80, 200)[off > 0]))


@pytest.mark.parametrize("low_view", [False, True])
def test_check_patterns_lie_under_the_same_tiles(low_view: bool) -> None:
    # A gingham cloth or a calibration checkerboard under the tiles: the finder learns that
    # their checks are no tiles, on scenes otherwise the seed's own.
    seeds = range(5_000_000, 5_000_006)
    plain = [render_scene(s, size=(512, 384), low_view=low_view) for s in seeds]
    checked = [
        render_scene(s, size=(512, 384), low_view=low_view, check_patterns=True) for s in seeds
    ]
    for before, after in zip(plain, checked, strict=True):
        assert [t.pips for t in before.tiles] == [t.pips for t in after.tiles]
        for a, b in zip(before.tiles, after.tiles, strict=True):
            np.testing.assert_array_equal(a.corners, b.corners)
        assert not np.array_equal(before.image, after.image)
    assert sum(map(_edges_off_the_tiles, checked)) > 3 * sum(map(_edges_off_the_tiles, plain))


def test_plain_black_tiles_have_white_pips_and_no_divider() -> None:
    rng = np.random.default_rng(3)
    for _ in range(5):
        style = random_style(rng, "plain_black")
        face, _alpha = render_face_texture((6, 6), style, 60, rng, flat=True)
        middle = face[10:-10, face.shape[1] // 2 - 2 : face.shape[1] // 2 + 2]
        assert middle.max() < 90  # the body's black, where other sets draw a pale bar
        assert face.max() > 200  # the pips
