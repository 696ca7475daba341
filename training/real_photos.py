"""The real-photo corpus: photos of dominoes from public repositories, for training and
for held-out-source figures (issue 25).

    python -m training.real_photos fetch --from DIR   # assemble the photos from local copies
    python -m training.real_photos list               # photos per source, scene and count state
    python -m training.real_photos check              # every photo present, with its sha256

The manifest, training/data/real_photos.json, names each photo by source repository, commit
and path, with its sha256 and the licence the repository states. Most sources state no
licence, so the photos themselves are not committed: `fetch` copies them out of local copies
of the sources into training/data/real_photos/ (git-ignored). DIR holds one entry per source,
named either ``owner__repo`` (an ordinary clone, whose .git is read) or ``owner+repo/repo``
(a bare snapshot); the photo is read from the manifest's commit, so a shallow clone of the
default branch is not enough for photos that only older commits hold.

Labels: each photo gets two independent counts ("first", "second"), settled into "label"
(by a third look where they disagree). A photo of a line of play also has its "open_ends",
the numbers every free end of the line offers (sorted), settled the same way: both counts
must agree on them too. "source_labels" is what the source itself provides
(ground-truth files, class names) and is only a hint until the counts confirm it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
MANIFEST = ROOT / "data" / "real_photos.json"
PHOTOS = ROOT / "data" / "real_photos"

RESERVED_LIST = ROOT / "data" / "reserved_sources.md"


def reserved_sources(path: Path = RESERVED_LIST) -> frozenset[str]:
    """The repositories (lower-cased ``owner/name``) kept for measuring the project from
    outside: nothing of theirs is read or trained on, and the manifest must never name one.
    They are listed in a Markdown file as ``- owner/name`` lines."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(
        line[2:].strip().lower() for line in lines if line.startswith("- ") and "/" in line
    )


RESERVED_SOURCES = reserved_sources()

SCENES = frozenset({"hand", "tiles in lines", "close-up", "box", "printed cards", "other"})
SETS = frozenset({"double-6", "double-9", "double-12", "double-15", "unknown"})
REQUIRED = (
    "file",
    "source_repo",
    "source_commit",
    "source_path",
    "sha256",
    "licence",
    "width",
    "height",
    "set",
    "colour_dots",
    "scene",
    "note",
    "source_labels",
    "source_labels_origin",
    "counts",
    "label",
)
COUNT_SLOTS = ("first", "second")


class ManifestError(ValueError):
    """The manifest is malformed or names something it must not."""


@dataclass(frozen=True)
class Photo:
    file: str
    source_repo: str
    source_commit: str
    source_path: str
    sha256: str
    scene: str
    licence: str
    counted: int  # how many of the two independent counts are in
    settled: bool


def load_manifest(path: Path = MANIFEST) -> list[dict[str, Any]]:
    data = json.loads(path.read_text())
    photos = data["photos"]
    if not isinstance(photos, list):
        raise ManifestError("the manifest's 'photos' is not a list")
    return photos


def manifest_problems(entries: Sequence[dict[str, Any]], dev_sha256: frozenset[str]) -> list[str]:
    """Every reason the manifest is not fit to use, in plain words (empty when it is)."""
    problems: list[str] = []
    seen: set[str] = set()
    for n, entry in enumerate(entries):
        name = entry.get("file", f"entry {n}")
        missing = [key for key in REQUIRED if key not in entry]
        if missing:
            problems.append(f"{name}: missing {', '.join(missing)}")
            continue
        if entry["source_repo"].lower() in RESERVED_SOURCES:
            problems.append(f"{name}: comes from a reserved source, {entry['source_repo']}")
        if entry["sha256"] in dev_sha256:
            problems.append(f"{name}: is one of the dev photos (kept for measuring only)")
        if entry["sha256"] in seen:
            problems.append(f"{name}: the same photo is listed twice")
        seen.add(entry["sha256"])
        if len(entry["source_commit"]) != 40:
            problems.append(f"{name}: the commit is not a full 40-character hash")
        if entry["scene"] not in SCENES:
            problems.append(f"{name}: unknown scene kind {entry['scene']!r}")
        if entry["set"] not in SETS:
            problems.append(f"{name}: unknown set {entry['set']!r}")
        if set(entry["counts"]) != set(COUNT_SLOTS):
            problems.append(f"{name}: counts must hold exactly {' and '.join(COUNT_SLOTS)}")
    return problems


def dev_photo_sha256(dev_manifest: Path) -> frozenset[str]:
    return frozenset(entry["sha256"] for entry in json.loads(dev_manifest.read_text()))


def _photo(entry: dict[str, Any]) -> Photo:
    counted = sum(entry["counts"][slot] is not None for slot in COUNT_SLOTS)
    return Photo(
        entry["file"],
        entry["source_repo"],
        entry["source_commit"],
        entry["source_path"],
        entry["sha256"],
        entry["scene"],
        entry["licence"],
        counted,
        entry["label"] is not None,
    )


