"""Photo scoring: read the tiles left in a hand from a photo, for the tile picker to show.

Nothing here stores the photo: the bytes are read once in the request and dropped.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from flask import current_app

from .extensions import release_connection
from .photo_overlay import Overlay, ReadTile, TableOverlay, build_overlay, build_table_overlay
from .rules import Rules, Tile, score_hand

if TYPE_CHECKING:
    from vision.pipeline import HandReader, TableRead
    from vision.table import TableLayout
    from vision.types import HandReading

Read = TypeVar("Read", "HandReading", "TableRead")

CHECK_BELOW = 0.9
"""Tiles read with less confidence than this are marked "check this tile"."""

UNAVAILABLE_MESSAGE = (
    "Photo reading is not available on this server (its tile-reading model is missing). "
    "Pick the tiles or type the points instead."
)


class PhotoUnreadable(Exception):
    """The upload can't be read as a photo of tiles; ``message`` says why, in plain words."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class PhotoReadingUnavailable(PhotoUnreadable):
    """This server can't read photos (no model file), or not now (:class:`PhotoReaderBusy`)."""

    def __init__(self, message: str = UNAVAILABLE_MESSAGE) -> None:
        super().__init__(message)


class PhotoReaderBusy(PhotoReadingUnavailable):
    """Every photo-reading slot of this worker stayed taken for ``READ_WAIT_SECONDS``."""

    def __init__(self) -> None:
        super().__init__(BUSY_MESSAGE)


READS_AT_ONCE = 1
"""Photos one worker process reads at the same time (``PHOTO_READS_AT_ONCE`` overrides it).
A read is CPU work and a hundred megabytes or so at its peak; more at once only shares the
same cores and multiplies the memory (48 HEICs at once took 2.5 GB with no bound; under
`make serve`'s two workers, two reads per worker peaked at 1.47 GB, one per worker at 1.22 GB
with as many photos read, `benchmarks/bench_photo_flood.py`)."""
READ_WAIT_SECONDS = 5.0
"""How long a photo waits for a slot before the player is told to send it again
(``PHOTO_READ_WAIT_SECONDS`` overrides it): a read takes about a second."""
BUSY_MESSAGE = (
    "The laptop is busy reading other photos. Send this one again in a moment; "
    "nothing you entered is lost."
)

_slots: dict[int, threading.BoundedSemaphore] = {}
_slots_lock = threading.Lock()


def _reading_slots(count: int) -> threading.BoundedSemaphore:
    with _slots_lock:
        slots = _slots.get(count)
        if slots is None:
            _slots[count] = slots = threading.BoundedSemaphore(count)
    return slots


@dataclass(frozen=True)
class PhotoTiles:
    """What a photo says about one hand, ready for the tile picker."""

    tiles: tuple[Tile, ...]
    """Tiles to tick in the picker (each once, only tiles of the game's set)."""
    unsure: frozenset[str]
    """Tiles (as "6-3") read with confidence below ``CHECK_BELOW``."""
    points: int
    """The ticked tiles scored by the rules engine under the game's rules."""
    problems: tuple[str, ...]
    """Things read that the picker can't show (a tile twice, a tile the set lacks)."""


def model_path() -> Path:
    """The half-reader model this app uses (``PHOTO_MODEL_PATH`` overrides the default)."""
    from vision.halves import DEFAULT_HALF_MODEL

    return _configured("PHOTO_MODEL_PATH", DEFAULT_HALF_MODEL)


def finder_path() -> Path:
    """The tile-finder model this app uses (``PHOTO_FINDER_PATH`` overrides the default)."""
    from vision.finder import DEFAULT_FINDER_MODEL

    return _configured("PHOTO_FINDER_PATH", DEFAULT_FINDER_MODEL)


def close_up_finder_path() -> Path:
    """The finder this app reads close-ups of a few tiles with (``PHOTO_CLOSE_UP_FINDER_PATH``
    overrides the default)."""
    from vision.finder import DEFAULT_CLOSE_UP_MODEL

    return _configured("PHOTO_CLOSE_UP_FINDER_PATH", DEFAULT_CLOSE_UP_MODEL)


def face_down_check_path() -> Path:
    """The model that keeps printed backs from counting as tiles (``PHOTO_FACE_DOWN_PATH``
    overrides the default)."""
    from vision.halves import DEFAULT_FACE_DOWN_MODEL

    return _configured("PHOTO_FACE_DOWN_PATH", DEFAULT_FACE_DOWN_MODEL)


