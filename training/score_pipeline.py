"""Score the whole pipeline on held-out rendered hands, usual and low shots apart.

    python -m training.score_pipeline [--scenes 200] [--first-look-only]

Each scene (the reader's held-out finder-crop seeds, from 3,900,000; every fifth a close low
shot) is encoded as a JPEG and read by the pipeline with the committed models, exactly as a
phone's photo is. Its tiles are compared with the rendered ones as multisets of pip pairs,
like `python -m training.evaluate` does on real photos. This is how a pipeline change is judged
before the dev photos are looked at.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2

from training.finder_crops_data import training_scene
from training.scenes_data import is_low_view
from vision.finder import TileFinder
from vision.models import ModelPaths, ModelSet
from vision.pipeline import HandReader

FIRST_SEED = 3_900_000


@dataclass
class Tally:
    """Counts over the scenes of one kind of shot."""

    wanted: int = 0
    reported: int = 0
    right: int = 0
    exact: int = 0
    scenes: int = 0
    ms: list[float] = field(default_factory=list)

    def line(self, name: str) -> str:
        return (
            f"{name:6} recall {self.right / max(self.wanted, 1):.3f}"
            f"  precision {self.right / max(self.reported, 1):.3f}"
            f"  exact {self.exact}/{self.scenes}  ({self.wanted} tiles)"
        )


def score(scenes: int, second_look: bool = True) -> dict[str, Tally]:
    """Tallies of the pipeline's readings of ``scenes`` rendered hands."""
    # The usual finder alone, read along its own outlines, as when this score was first kept.
    models = ModelSet.load(ModelPaths(close_up_finder=None, outline_fitter=None))
    reader = HandReader(replace(models, tile_finder=TileFinder(second_look=second_look)))
    tallies = {"usual": Tally(), "low": Tally()}
    for seed in range(FIRST_SEED, FIRST_SEED + scenes):
        scene = training_scene(seed)
        ok, encoded = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        if not ok:
            raise RuntimeError(f"could not encode scene {seed}")
        started = time.perf_counter()
        reading = reader.read(encoded.tobytes(), max_pips=12)
        elapsed = (time.perf_counter() - started) * 1000
        truth = Counter(tile.pips for tile in scene.tiles)
        read = Counter(reading.pip_pairs)
        tally = tallies["low" if is_low_view(seed) else "usual"]
        tally.wanted += sum(truth.values())
        tally.reported += sum(read.values())
        tally.right += sum((truth & read).values())
        tally.exact += truth == read
        tally.scenes += 1
        tally.ms.append(elapsed)
    return tallies


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.score_pipeline", description=__doc__)
    parser.add_argument("--scenes", type=int, default=200)
    parser.add_argument(
        "--first-look-only", action="store_true", help="without the finder's second look"
    )
    args = parser.parse_args(argv)
    tallies = score(args.scenes, second_look=not args.first_look_only)
    print("second look" if not args.first_look_only else "first look only")
    for name, tally in tallies.items():
        print(tally.line(name))
    every = [ms for tally in tallies.values() for ms in tally.ms]
    print(f"median ms per scene {statistics.median(every):.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
