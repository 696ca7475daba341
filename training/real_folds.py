"""The real-photo corpus's sources split into folds, for held-out-source figures (issue 25).

    from training.real_folds import FOLDS, fold_of
    fold_of("JackRoache/METR4202-2016")        # "webcam hands"

A model measured on a fold's photos is trained without any photo of that fold: a held-out
source, never held-out photos of a source trained on. The four *Double Double Dominoes*
sources photograph one printed board (the same score track of printed dominoes round it), so
they sit in one fold: a model that learnt that board from one of them would not be meeting
it for the first time on another.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

BOARDS = "boards"
LINES = "karthik's lines"
WEBCAM = "webcam hands"
OTHERS = "every other source"

FOLDS: Mapping[str, frozenset[str]] = {
    BOARDS: frozenset(
        {
            "197bogdan/double-double-dominoes-ai-scoring",
            "mihaimilitaru/double-domino-score-calculator",
            "cosminariton123/computer-vision---project-1-double-double-dominoes-score-calculator",
            "delia-gherghe/double-double-dominoes",
        }
    ),
    LINES: frozenset({"karthikvenkataramana/domino-detection"}),
    WEBCAM: frozenset({"jackroache/metr4202-2016"}),
    OTHERS: frozenset(
        {
            "mikeygbg/betr-",
            "lekroee/mexican_trains_aid",
            "jmherzog-de/domino-detection",
            "abdullahbahi/domino-dots-counter",
            "tak1edd1ne/domino-tile-recognition",
            "jeremyarde/domino-counter",
            "miloudfiguigui/domino-image-processing",
            "jesperes/mexican",
            "domibotupm/domibot",
            "jnoyola/domibot",
            "chrisstayte/dominoescalculator",
        }
    ),
}
"""Fold name -> its sources (lower-cased ``owner/name``). A source added to the corpus must be
placed in one deliberately (a board of the same game goes with the boards)."""


class UnplacedSourceError(ValueError):
    """A source of the corpus that no fold names."""


FOLD_NAMES = tuple(FOLDS)


def fold_of(source_repo: str) -> str:
    """The fold a source's photos belong to."""
    name = source_repo.lower()
    for fold, sources in FOLDS.items():
        if name in sources:
            return fold
    raise UnplacedSourceError(f"{source_repo} is in no fold: place it in training/real_folds.py")


def split_sources(sources: Iterable[str]) -> dict[str, list[str]]:
    """Each fold's sources among ``sources`` (every fold present, perhaps empty)."""
    split: dict[str, list[str]] = {fold: [] for fold in FOLD_NAMES}
    for source in sorted(set(sources)):
        split[fold_of(source)].append(source)
    return split


SHORT_NAMES = {"boards": BOARDS, "karthik": LINES, "webcam": WEBCAM, "others": OTHERS}
"""What a command line calls each fold."""


def parse_fold(text: str) -> str:
    """A fold named on a command line by its short name (SHORT_NAMES) or full name."""
    wanted = text.strip().lower()
    for short, fold in SHORT_NAMES.items():
        if wanted in (short, fold.lower()):
            return fold
    raise ValueError(f"no fold is called {text!r}; the folds are {', '.join(SHORT_NAMES)}")