def outline_fitter_path() -> Path:
    """The model that fits the finders' outlines to the faces before they are read
    (``PHOTO_FITTER_PATH`` overrides the default)."""
    from vision.fitting import DEFAULT_FITTER_MODEL

    return _configured("PHOTO_FITTER_PATH", DEFAULT_FITTER_MODEL)


def _configured(key: str, default: Path) -> Path:
    configured = current_app.config.get(key)
    return Path(configured) if configured else default


def reading_available() -> bool:
    """Say whether photos can be read here (every model file is present)."""
    models = (
        model_path(),
        finder_path(),
        close_up_finder_path(),
        face_down_check_path(),
        outline_fitter_path(),
    )
    return all(path.is_file() for path in models)


# One reader per process (its ONNX session is costly to build); gunicorn workers each get one.
_readers: dict[tuple[Path, Path, Path, Path, Path, int], HandReader] = {}
_readers_lock = threading.Lock()


def _hand_reader(path: Path, max_pixels: int) -> HandReader:
    from vision.models import ModelPaths, ModelSet
    from vision.pipeline import HandReader

    finder = finder_path()
    close_up = close_up_finder_path()
    face_down = face_down_check_path()
    fitter = outline_fitter_path()
    key = (path, finder, close_up, face_down, fitter, max_pixels)
    with _readers_lock:
        reader = _readers.get(key)
        if reader is None:
            paths = ModelPaths(
                tile_finder=finder,
                half_reader=path,
                close_up_finder=close_up,
                face_down_check=face_down,
                outline_fitter=fitter,
            )
            try:
                # Every model is loaded now, so a missing or broken file is reported as
                # unavailable rather than as a failure halfway through a photo.
                models = ModelSet.load(paths, threads=1)
            except Exception as error:  # onnxruntime raises its own exception types
                current_app.logger.warning("Photo reading unavailable: %s", error)
                raise PhotoReadingUnavailable() from error
            _readers[key] = reader = HandReader(models, max_pixels=max_pixels)
    return reader


@dataclass(frozen=True)
class PhotoReading:
    """Everything read from one photo, in the pixels of the photo decoded (EXIF-upright)."""

    width: int
    height: int
    tiles: tuple[ReadTile, ...]
    hints: tuple[tuple[tuple[int, int], ...], ...]
    """Outlines of tile-like shapes seen but not counted."""

    @property
    def found(self) -> list[tuple[Tile, float]]:
        """The tiles as (tile, confidence) pairs."""
        return [(Tile(tile.high, tile.low), tile.confidence) for tile in self.tiles]

    def overlay(self, rules: Rules) -> Overlay:
        """The reading drawn over the photo and listed as chips (companion.photo_overlay)."""
        return build_overlay((self.width, self.height), self.tiles, self.hints, rules, CHECK_BELOW)


def read_photo(data: bytes, set_max: int | None = None) -> PhotoReading:
    """Read the face-up tiles in a photo, with their outlines and the photo's upright size.

    ``set_max`` is the game's set (12 for double-12): no half is read above it.
    """
    reading = _read_hand(data, set_max)
    return PhotoReading(
        width=reading.width,
        height=reading.height,
        tiles=tuple(
            ReadTile(tile.pips[0], tile.pips[1], tile.confidence, tile.corners)
            for tile in reading.tiles
        ),
        hints=reading.hints,
    )


def _read_hand(data: bytes, set_max: int | None) -> HandReading:
    """The vision pipeline's reading of a photo, under the app's limits: the pixel limit, a
    few reads at once per worker (then PhotoReaderBusy), no database connection held."""
    return _read_photo_with(data, lambda reader: reader.read(data, max_pips=set_max))


