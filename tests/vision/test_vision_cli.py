"""`python -m vision score`: the contract's JSON lines, error lines and exit codes."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from vision_scenes import draw_tile, png_bytes, table

from training.classical_finder import ClassicalTileFinder
from vision.cli import main
from vision.models import ModelPaths, ModelSet
from vision.pipeline import STEADY_TURNS, HandReader

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class FakeRead:
    pips: tuple[int, int]
    confidence: float
    is_tile: float
    alternatives: tuple[tuple[tuple[int, int], float], ...] = ()
    halves: tuple[int, int] | None = None


class FakeHalfReader:
    """Stands in for the ONNX reader: reads every crop as the given tiles, in order."""

    def __init__(self, reads: Sequence[FakeRead]) -> None:
        self.reads = list(reads)
        self.calls: list[int] = []

    def read(self, crops: np.ndarray, max_pips: int | None = None) -> list[FakeRead]:
        assert crops.shape[1:] == (64, 128, 3) and crops.dtype == np.uint8
        self.calls.append(len(crops))
        return self.reads[: len(crops)]


def _two_tile_photo(tmp_path: Path) -> Path:
    image = table(600, 900)
    draw_tile(image, (250, 250), 0.2, 200)
    draw_tile(image, (620, 380), -0.6, 200)
    path = tmp_path / "hand.png"
    path.write_bytes(png_bytes(image))
    return path


def _run(argv: list[str], reader: HandReader) -> tuple[int, list[dict[str, object]]]:
    out = io.StringIO()
    status = main(argv, out=out, reader=reader)
    return status, [json.loads(line) for line in out.getvalue().splitlines()]


def test_scores_a_photo_in_one_batched_read(tmp_path: Path) -> None:
    half_reader = FakeHalfReader([FakeRead((12, 0), 0.9, 0.99), FakeRead((5, 0), 0.8, 0.98)])
    status, lines = _run(
        ["score", str(_two_tile_photo(tmp_path))],
        HandReader(ModelSet(half_reader=half_reader, tile_finder=ClassicalTileFinder())),
    )
    assert status == 0
    # All tiles of a photo go to the model in one call; the unsure 5-0 is read again, once
    # for each turn of its outline, in one more.
    assert half_reader.calls == [2, len(STEADY_TURNS)]
    (line,) = lines
    assert set(line) == {"image", "width", "height", "ms", "tiles", "points"}
    assert (line["width"], line["height"]) == (900, 600)
    assert isinstance(line["ms"], int) and line["ms"] >= 0
    tiles = line["tiles"]
    assert isinstance(tiles, list) and len(tiles) == 2
    for tile in tiles:
        assert len(tile["corners"]) == 4
        assert all(0 <= x < 900 and 0 <= y < 600 for x, y in tile["corners"])
        assert 0.0 <= tile["confidence"] <= 1.0
    assert sorted(tuple(t["pips"]) for t in tiles) == [(5, 0), (12, 0)]
    assert line["points"] == 17


def test_blank_scoring_goes_through_the_rules_engine(tmp_path: Path) -> None:
    half_reader = FakeHalfReader([FakeRead((0, 0), 0.9, 0.99), FakeRead((6, 1), 0.9, 0.99)])
    photo = str(_two_tile_photo(tmp_path))
    _, plain = _run(
        ["score", photo],
        HandReader(ModelSet(half_reader=half_reader, tile_finder=ClassicalTileFinder())),
    )
    _, fifty = _run(
        ["score", photo, "--blank-scoring", "double_blank_50"],
        HandReader(ModelSet(half_reader=half_reader, tile_finder=ClassicalTileFinder())),
    )
    assert plain[0]["points"] == 7
    assert fifty[0]["points"] == 57


def test_crops_the_reader_rejects_are_dropped(tmp_path: Path) -> None:
    half_reader = FakeHalfReader([FakeRead((3, 2), 0.9, 0.97), FakeRead((4, 4), 0.9, 0.05)])
    _, lines = _run(
        ["score", str(_two_tile_photo(tmp_path))],
        HandReader(ModelSet(half_reader=half_reader, tile_finder=ClassicalTileFinder())),
    )
    assert [t["pips"] for t in lines[0]["tiles"]] == [[3, 2]]


def test_bad_files_get_error_lines_and_the_rest_are_still_scored(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo")
    truncated = tmp_path / "cut.png"
    truncated.write_bytes(png_bytes(table())[:500])
    blank = tmp_path / "table.png"
    blank.write_bytes(png_bytes(table()))
    missing = tmp_path / "missing.jpg"
    half_reader = FakeHalfReader([])
    paths = [empty, text, truncated, blank, missing]
    status, lines = _run(
        ["score", *map(str, paths)],
        HandReader(ModelSet(half_reader=half_reader, tile_finder=ClassicalTileFinder())),
    )
    assert status == 1
    assert [line["image"] for line in lines] == [str(p) for p in paths], (
        "one line per photo, in order"
    )
    for line in (lines[0], lines[1], lines[2], lines[4]):
        assert set(line) == {"image", "error"}
        assert isinstance(line["error"], str) and line["error"]
    assert lines[3]["tiles"] == [] and lines[3]["points"] == 0, "no dominoes is not an error"
    assert half_reader.calls == [], "no tiles found: the model is not called"


def test_gigantic_photo_is_refused(tmp_path: Path) -> None:
    from test_decode import _png_claiming

    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(_png_claiming(20000, 20000))
    status, lines = _run(
        ["score", str(bomb)],
        HandReader(ModelSet(half_reader=FakeHalfReader([]), tile_finder=ClassicalTileFinder())),
    )
    assert status == 1
    assert "too large" in str(lines[0]["error"])


def test_command_line_never_shows_a_traceback(tmp_path: Path) -> None:
    junk = tmp_path / "junk.heic"
    junk.write_bytes(b"\x00\x01garbage")
    blank = tmp_path / "table.png"
    blank.write_bytes(png_bytes(table(120, 160)))
    result = subprocess.run(
        [sys.executable, "-m", "vision", "score", str(junk), str(blank)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert "error" in first
    assert second["tiles"] == []


def test_unknown_blank_rule_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["score", "x.jpg", "--blank-scoring", "triple"], out=io.StringIO())
    assert exit_info.value.code == 2


def test_a_missing_model_is_one_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = tmp_path / "table.png"
    photo.write_bytes(png_bytes(table(120, 160)))
    out = io.StringIO()
    paths = ModelPaths(half_reader=tmp_path / "no-such-model.onnx")
    assert main(["score", str(photo)], out=out, paths=paths) == 2
    assert out.getvalue() == ""
    assert "tile reader is not available" in capsys.readouterr().err


def test_set_max_reports_no_half_the_set_cannot_hold(tmp_path: Path) -> None:
    """A double-15 hand read as a double-9 game: every half above 9 is read as the likeliest
    count a double-9 set holds, or the tile is dropped; none is reported above 9."""
    from training.synth import render_scene

    scenes = (render_scene(seed, set_max=15) for seed in range(40))
    scene = next(scene for scene in scenes if sum(max(t.pips) > 9 for t in scene.tiles) >= 2)
    path = tmp_path / "double-15.png"
    path.write_bytes(png_bytes(scene.image))
    reader = HandReader()
    _, unlimited = _run(["score", str(path)], reader)
    _, nine = _run(["score", str(path), "--set-max", "9"], reader)
    assert any(max(tile["pips"]) > 9 for tile in unlimited[0]["tiles"])
    assert nine[0]["tiles"], "the tiles a double-9 set holds are still read"
    assert all(max(tile["pips"]) <= 9 for tile in nine[0]["tiles"])


@pytest.mark.parametrize("value", ["-1", "19", "twelve", "12.5"])
def test_an_impossible_set_max_is_a_usage_error(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["score", "x.jpg", "--set-max", value], out=io.StringIO())
    assert exit_info.value.code == 2
    assert "--set-max" in capsys.readouterr().err
