"""Two readings of the real-photo corpus side by side, per fold, source and kind of scene.

    python -m training.compare_real BEFORE.json AFTER.json [AFTER2.json ...]

Each file is what `training.score_real --out` (or `training.real_crops --scores`) writes: one
score per photo. Several AFTER files are joined (one per held-out fold, each read by the
candidate trained without that fold). Only photos scored in both are compared.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from training.real_folds import fold_of
from training.real_photos import MANIFEST, load_manifest
from training.score_real import PhotoScore, Tally


def load_scores(paths: Sequence[Path]) -> dict[str, PhotoScore]:
    """Photo file -> its score, from score_real's JSON files."""
    scores: dict[str, PhotoScore] = {}
    for path in paths:
        for item in json.loads(path.read_text()):
            item["got"] = tuple(tuple(pair) for pair in item["got"])
            item["expected"] = tuple(tuple(pair) for pair in item["expected"])
            scores[item["file"]] = PhotoScore(**item)
    return scores


def figures(tally: Tally) -> tuple[float, float, float]:
    """Recall, precision and F1 of the tiles over a group of photos."""
    recall = tally.right / max(1, tally.wanted)
    precision = tally.right / max(1, tally.reported)
    return recall, precision, 2 * recall * precision / max(1e-9, recall + precision)


def comparison(
    entries: Sequence[dict[str, Any]], before: dict[str, PhotoScore], after: dict[str, PhotoScore]
) -> str:
    """Markdown tables: per fold, source and kind, exact / recall / precision / F1 before ->
    after."""
    groups: dict[str, dict[str, tuple[Tally, Tally]]] = defaultdict(dict)
    for entry in entries:
        name = entry["file"]
        if name not in before or name not in after:
            continue
        keys = {
            "fold": fold_of(entry["source_repo"]),
            "source": entry["source_repo"],
            "kind of scene": entry["scene"],
        }
        for title, key in [*keys.items(), ("fold", "**all**")]:
            pair = groups[title].setdefault(key, (Tally(), Tally()))
            pair[0].add(before[name])
            pair[1].add(after[name])
    lines: list[str] = []
    for title in ("fold", "source", "kind of scene"):
        lines.append(
            f"| {title} | photos | exact before → after | recall before → after "
            "| precision before → after | F1 before → after |"
        )
        lines.append("|---|---|---|---|---|---|")
        for key, (old, new) in sorted(
            groups[title].items(), key=lambda item: (item[0] == "**all**", -item[1][0].photos)
        ):
            a, b = figures(old), figures(new)
            lines.append(
                f"| {key} | {old.photos} | {old.exact} → {new.exact} | "
                + " | ".join(f"{x:.3f} → {y:.3f}" for x, y in zip(a, b, strict=True))
                + " |"
            )
        lines.append("")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.compare_real", description=__doc__)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path, nargs="+")
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    args = parser.parse_args(argv)
    print(
        comparison(
            load_manifest(args.manifest), load_scores([args.before]), load_scores(args.after)
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