def _read_photo_with(data: bytes, read: Callable[[HandReader], Read]) -> Read:
    """``read`` run with the app's hand reader on the photo ``data``, under the app's limits
    (see _read_hand)."""
    # vision (numpy, OpenCV, onnxruntime) loads on the first photo, not when the app starts.
    from vision.decode import MAX_PIXELS, PhotoError, check_photo, decode_photo
    from vision.pipeline import READ_LONG_SIDE

    if not data:
        raise PhotoUnreadable("The photo is empty. Take it again or choose another file.")
    path = model_path()
    config = current_app.config
    max_pixels = int(config.get("PHOTO_MAX_PIXELS", MAX_PIXELS))
    # A read takes a second or more: the request's database connection goes back to the pool
    # first (64 uploads at once held every connection and others failed). What the request
    # loaded stays usable and reloads on its next use.
    release_connection()
    slots = _reading_slots(int(config.get("PHOTO_READS_AT_ONCE", READS_AT_ONCE)))
    try:
        check_photo(data, max_pixels=max_pixels)  # refused from its header, without a slot
        if not slots.acquire(
            timeout=float(config.get("PHOTO_READ_WAIT_SECONDS", READ_WAIT_SECONDS))
        ):
            raise PhotoReaderBusy()
        try:
            if not (path.is_file() and finder_path().is_file()):
                # A broken file still gets its own message, so the player knows what to fix.
                decode_photo(data, max_pixels=max_pixels, min_long_side=READ_LONG_SIDE)
                raise PhotoReadingUnavailable()
            return read(_hand_reader(path, max_pixels))
        finally:
            slots.release()
    except PhotoError as error:
        raise PhotoUnreadable(f"This photo can't be read: {error}.") from error


def tiles_for_picker(read: list[tuple[Tile, float]], rules: Rules) -> PhotoTiles:
    """Turn what a photo says into picker ticks, "check this" marks and the hand's score."""
    kept: dict[Tile, float] = {}
    twice: set[str] = set()
    strangers: set[str] = set()
    for tile, confidence in read:
        if tile.high > rules.set_max:
            strangers.add(str(tile))
        elif tile in kept:
            twice.add(str(tile))
            kept[tile] = min(kept[tile], confidence)
        else:
            kept[tile] = confidence
    problems = []
    if twice:
        problems.append(
            f"Read {', '.join(sorted(twice))} twice, but the set has only one of each: "
            "look for a misread tile."
        )
    if strangers:
        problems.append(
            f"Read {', '.join(sorted(strangers))}, which a double-{rules.set_max} set "
            "doesn't have: pick the tile it should be."
        )
    unsure = frozenset(
        str(tile) for tile, confidence in kept.items() if confidence < CHECK_BELOW
    ) | frozenset(twice)
    tiles = tuple(kept)
    points = score_hand(list(tiles), rules, went_out=not tiles).points
    return PhotoTiles(tiles=tiles, unsure=unsure, points=points, problems=tuple(problems))


# -- the table ---------------------------------------------------------------------------------

MAX_TABLE_TILES = 200
"""More tiles than any table holds: a reading sent back by a page with more is refused."""


@dataclass(frozen=True)
class TableTrainRead:
    """One train read from a table photo, from the hub outwards."""

    tiles: tuple[int, ...]
    """Indexes into :attr:`TableReading.tiles`."""
    end: int
    open_double: bool
    unsure: bool
    """A tile of it is unsure, or its link to the hub was not seen."""
    marker: bool | None = None
    """A train marker seen beside its start (True), the table there plain (False), or not
    known (None: the player says)."""


@dataclass(frozen=True)
class TableReading:
    """A table photo read as a position, in the pixels of the photo decoded (EXIF-upright).

    ``trains`` go clockwise round the hub as the photo shows it from above, which is the
    seat order at the table (play goes to the left), starting from the train pointing
    nearest straight down (the photographer's side)."""

    width: int
    height: int
    tiles: tuple[ReadTile, ...]
    engine_tile: int | None
    hub: tuple[int, int] | None
    trains: tuple[TableTrainRead, ...]

    @property
    def engine(self) -> int | None:
        """The engine's number, when the engine was seen."""
        if self.engine_tile is None:
            return None
        tile = self.tiles[self.engine_tile]
        return tile.high if tile.high == tile.low else None

    def to_json(self) -> dict[str, Any]:
        """The reading as the page carries it between requests (never the photo)."""
        return {
            "width": self.width,
            "height": self.height,
            "tiles": [
                [tile.high, tile.low, round(tile.confidence, 3), [list(p) for p in tile.corners]]
                for tile in self.tiles
            ],
            "engine_tile": self.engine_tile,
            "hub": list(self.hub) if self.hub else None,
            "trains": [
                [list(train.tiles), train.end, train.open_double, train.unsure, train.marker]
                for train in self.trains
            ],
        }

    @classmethod
    def from_json(cls, data: Any) -> TableReading:
        """A reading sent back by the page; ``ValueError`` for anything that is not one."""
        try:
            width, height = int(data["width"]), int(data["height"])
            tiles = tuple(
                ReadTile(
                    int(high),
                    int(low),
                    float(confidence),
                    tuple((int(x), int(y)) for x, y in corners),
                )
                for high, low, confidence, corners in data["tiles"]
            )
            engine_tile = data["engine_tile"]
            engine_tile = None if engine_tile is None else int(engine_tile)
            hub = data["hub"]
            hub = None if hub is None else (int(hub[0]), int(hub[1]))
            trains = tuple(_train_from_json(train) for train in data["trains"])
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise ValueError("not a table reading") from error
        count = len(tiles)
        if not (0 < width and 0 < height and count <= MAX_TABLE_TILES):
            raise ValueError("not a table reading")
        if len(trains) > MAX_TABLE_TILES or any(len(tile.corners) != 4 for tile in tiles):
            raise ValueError("not a table reading")
        indexes = [i for train in trains for i in train.tiles]
        if engine_tile is not None:
            indexes.append(engine_tile)
        if any(not 0 <= i < count for i in indexes):
            raise ValueError("not a table reading")
        return cls(width, height, tiles, engine_tile, hub, trains)

    def overlay(self) -> TableOverlay:
        """The reading drawn over the photo (companion.photo_overlay)."""
        return build_table_overlay(
            (self.width, self.height),
            self.tiles,
            self.hub,
            self.engine_tile,
            [
                (train.tiles, train.end, train.open_double, train.unsure, train.marker)
                for train in self.trains
            ],
            CHECK_BELOW,
        )


