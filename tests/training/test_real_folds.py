"""The corpus's sources split into folds by source (issue 25): each in exactly one."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from training import score_real
from training.real_folds import (
    BOARDS,
    FOLD_NAMES,
    FOLDS,
    OTHERS,
    UnplacedSourceError,
    fold_of,
    parse_fold,
    split_sources,
)
from training.real_photos import MANIFEST, load_manifest


def test_no_source_sits_in_two_folds() -> None:
    named = Counter(source for sources in FOLDS.values() for source in sources)
    assert [source for source, times in named.items() if times > 1] == []


def test_every_manifest_source_sits_in_one_fold() -> None:
    sources = {entry["source_repo"] for entry in load_manifest(MANIFEST)}
    split = split_sources(sources)
    assert sorted(source for fold in split.values() for source in fold) == sorted(sources)
    assert all(split[fold] for fold in FOLD_NAMES), "a fold with no photo holds nothing out"


def test_the_board_game_sources_share_one_fold() -> None:
    boards = [
        entry["source_repo"]
        for entry in load_manifest(MANIFEST)
        if "double" in entry["source_repo"].lower() and "domino" in entry["source_repo"].lower()
    ]
    assert boards and {fold_of(source) for source in boards} == {BOARDS}


def test_a_source_in_no_fold_is_refused() -> None:
    with pytest.raises(UnplacedSourceError, match="someone/new-dominoes"):
        fold_of("someone/new-dominoes")


def test_folds_are_named_on_the_command_line_by_short_names() -> None:
    assert parse_fold("Boards") == BOARDS
    assert parse_fold("others") == OTHERS
    with pytest.raises(ValueError, match="boards"):
        parse_fold("dev")


def test_score_real_reads_only_the_fold_asked_for(tmp_path: Path) -> None:
    blank = tmp_path / "photos"
    blank.mkdir()
    entries = []
    for name, source in (("a.png", "JackRoache/METR4202-2016"), ("b.png", "MikeyGBG/BETR-")):
        Image.new("RGB", (320, 240), (90, 120, 90)).save(blank / name)
        entries.append(
            {
                "file": name,
                "source_repo": source,
                "set": "double-6",
                "scene": "hand",
                "label": {"tiles": [[1, 0]], "cut_by_frame": []},
            }
        )
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"photos": entries}))
    out = tmp_path / "scores.json"
    args = ["--photos", str(blank), "--manifest", str(manifest), "--out", str(out)]
    score_real.main([*args, "--fold", "webcam"])
    assert [score["file"] for score in json.loads(out.read_text())] == ["a.png"]
