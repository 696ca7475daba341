"""The real-photo manifest: complete entries, no reserved source, no dev photo (issue 25)."""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from training.real_photos import (
    MANIFEST,
    REQUIRED,
    RESERVED_SOURCES,
    check,
    dev_photo_sha256,
    fetch,
    load_manifest,
    manifest_problems,
    read_counts,
    record,
    settle,
)

DEV_MANIFEST = Path(__file__).resolve().parents[3] / "shared" / "photos" / "dev" / "manifest.json"


@pytest.fixture(scope="module")
def entries() -> list[dict[str, Any]]:
    return load_manifest(MANIFEST)


@pytest.fixture(scope="module")
def dev_sha256() -> frozenset[str]:
    if not DEV_MANIFEST.is_file():
        pytest.skip("the shared dev photos are not beside this checkout")
    return dev_photo_sha256(DEV_MANIFEST)


def test_committed_manifest_is_fit_to_use(
    entries: list[dict[str, Any]], dev_sha256: frozenset[str]
) -> None:
    assert len(entries) >= 300
    assert manifest_problems(entries, dev_sha256) == []


def test_every_entry_has_the_required_fields(entries: list[dict[str, Any]]) -> None:
    for entry in entries:
        assert set(REQUIRED) <= set(entry), entry["file"]


def test_a_reserved_source_or_dev_photo_is_caught(entries: list[dict[str, Any]]) -> None:
    reserved = copy.deepcopy(entries[0])
    reserved["source_repo"] = sorted(RESERVED_SOURCES)[0].upper()
    dev_copy = copy.deepcopy(entries[1])
    incomplete = {k: v for k, v in entries[2].items() if k != "licence"}
    problems = manifest_problems([reserved, dev_copy, incomplete], frozenset({dev_copy["sha256"]}))
    assert len(problems) == 3
    assert "reserved source" in problems[0]
    assert "dev photos" in problems[1]
    assert "missing licence" in problems[2]


def test_the_reserved_list_is_read_whole() -> None:
    """Every ``- owner/name`` line of training/data/reserved_sources.md (13 repositories)."""
    assert len(RESERVED_SOURCES) == 13
    assert all(name.count("/") == 1 and " " not in name for name in RESERVED_SOURCES)


def _repo_with_photo(tmp_path: Path, data: bytes) -> tuple[Path, str]:
    clone = tmp_path / "sources" / "someone__dominoes"
    clone.mkdir(parents=True)
    (clone / "hand.jpg").write_bytes(data)
    git = ["git", "-C", str(clone), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "photo"], check=True)
    head = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True)
    return tmp_path / "sources", head.stdout.strip()


def _entry(commit: str, data: bytes) -> dict[str, Any]:
    return {
        "file": "someone__dominoes/hand.jpg",
        "source_repo": "someone/dominoes",
        "source_commit": commit,
        "source_path": "hand.jpg",
        "sha256": hashlib.sha256(data).hexdigest(),
        "scene": "hand",
        "licence": "none stated",
        "counts": {"first": None, "second": None},
        "label": None,
    }


def test_fetch_assembles_photos_from_a_clone_and_check_agrees(tmp_path: Path) -> None:
    data = b"not really a jpeg, but bytes with a hash"
    sources, commit = _repo_with_photo(tmp_path, data)
    dest = tmp_path / "photos"
    assert check([_entry(commit, data)], dest) == ["someone__dominoes/hand.jpg: not fetched yet"]
    assert fetch(sources, [_entry(commit, data)], dest) == []
    assert (dest / "someone__dominoes" / "hand.jpg").read_bytes() == data
    assert check([_entry(commit, data)], dest) == []


def test_fetch_refuses_a_photo_that_differs_from_the_one_counted(tmp_path: Path) -> None:
    sources, commit = _repo_with_photo(tmp_path, b"the photo as it is now")
    entry = _entry(commit, b"the photo as it was counted")
    problems = fetch(sources, [entry], tmp_path / "photos")
    assert problems == ["someone__dominoes/hand.jpg: the copy found differs from the one counted"]
    assert not (tmp_path / "photos" / "someone__dominoes" / "hand.jpg").exists()


def test_manifest_file_is_plain_json_with_a_photos_list() -> None:
    data = json.loads(MANIFEST.read_text())
    assert data["format"] == 1 and isinstance(data["photos"], list)


def _uncounted(file: str) -> dict[str, Any]:
    return {"file": file, "counts": {"first": None, "second": None}, "label": None}


def _count(file: str, tiles: list[list[int]], counter: str) -> dict[str, dict[str, Any]]:
    line = {"file": file, "tiles": tiles, "counter": counter}
    return {file: {**line, "cut_by_frame": [], "unreadable": 0, "note": ""}}


def test_two_agreeing_counts_settle_a_photo_and_differing_ones_wait_for_a_third_look() -> None:
    agree, differ = _uncounted("a.jpg"), _uncounted("b.jpg")
    assert record([agree, differ], _count("a.jpg", [[2, 5], [6, 6]], "ann"), "first") == []
    record([agree, differ], _count("b.jpg", [[3, 2]], "ann"), "first")
    record([agree, differ], _count("a.jpg", [[6, 6], [5, 2]], "bob"), "second")
    record([agree, differ], _count("b.jpg", [[2, 1]], "bob"), "second")
    (left,) = settle([agree, differ])
    assert agree["label"]["tiles"] == [(5, 2), (6, 6)]
    assert differ["label"] is None and "b.jpg" in left and "(3, 2)" in left
    settle([agree, differ], _count("b.jpg", [[3, 2]], "cy"))
    assert differ["label"]["how"] == "third look (cy)"


def test_one_counter_cannot_fill_both_counts_of_a_photo() -> None:
    photo = _uncounted("a.jpg")
    record([photo], _count("a.jpg", [[1, 0]], "ann"), "first")
    (problem,) = record([photo], _count("a.jpg", [[1, 0]], "ann"), "second")
    assert "already counted" in problem
    assert photo["counts"]["second"] is None


def test_a_line_of_play_is_labelled_with_its_open_ends_only_when_both_counts_agree_on_them(
    tmp_path: Path,
) -> None:
    counts = tmp_path / "counts.jsonl"
    counts.write_text(
        '{"file": "a.jpg", "tiles": [[3, 6], [3, 3]], "counter": "ann", "open_ends": [6, 3]}\n'
        '{"file": "b.jpg", "tiles": [[4, 2]], "counter": "ann", "open_ends": [2, 4]}\n'
    )
    agree, differ = _uncounted("a.jpg"), _uncounted("b.jpg")
    record([agree, differ], read_counts(counts), "first")
    counts.write_text(
        '{"file": "a.jpg", "tiles": [[6, 3], [3, 3]], "counter": "bob", "open_ends": [3, 6]}\n'
        '{"file": "b.jpg", "tiles": [[4, 2]], "counter": "bob", "open_ends": [4, 4]}\n'
    )
    record([agree, differ], read_counts(counts), "second")
    (left,) = settle([agree, differ])
    assert agree["label"]["open_ends"] == [3, 6]
    assert differ["label"] is None and "open ends" in left