def _git_dirs(source_dir: Path, repo: str) -> list[Path]:
    owner, name = repo.split("/", 1)
    return [
        source_dir / f"{owner}__{name}" / ".git",
        source_dir / f"{owner}__{name}",
        source_dir / f"{owner}+{name}" / "repo" / ".git",
        source_dir / f"{owner}+{name}" / "repo",
    ]


def _read_blob(source_dir: Path, photo: Photo) -> bytes | None:
    for git_dir in _git_dirs(source_dir, photo.source_repo):
        if not (git_dir / "HEAD").is_file():
            continue
        spec = f"{photo.source_commit}:{photo.source_path}"
        shown = subprocess.run(
            ["git", "--git-dir", str(git_dir), "show", spec],
            capture_output=True,
            check=False,
        )
        if shown.returncode == 0:
            return shown.stdout
    return None


def fetch(source_dir: Path, entries: Sequence[dict[str, Any]], dest: Path = PHOTOS) -> list[str]:
    """Copy every photo out of the local copies into dest; the problems, in plain words."""
    problems: list[str] = []
    for photo in map(_photo, entries):
        target = dest / photo.file
        if target.is_file() and hashlib.sha256(target.read_bytes()).hexdigest() == photo.sha256:
            continue
        data = _read_blob(source_dir, photo)
        if data is None:
            problems.append(
                f"{photo.file}: no local copy of {photo.source_repo} holds "
                f"{photo.source_path} at {photo.source_commit[:10]}"
            )
            continue
        if hashlib.sha256(data).hexdigest() != photo.sha256:
            problems.append(f"{photo.file}: the copy found differs from the one counted")
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return problems


def check(entries: Sequence[dict[str, Any]], dest: Path = PHOTOS) -> list[str]:
    problems: list[str] = []
    for photo in map(_photo, entries):
        target = dest / photo.file
        if not target.is_file():
            problems.append(f"{photo.file}: not fetched yet")
        elif hashlib.sha256(target.read_bytes()).hexdigest() != photo.sha256:
            problems.append(f"{photo.file}: differs from the photo that was counted")
    return problems


def summary(entries: Sequence[dict[str, Any]]) -> str:
    photos = [_photo(entry) for entry in entries]
    lines = [f"{len(photos)} photos from {len({p.source_repo for p in photos})} sources"]
    for repo, n in Counter(p.source_repo for p in photos).most_common():
        licence = next(p.licence for p in photos if p.source_repo == repo)
        lines.append(f"  {n:4d}  {repo}  (licence: {licence})")
    lines.append("by kind of scene:")
    lines += [f"  {n:4d}  {scene}" for scene, n in Counter(p.scene for p in photos).most_common()]
    counted = Counter(p.counted for p in photos)
    lines.append(
        f"counted twice: {counted[2]}, once: {counted[1]}, not yet: {counted[0]}; "
        f"settled: {sum(p.settled for p in photos)}"
    )
    return "\n".join(lines)


Pair = tuple[int, int]


def _pairs(tiles: Sequence[Sequence[int]]) -> list[Pair]:
    return sorted((max(a, b), min(a, b)) for a, b in tiles)


def read_counts(path: Path) -> dict[str, dict[str, Any]]:
    """One counter's counts from a JSON-lines file, by photo file; a later line for the same
    photo replaces an earlier one (a counter's own correction)."""
    counts: dict[str, dict[str, Any]] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            count = json.loads(line)
            counts[count["file"]] = {
                "tiles": _pairs(count["tiles"]),
                "cut_by_frame": count.get("cut_by_frame", []),
                "unreadable": int(count.get("unreadable", 0)),
                "counter": str(count["counter"]),
                "note": str(count.get("note", "")),
            }
            if count.get("open_ends") is not None:
                counts[count["file"]]["open_ends"] = sorted(int(end) for end in count["open_ends"])
                counts[count["file"]]["line"] = str(count.get("line", ""))
        except (ValueError, KeyError, TypeError) as error:
            raise ManifestError(f"{path}:{number}: not a count ({error})") from error
    return counts


def record(
    entries: Sequence[dict[str, Any]], counts: dict[str, dict[str, Any]], slot: str
) -> list[str]:
    """Put one counter's counts into ``slot`` of each photo's entry; the problems, in words.
    The same counter may not fill both slots of a photo."""
    problems: list[str] = []
    by_file = {entry["file"]: entry for entry in entries}
    other = COUNT_SLOTS[1 - COUNT_SLOTS.index(slot)]
    for file, count in counts.items():
        entry = by_file.get(file)
        if entry is None:
            problems.append(f"{file}: not in the manifest")
            continue
        theirs = entry["counts"][other]
        if theirs is not None and theirs["counter"] == count["counter"]:
            problems.append(f"{file}: {count['counter']} already counted it ({other})")
            continue
        entry["counts"][slot] = {**count, "tiles": _pairs(count["tiles"])}
    return problems