def _train_from_json(data: Any) -> TableTrainRead:
    """One train as the page carried it; a page from before markers were read has four
    fields (its marker then unknown)."""
    indexes, end, open_double, unsure, *rest = data
    marker = rest[0] if rest else None
    if rest[1:] or marker not in (True, False, None):
        raise ValueError("not a train")
    return TableTrainRead(
        tuple(int(i) for i in indexes), int(end), bool(open_double), bool(unsure), marker
    )


def read_table(
    data: bytes, set_max: int | None = None, round_engine: int | None = None
) -> TableReading:
    """Read a photo of the whole table: the hub, the trains from it and their ends.

    ``round_engine`` is the engine's number when the game says which round is being played:
    the double of it on the table is then the engine, even where the photo alone is unsure
    (unless that reads the table worse than the photo alone: the game may have the round wrong).
    Either way the table is a Mexican Train table, so it is read as one with a hub, never as
    a line of block dominoes.
    The same limits and messages as :func:`read_photo`, and likewise no database connection is
    held while it runs.
    """
    release_connection()
    width, height, layout = table_layout(data, set_max, round_engine)
    return table_reading(width, height, layout)


def table_layout(
    data: bytes, set_max: int | None, round_engine: int | None = None
) -> tuple[int, int, TableLayout]:
    """The photo's size (upright), its tiles grouped into the hub and trains, and each train's
    marker looked for."""
    read = _read_photo_with(
        data,
        lambda reader: reader.read_table(
            data, max_pips=set_max, round_engine=round_engine, hub_expected=True
        ),
    )
    return read.reading.width, read.reading.height, read.layout


def table_reading(width: int, height: int, layout: TableLayout) -> TableReading:
    """A table's layout (vision.table) as the referee page uses it: trains in seat order."""
    tiles = tuple(
        ReadTile(tile.pips[0], tile.pips[1], tile.confidence, tile.corners) for tile in layout.tiles
    )
    hub = layout.hub
    centre = hub.centre if hub is not None else (width // 2, height // 2)
    unsure = set(layout.unsure)

    def angle(train_tiles: tuple[int, ...]) -> float:
        # Clockwise on screen from straight down (y grows downwards in a photo).
        xs, ys = zip(*tiles[train_tiles[0]].corners, strict=True)
        dx, dy = sum(xs) / len(xs) - centre[0], sum(ys) / len(ys) - centre[1]
        return math.atan2(-dx, dy) % (2 * math.pi)

    trains = sorted((train for train in layout.trains if train.tiles), key=lambda t: angle(t.tiles))
    return TableReading(
        width=width,
        height=height,
        tiles=tiles,
        engine_tile=None if hub is None else hub.engine_tile,
        hub=None if hub is None else hub.centre,
        trains=tuple(
            TableTrainRead(
                train.tiles,
                train.end,
                train.open_double,
                bool(unsure & set(train.tiles)) or train.confidence < CHECK_BELOW,
                train.marker,
            )
            for train in trains
        ),
    )
