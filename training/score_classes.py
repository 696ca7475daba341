"""Score the pipeline on rendered scenes of each kind of photo it is known to get wrong.

    python -m training.score_classes [--scenes 60]

Real photos from other tables showed classes the pipeline misreads (issue 12): close-ups of
one to three tiles filling the frame, face-down tiles with printed backs among the face-up
ones, blank halves among colour-dot tiles, tiles leaning on a neighbour, tiles seen from low
across the table, and thin white tiles on a pale table of nearly their colour; "end-backs"
are printed backs with the name on one end, the other end plain like a blank half. Each class is
rendered here from its own held-out seeds (never used for training), encoded as a JPEG and
read with the committed models, exactly as a phone's photo is; "usual" scenes are the
baseline. Run it before and after a change to the training mix to see each class move.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import cv2

from training.score_pipeline import Tally
from training.synth import render_scene
from vision.finder import DEFAULT_FINDER_MODEL
from vision.halves import DEFAULT_HALF_MODEL
from vision.models import ModelPaths, ModelSet
from vision.pipeline import HandReader

FIRST_SEED = 7_700_000
SIZE = (1280, 960)
CLASSES: dict[str, dict[str, Any]] = {
    "usual": {},
    "close": {"close_up": True},
    "backs": {"printed_backs": True, "n_tiles": (2, 8)},
    "blanks": {"blank_halves": True, "n_tiles": (2, 10)},
    "leaning": {"leaning": True, "n_tiles": (2, 8)},
    "low": {"low_view": True},
    "pale": {"pale_table": True, "n_tiles": (2, 8)},
    "end-backs": {"printed_backs": True, "printed_at_end": True, "n_tiles": (2, 8)},
    # A table seen whole: 20 to 45 small tiles, many in lines, in a 12-MP photo.
    "tables": {
        "size": (4032, 3024),
        "n_tiles": (20, 45),
        "tile_share": (0.025, 0.045),
        "max_tilt_deg": 25.0,
    },
}
"""Class name: the render_scene options that draw it (at SIZE unless they name a size)."""


def class_photos(
    scenes: int, first_seed: int = FIRST_SEED
) -> Iterator[tuple[str, Counter[tuple[int, int]], bytes]]:
    """Each class's ``scenes`` rendered photos from its own seeds (the class's offset x
    100,000 after ``first_seed``): class name, true tiles, and the photo as a JPEG."""
    for offset, (name, options) in enumerate(CLASSES.items()):
        first = first_seed + offset * 100_000
        for seed in range(first, first + scenes):
            scene = render_scene(seed, **{"size": SIZE, **options})
            ok, encoded = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
            if not ok:
                raise RuntimeError(f"could not encode scene {seed}")
            yield name, Counter(tile.pips for tile in scene.tiles), encoded.tobytes()


def score(
    scenes: int,
    close_up: bool = True,
    reader_model: Path | None = None,
    face_down_check: bool = True,
    finder_model: Path | None = None,
) -> dict[str, Tally]:
    """Tallies of the pipeline's readings of ``scenes`` rendered photos of each class
    (without ``close_up``, photos with few tiles found are not read again; ``reader_model``:
    another half reader than the committed one; without ``face_down_check``, no second opinion
    on printed backs; ``finder_model``: another usual finder than the committed one)."""
    defaults = ModelPaths()
    paths = ModelPaths(
        tile_finder=finder_model or DEFAULT_FINDER_MODEL,
        half_reader=reader_model or DEFAULT_HALF_MODEL,
        close_up_finder=defaults.close_up_finder if close_up else None,
        face_down_check=defaults.face_down_check if face_down_check else None,
    )
    reader = HandReader(ModelSet.load(paths))
    tallies = {name: Tally() for name in CLASSES}
    for name, truth, photo in class_photos(scenes):
        tally = tallies[name]
        started = time.perf_counter()
        reading = reader.read(photo, max_pips=12)
        tally.ms.append((time.perf_counter() - started) * 1000)
        read = Counter(reading.pip_pairs)
        tally.wanted += truth.total()
        tally.reported += read.total()
        tally.right += (truth & read).total()
        tally.exact += truth == read
        tally.scenes += 1
    return tallies


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.score_classes", description=__doc__)
    parser.add_argument("--scenes", type=int, default=60, help="rendered photos per class")
    parser.add_argument(
        "--no-close-up",
        action="store_true",
        help="without reading photos with few tiles found again with the close-up finder",
    )
    parser.add_argument("--reader-model", type=Path, default=None, help="another reader .onnx")
    parser.add_argument("--finder-model", type=Path, default=None, help="another finder .onnx")
    parser.add_argument(
        "--no-face-down-check",
        action="store_true",
        help="without the face-down check (printed backs may then count as tiles)",
    )
    args = parser.parse_args(argv)
    tallies = score(
        args.scenes,
        close_up=not args.no_close_up,
        reader_model=args.reader_model,
        face_down_check=not args.no_face_down_check,
        finder_model=args.finder_model,
    )
    for name, tally in tallies.items():
        print(tally.line(name))
    every = [ms for tally in tallies.values() for ms in tally.ms]
    print(f"median ms per scene {statistics.median(every):.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