def record_source_labels(entries: Sequence[dict[str, Any]], slot: str) -> int:
    """Take the source's own labels (ground-truth files), where it has them, as ``slot``'s
    count: made by other people, from the game's record rather than from the photo, so
    independent of an eye count. Returns how many were taken."""
    taken = 0
    for entry in entries:
        labels = entry.get("source_labels")
        if labels is None or entry["counts"][slot] is not None:
            continue
        entry["counts"][slot] = {
            "tiles": _pairs(labels),
            "cut_by_frame": [],
            "unreadable": 0,
            "counter": f"source: {entry['source_labels_origin']}",
            "note": "",
        }
        taken += 1
    return taken


def settle(
    entries: Sequence[dict[str, Any]], third: dict[str, dict[str, Any]] | None = None
) -> list[str]:
    """Label every photo whose two counts agree on its tiles, and every photo a third look
    (``third``) settled; the photos whose counts still differ, each with what differs."""
    differ: list[str] = []
    for entry in entries:
        looked = (third or {}).get(entry["file"])
        if looked is not None:
            entry["label"] = {
                "tiles": looked["tiles"],
                "cut_by_frame": looked["cut_by_frame"],
                "how": f"third look ({looked['counter']})",
            }
            if "open_ends" in looked:
                entry["label"]["open_ends"] = looked["open_ends"]
            continue
        first, second = (entry["counts"][slot] for slot in COUNT_SLOTS)
        if first is None or second is None or entry["label"] is not None:
            continue
        a, b = Counter(map(tuple, first["tiles"])), Counter(map(tuple, second["tiles"]))
        ends = first.get("open_ends"), second.get("open_ends")
        if a == b and ends[0] != ends[1]:
            differ.append(
                f"{entry['file']}: the tiles agree, the open ends do not: first {ends[0]}, "
                f"second {ends[1]}"
            )
        elif a == b:
            cut = second["cut_by_frame"] or first["cut_by_frame"]
            label: dict[str, Any] = {
                "tiles": _pairs(first["tiles"]),
                "cut_by_frame": cut,
                "how": "counts agreed",
            }
            if ends[0] is not None:
                label["open_ends"] = ends[0]
            entry["label"] = label
        else:
            differ.append(
                f"{entry['file']}: only in the first count {sorted((a - b).elements())}, "
                f"only in the second {sorted((b - a).elements())}"
            )
    return differ


_PAIR_SPREAD = re.compile(r"\[\s+(-?\d+|null),\s+(-?\d+|null)\s+\]")


def save_manifest(data: dict[str, Any], path: Path = MANIFEST) -> None:
    """The manifest as indented JSON, each tile's pair of halves kept on one line."""
    text = json.dumps(data, indent=1, ensure_ascii=False)
    path.write_text(_PAIR_SPREAD.sub(r"[\1, \2]", text) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.real_photos", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    fetch_cmd = commands.add_parser("fetch", help="assemble the photos from local copies")
    fetch_cmd.add_argument("--from", dest="source_dir", type=Path, required=True)
    commands.add_parser("list", help="photos per source, scene and count state")
    commands.add_parser("check", help="every photo fetched, with the sha256 that was counted")
    record_cmd = commands.add_parser("record", help="put one counter's counts into the manifest")
    record_cmd.add_argument("--slot", choices=COUNT_SLOTS, required=True)
    given = record_cmd.add_mutually_exclusive_group(required=True)
    given.add_argument("--counts", type=Path, help="a counter's JSON-lines file")
    given.add_argument(
        "--source-labels", action="store_true", help="the sources' own labels, where they have them"
    )
    settle_cmd = commands.add_parser("settle", help="label the photos whose counts agree")
    settle_cmd.add_argument("--third", type=Path, help="JSON-lines file of third looks")
    args = parser.parse_args(argv)
    data = json.loads(MANIFEST.read_text())
    entries = load_manifest()
    if args.command == "list":
        print(summary(entries))
        return 0
    if args.command in ("record", "settle"):
        entries = data["photos"]
        if args.command == "record" and args.source_labels:
            print(f"{record_source_labels(entries, args.slot)} photos take their source's labels")
            problems = []
        elif args.command == "record":
            problems = record(entries, read_counts(args.counts), args.slot)
        else:
            problems = settle(entries, read_counts(args.third) if args.third else None)
        save_manifest(data)
        for problem in problems:
            print(problem)
        print(summary(entries))
        return 0
    if args.command == "fetch":
        if not args.source_dir.is_dir():
            print(f"{args.source_dir} is not a folder", file=sys.stderr)
            return 2
        problems = fetch(args.source_dir, entries)
    else:
        problems = check(entries)
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{len(entries) - len(problems)} of {len(entries)} photos in place under {PHOTOS}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
