"""Read a hand from a photo: decode, find tiles, rectify, read halves in one batch, score.

Two models do the work: the tile finder (models/finder.onnx) outlines every face-up tile on a
small copy of the photo, and the half reader (models/halves.onnx) counts the pips on each half
of the tiles cut out of the full photo. Three more help where those are weak: the close-up
finder (models/finder-close.onnx) outlines a photo again when few tiles were kept, the
outline fitter (models/outline-fitter.onnx) fits each finder's outline to the face it lies on
before it is cut out (a face seen from low is a trapezoid the finder's parallelogram sits
loose on), and the face-down check (models/face-down.onnx) keeps printed backs from being
counted as tiles. Before the tiles are cut out, a photo taken under a strongly tinted light is
put back towards neutral by the faces the finder outlined (vision.balance). The finder, the
half reader and the face-down check run in 8-bit integers
(the -int8 files beside those, training.quantize): as accurate and quicker on a CPU.
(The hand-written classical finder, kept for comparison, lives with the measuring tools in
training/classical_finder.py.)
"""

from __future__ import annotations

import math
import threading
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from companion.rules import Rules, Tile, score_hand
from vision.balance import white_balanced
from vision.decode import MAX_PIXELS, Photo, decode_photo
from vision.finder import TileFinder
from vision.finding import COVERED_LIMIT, FoundTile, same_place_suppressed
from vision.geometry import covered_share, cut_to_neighbours, order_corners
from vision.halves import TileRead
from vision.markers import train_markers, with_markers
from vision.models import FoundTileLike, ModelSet, TileFinderLike, TileReadLike
from vision.rectify import half_middles, rectify_tiles
from vision.table import (
    ACROSS,
    TableLayout,
    continuing_reading,
    group_table,
    inner_numbers,
    lone_tiles_towards_hub,
    next_tile_outline,
    tile_before_outline,
)
from vision.types import DetectedTile, HalfSeen, HandReading

READ_LONG_SIDE = 2000
"""JPEGs are decoded at a reduced scale down to this long side: tiles stay far larger than
the 128-px crop the reader sees, and decoding a 12 MP photo in full costs more than the rest
of the pipeline."""

MIN_TILE_BELIEF = 0.3
"""A found tile is kept when the finder's score times the reader's "is a tile" (lowered by
the face-down check where that sees no tile's face) is at least
this: the finder sees the tile in its surroundings, the reader only a tight crop, and each
catches false finds the other misses. Chosen on held-out rendered scenes by
`python -m training.choose_keep_rule` (F1 of tiles read right levels off from 0.3 to 0.4;
0.3 drops the fewest real tiles); see models/MODEL_CARD.md."""

HINT_BELIEF = 0.1
"""An outline believed less than MIN_TILE_BELIEF but at least this, lying where no counted
tile is, is reported as a hint: a shape the player may want to look at (a tile the pipeline
was too unsure of, or a face-down one); so is a face the finder saw cut by the photo's edge.
Set beforehand, not tuned."""
MAX_HINTS = 5

TWICE_SURENESS = 0.05
TWICE_COVERED = 0.25
"""A kept outline whose settled reading is surer than TWICE_SURENESS, or which lies no more than
TWICE_COVERED on surer kept outlines, is a tile of its own (not_outlined_twice). Set from
one rendered table (seed 900,000,106, a test's): an outline slid half onto a hub's slot, 46%
on the tile beside it, read as a tile no set could still hold (sureness 0.002)."""

CLOSE_UP_TILES = 3
"""A photo in which the tile finder keeps at most this many tiles may be a close-up of a
nearly empty hand, one to three tiles filling most of the frame, which the usual finder
reads worst. Such a photo is read again with the close-up finder (models/finder-close.onnx,
trained with close-ups, printed backs and leaning tiles in its mix), and that reading is
reported when it keeps at least as many tiles. Chosen on rendered scenes of every class
(`python -m training.choose_close_up_rule`), before the dev photos were read with it."""

STEADY_BELOW = 0.9
STEADY_TURNS = (-2.0, 2.0)
"""A kept tile read less surely than STEADY_BELOW (the app's "check this tile") is cut out
and read again along its outline turned by each of STEADY_TURNS degrees about its middle,
and the three readings vote (one_vote): an outline a little off the tile can cost a column
of pips at one end. Chosen on rendered tuning scenes (`training.score_classes`, seeds
8,700,000 on) among turns and scalings of the outline; see models/MODEL_CARD.md."""

BEYOND_FACE_UP = 0.5
BEYOND_SURE = 0.3
BEYOND_REPLACES = 0.9
BEYOND_COVERED = 0.25
BEYOND_ROUNDS = 16
"""On a table photo, the finder misses some small tiles, and a train then ends early or comes
apart. Where each train would go on (vision.table.next_tile_outline), past its end (straight
on, turned either way as at the table's edge, or a double laid crosswise) and past the last
tile before tiles not seen (straight on or a crosswise double), the photo is cut out and
read again: a tile is added there when the reader and the face-down
check are at least BEYOND_FACE_UP sure it is a face-up tile and a reading that can be laid on
the train's end is at least BEYOND_SURE likely. It may not lie more than BEYOND_COVERED on
tiles already read, unless it is at least BEYOND_REPLACES sure and surer than each of them (an
outline the finder slid half onto the next tile); those are then dropped. Repeated from each
new end, at most BEYOND_ROUNDS times. Before the first tile of a train not seen to start at the
hub, or seen there without the engine's number, a tile showing the number that first tile
offers inwards is looked for the same way (7 more tiles found on the tuning tables).
Chosen on the 120 rendered tuning tables (seeds 800,000,000 on): whole positions 80 -> 95, the
same from 0.3 to 0.7 sure and from 0.7 to 0.97 replacing; looking round bends too, 100 -> 101
(after TABLE_TILE_SURENESS); see models/MODEL_CARD.md."""

SEEN_EMPTY = 0.1
"""A place read on at, as guessed and as fitted, where the reader and the face-down check are
both times less sure than this that a face-up tile lies, shows none: a train whose end is
looked past there ends there, and no chain farther on is taken for its continuation across
tiles not seen (vision.table's seen_empty)."""

TABLE_TILE_SURENESS = 0.05
"""On a table photo a tile read less surely than this is not counted but hinted. A hand laid
face down at the table's edge looks like blank doubles: once one back is read as the 0-0, a
set's one of each leaves the others only readings the reader barely believes, and each came
out as a train of its own. Chosen on the 120 rendered tuning tables: whole positions (but
markers) 95 -> 100, outlines on no tile 58 -> 36, no tile on a tile lost; hands are not
touched (a hand's unsure tile is the player's to check)."""

SLID_DOUBLE_SHARE = 0.2
"""On a table photo a double whose outline lies at least this share on each of two other
tiles read is not counted: it is an outline the finder slid across their joint, which shows
one number on both sides. And a table's tile showing a tile a surer one shows is hinted, not
counted (a set holds each tile once; a hand laid face down side by side reads as blank
doubles). Chosen on the 120 rendered tuning tables: whole positions (but markers) 101 -> 103,
outlines on no tile 36 -> 28, no tile on a tile lost; the same from 0.15 to 0.2 (0.25 misses
one slid double). No tile read right lies more than 0.41 on the others."""

TILE_SHAPE = (1.6, 2.4)
ONE_TILE_IS_TILE = 0.9
"""A photo in which no tile is found but that is shaped like a domino (long side 1.6..2.4
times the short one) may have been cropped to one tile, with no table left around it to
outline. It is read whole as one tile face, and kept only if the reader is quite sure
(ONE_TILE_IS_TILE) that it shows a face-up domino."""


class HandReader:
    """Reads hands from photo bytes with one set of models, loaded once, for many photos."""

    def __init__(
        self,
        models: ModelSet | None = None,
        *,
        threads: int = 1,
        max_pixels: int = MAX_PIXELS,
        white_balance: bool = True,
    ) -> None:
        """Without ``models``, every committed model is loaded now (FileNotFoundError names a
        missing one), with ``threads`` inference threads each. ``white_balance=False`` reads
        each photo in the colours it came in (vision.balance: for measuring what that
        step does)."""
        self.models = models if models is not None else ModelSet.load(threads=threads)
        self._max_pixels = max_pixels
        self._white_balance = white_balance

    def _face_up(self, crops: NDArray[np.uint8], reads: Sequence[TileReadLike]) -> list[float]:
        """How sure the pipeline is that each crop is a face-up tile: the reader's "is a tile",
        lowered where the face-down check sees no face (a printed back, whose letters the
        reader took for pips)."""
        is_tile = [read.is_tile for read in reads]
        check = self.models.face_down_check
        if check is None:
            return is_tile
        face_up = check.face_up(crops)
        return [min(mine, float(other)) for mine, other in zip(is_tile, face_up, strict=True)]

    def _read_as_one_tile(self, photo: Photo, max_pips: int | None) -> list[DetectedTile]:
        height, width = photo.pixels.shape[:2]
        quad = whole_photo_quad(width, height)
        crops = rectify_tiles(photo.pixels, [quad])
        (read,) = self.models.half_reader.read(crops, max_pips)
        (face_up,) = self._face_up(crops, [read])
        if face_up < ONE_TILE_IS_TILE:
            return []
        return [
            _detected(
                read.pips,
                read.confidence * face_up,
                quad,
                photo,
                read.alternatives,
                read.halves,
            )
        ]

    def _read_with(
        self,
        finder: TileFinderLike,
        photo: Photo,
        max_pips: int | None,
        whole_table: bool = False,
    ) -> tuple[list[DetectedTile], list[tuple[tuple[int, int], ...]], Photo]:
        """The tiles kept and the hints, from one finder's outlines of the photo, and the
        photo as they were read: made neutral by the faces outlined (vision.balance), unless
        the reader was made without white balance."""
        cut: list[FoundTile] = []
        if isinstance(finder, TileFinder):
            found: Sequence[FoundTileLike] = finder.find(
                photo.pixels, cut=cut, whole_table=whole_table
            )
        else:
            found = finder.find(photo.pixels)
        tiles: list[DetectedTile] = []
        quads = [tile.corners for tile in found]
        if self._white_balance and quads:
            photo = replace(photo, pixels=white_balanced(photo.pixels, quads))
        hint_belief: list[float] = []
        kept: list[int] = []
        if found:
            quads, reads, face_up, belief = self._read_outlines(photo, found, max_pips)
            kept = believed_outlines(belief, quads)
            reads = self._steadied(photo, quads, reads, kept, max_pips)
            chosen = one_of_each([reads[index] for index in kept])
            settled = not_outlined_twice([quads[index] for index in kept], chosen)
            kept = [kept[position] for position in settled]
            chosen = [chosen[position] for position in settled]
            for index, (pips, sureness) in zip(kept, chosen, strict=True):
                read = reads[index]
                others = _other_readings(read, pips)
                tiles.append(
                    _detected(
                        pips,
                        sureness * face_up[index],
                        quads[index],
                        photo,
                        others,
                        read.halves,
                    )
                )
            # A shape the face-down check alone turned down is still a tile's shape (a blank
            # double of a coloured set looks like a back with a line): it is hinted by the
            # finder's and the reader's belief too.
            hint_belief = [
                max(value, face.score * read.is_tile)
                for value, face, read in zip(belief, found, reads, strict=True)
            ]
        # Faces cut by the photo's edge are hints too, after every doubted outline.
        outlines = [*quads, *(face.corners for face in cut)]
        doubted = doubted_outlines([*hint_belief, *[HINT_BELIEF] * len(cut)], outlines, kept)
        hints = [
            _photo_corners(outlines[index], 1.0 / photo.scale, photo.width, photo.height)
            for index in doubted
        ]
        return tiles, hints, photo

    def _read_outlines(
        self, photo: Photo, found: Sequence[FoundTileLike], max_pips: int | None
    ) -> tuple[list[NDArray[np.float32]], Sequence[TileReadLike], list[float], list[float]]:
        """Each outline as read, its read, how sure the pipeline is that it shows a face-up
        tile, and its belief (that times the finder's score). With a fitter, each outline is
        fitted to its face and read along that, unless only the finder's own outline would
        be kept (read again where the fitted one would not): a tight crop can lose a blank
        half to the reader's "not a half", where the looser outline shows it with some table
        around."""
        quads = [face.corners for face in found]
        scores = [face.score for face in found]
        fitter = self.models.outline_fitter
        if fitter is None:
            crops = rectify_tiles(photo.pixels, quads)
            reads = self.models.half_reader.read(crops, max_pips)
            face_up = self._face_up(crops, reads)
            return quads, reads, face_up, _beliefs(scores, face_up)
        fitted = fitter.fit(photo.pixels, quads)
        crops = rectify_tiles(photo.pixels, fitted)
        reads = list(self.models.half_reader.read(crops, max_pips))
        face_up = self._face_up(crops, reads)
        belief = _beliefs(scores, face_up)
        doubted = [index for index, value in enumerate(belief) if value < MIN_TILE_BELIEF]
        if doubted:
            own_crops = rectify_tiles(photo.pixels, [quads[index] for index in doubted])
            own_reads = self.models.half_reader.read(own_crops, max_pips)
            own_face_up = self._face_up(own_crops, own_reads)
            for position, index in enumerate(doubted):
                own_belief = scores[index] * own_face_up[position]
                if own_belief >= MIN_TILE_BELIEF:
                    fitted[index] = quads[index]
                    reads[index] = own_reads[position]
                    face_up[index] = own_face_up[position]
                    belief[index] = own_belief
        return fitted, reads, face_up, belief

    def _steadied(
        self,
        photo: Photo,
        quads: Sequence[NDArray[np.float32]],
        reads: Sequence[TileReadLike],
        kept: Sequence[int],
        max_pips: int | None,
    ) -> list[TileReadLike]:
        """The reads, each kept unsure one replaced by its vote with the reads along its
        outline turned (STEADY_TURNS); all of them cut and read in one call."""
        steadied = list(reads)
        unsure = [index for index in kept if reads[index].confidence < STEADY_BELOW]
        if not unsure:
            return steadied
        turned = [turned_outline(quads[index], turn) for index in unsure for turn in STEADY_TURNS]
        again = self.models.half_reader.read(rectify_tiles(photo.pixels, turned), max_pips)
        per_tile = len(STEADY_TURNS)
        for position, index in enumerate(unsure):
            others = again[position * per_tile : (position + 1) * per_tile]
            steadied[index] = one_vote(reads[index], others)
        return steadied

    def read(self, data: bytes, max_pips: int | None = None) -> HandReading:
        """Read every face-up tile in the photo. Raises PhotoError for unreadable bytes.

        ``max_pips`` is the set's highest half when known (12 for a double-12 game).
        """
        started = time.perf_counter()
        photo = decode_photo(data, max_pixels=self._max_pixels, min_long_side=READ_LONG_SIDE)
        return self._read_decoded(photo, max_pips, started)[0]

    def read_table(
        self,
        data: bytes,
        max_pips: int | None = None,
        round_engine: int | None = None,
        hub_expected: bool = False,
    ) -> TableRead:
        """Read a photo of the whole table: its tiles (as :meth:`read`, always with the
        finder's fine look: a table's tiles are small; then read on along the trains where
        the finder missed one: BEYOND_FACE_UP; an outline run onto its neighbours cut back to
        their size: sized_like_neighbours; tiles read hardly at all or twice are hinted and
        outlines slid across a joint dropped: counted_on_table), grouped into the hub and
        the trains from it (vision.table), and each train's marker looked for beside its
        start (vision.markers). ``round_engine`` and ``hub_expected`` are as for
        :func:`vision.table.group_table`. Raises PhotoError for unreadable bytes."""
        started = time.perf_counter()
        photo = decode_photo(data, max_pixels=self._max_pixels, min_long_side=READ_LONG_SIDE)
        # The tiles read on and the markers are looked at in the light the tiles were read in.
        reading, photo = self._read_decoded(photo, max_pips, started, whole_table=True)
        # Backs and slid outlines are set aside before reading on, so nothing is looked for
        # past them, and again after it.
        counted, doubted = counted_on_table(sized_like_neighbours(reading.tiles))
        read_on, seen_empty = self._read_on(photo, counted, max_pips, round_engine, hub_expected)
        counted, doubted_after = counted_on_table(sized_like_neighbours(read_on))
        hinted = (tile.corners for tile in (*doubted, *doubted_after))
        hints = (*reading.hints, *hinted)[:MAX_HINTS]
        reading = replace(reading, tiles=tuple(counted), hints=hints)
        layout = group_table(
            reading.tiles,
            round_engine=round_engine,
            hub_expected=hub_expected,
            seen_empty=seen_empty,
        )
        markers = train_markers(photo.pixels, photo.scale, layout, self.models.marker_check)
        layout = with_markers(layout, markers)
        elapsed_ms = int(round((time.perf_counter() - started) * 1000))
        return TableRead(replace(reading, ms=elapsed_ms), layout)

    def _read_on(
        self,
        photo: Photo,
        tiles: Sequence[DetectedTile],
        max_pips: int | None,
        round_engine: int | None = None,
        hub_expected: bool = False,
    ) -> tuple[list[DetectedTile], list[NDArray[np.float32]]]:
        """The tiles, with those found where the trains go on (BEYOND_FACE_UP and after), and
        the outlines (photo pixels) looked at there that show no tile (SEEN_EMPTY)."""
        tiles = list(tiles)
        looked: set[_Place] = set()
        seen_empty: list[NDArray[np.float32]] = []
        for _ in range(BEYOND_ROUNDS):
            layout = group_table(
                tiles, round_engine=round_engine, hub_expected=hub_expected, seen_empty=seen_empty
            )
            wanted = _where_trains_go_on(layout, looked, photo)
            if not wanted:
                break
            quads = [outline for _, _, outline in wanted]
            if self.models.outline_fitter is not None:
                quads += self.models.outline_fitter.fit(photo.pixels, list(quads))
            crops = rectify_tiles(photo.pixels, quads)
            reads = self.models.half_reader.read(crops, max_pips)
            face_up = self._face_up(crops, reads)
            # Each outline was read as guessed, and as fitted to the face it lies on.
            # A place shows no tile where every guess there, as guessed and as fitted, does.
            tiled = {
                wanted[k % len(wanted)][0] for k in range(len(quads)) if face_up[k] >= SEEN_EMPTY
            }
            seen_empty += [outline / photo.scale for p, _, outline in wanted if p not in tiled]
            places = [wanted[index % len(wanted)][:2] for index in range(len(quads))]
            found = best_fitting_reads(places, reads, face_up, {tile.pips for tile in tiles})
            laid = tiles
            for sureness, pips, index in found:
                others = _other_readings(reads[index], pips)
                new = _detected(pips, sureness, quads[index], photo, others, reads[index].halves)
                laid = laid_on_table(laid, new)
            if laid is tiles:
                break  # nothing new to read on from
            tiles = laid
        return tiles, seen_empty

    def _read_decoded(
        self, photo: Photo, max_pips: int | None, started: float, whole_table: bool = False
    ) -> tuple[HandReading, Photo]:
        """The photo's reading, and the photo as its tiles were read (see _read_with)."""
        tiles, hints, photo = self._read_with(self.models.tile_finder, photo, max_pips, whole_table)
        close_up_finder = self.models.close_up_finder
        if len(tiles) <= CLOSE_UP_TILES and close_up_finder is not None:
            close_tiles, close_hints, close_photo = self._read_with(
                close_up_finder, photo, max_pips, whole_table
            )
            if len(close_tiles) >= len(tiles):
                tiles, hints, photo = close_tiles, close_hints, close_photo
        if not tiles and tile_shaped(photo.width, photo.height):
            tiles = self._read_as_one_tile(photo, max_pips)
            hints = [] if tiles else hints
        elapsed_ms = int(round((time.perf_counter() - started) * 1000))
        reading = HandReading(
            width=photo.width,
            height=photo.height,
            tiles=tuple(tiles),
            ms=elapsed_ms,
            hints=tuple(hints),
        )
        return reading, photo


@dataclass(frozen=True)
class TableRead:
    """A photo of the table as read: its tiles, and the position they make."""

    reading: HandReading
    layout: TableLayout


def _beliefs(scores: Sequence[float], face_up: Sequence[float]) -> list[float]:
    return [score * up for score, up in zip(scores, face_up, strict=True)]


def believed_outlines(
    belief: Sequence[float],
    outlines: Sequence[NDArray[np.float32]],
    covered_limit: float = COVERED_LIMIT,
) -> list[int]:
    """Indices of the outlines kept as tiles, best believed first: belief (finder score x
    reader "is a tile") at least MIN_TILE_BELIEF, and of two outlines in one place (a tile
    outlined twice, or an outline spanning the ends of two touching tiles) the better
    believed."""
    ranked = sorted(
        (index for index, value in enumerate(belief) if value >= MIN_TILE_BELIEF),
        key=lambda index: -belief[index],
    )
    survivors = same_place_suppressed(
        [outlines[index] for index in ranked], covered_limit=covered_limit
    )
    return [ranked[kept] for kept in survivors]


def turned_outline(quad: NDArray[np.float32], degrees: float) -> NDArray[np.float32]:
    """The outline turned by ``degrees`` about its middle, its corners in the same order."""
    corners = np.asarray(quad, np.float32).reshape(4, 2)
    middle = corners.mean(axis=0)
    angle = math.radians(degrees)
    rotation = np.array(
        [[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]], np.float32
    )
    return np.asarray(middle + (corners - middle) @ rotation.T, np.float32)


def one_vote(read: TileReadLike, others: Sequence[TileReadLike]) -> TileReadLike:
    """One reading from several of the same tile: the tile with the most confidence summed
    over the readings wins, and its confidence is that sum over the number of readings, but
    never more than the first read's: a tile the reader was unsure of stays marked for the
    player to check. The first read's other likely tiles are kept (with its own tile among
    them if it lost)."""
    votes: dict[tuple[int, int], float] = defaultdict(float)
    for each in (read, *others):
        votes[(max(each.pips), min(each.pips))] += each.confidence
    winner = max(votes, key=lambda pips: (votes[pips], pips == (max(read.pips), min(read.pips))))
    count = 1 + len(others)
    losers = {pips: chance / count for pips, chance in votes.items() if pips != winner}
    alternatives = sorted(
        {**dict(read.alternatives), **losers}.items(), key=lambda item: (-item[1], item[0])
    )
    return TileRead(
        pips=winner,
        confidence=min(votes[winner] / count, read.confidence),
        is_tile=read.is_tile,
        alternatives=tuple((pips, chance) for pips, chance in alternatives if pips != winner),
        halves=read.halves,
    )


def one_of_each(reads: Sequence[TileReadLike]) -> list[tuple[tuple[int, int], float]]:
    """The tile each read shows and how sure that is, no tile twice.

    A set holds each tile once, so a hand showing one tile twice has at least one misread.
    Reads are settled surest first; one whose tile a surer read already shows takes its most
    probable other reading that no surer read shows, with that reading's probability as its
    confidence, so an unlikely one is marked for the player to check. A read with no such
    reading stays as read, and the player sees the same tile twice.
    """
    chosen: dict[int, tuple[tuple[int, int], float]] = {}
    for index in sorted(range(len(reads)), key=lambda index: -reads[index].confidence):
        read = reads[index]
        shown = {pips for pips, _ in chosen.values()}
        pick = ((max(read.pips), min(read.pips)), read.confidence)
        if pick[0] in shown:
            free = [(other, chance) for other, chance in read.alternatives if other not in shown]
            pick = free[0] if free else pick
        chosen[index] = pick
    return [chosen[index] for index in range(len(reads))]


def not_outlined_twice(
    outlines: Sequence[NDArray[np.float32]], chosen: Sequence[tuple[tuple[int, int], float]]
) -> list[int]:
    """Positions of the kept outlines that are not a surer tile outlined a second time.

    An outline slid along a line of tiles lies partly on one tile and partly on what is beside
    it (the next tile's end, a hub's slot): the reader may take it for a tile, and since the
    tiles it half shows are already read, one_of_each can only give it a reading it barely
    believes. Such a reading (sureness under TWICE_SURENESS) on an outline lying more than
    TWICE_COVERED on surer kept outlines is dropped rather than shown: it is no tile of its own.
    """
    kept: list[int] = []
    for position, (_, sureness) in enumerate(chosen):
        if sureness < TWICE_SURENESS:
            surer = [
                outlines[other]
                for other, (_, other_sureness) in enumerate(chosen)
                if other != position and other_sureness > sureness
            ]
            if surer and covered_share(outlines[position], surer) > TWICE_COVERED:
                continue
        kept.append(position)
    return kept


def doubted_outlines(
    belief: Sequence[float], outlines: Sequence[NDArray[np.float32]], kept: Sequence[int]
) -> list[int]:
    """Indices of outlines not kept as tiles but believed at least HINT_BELIEF, lying where
    no kept outline (nor a better doubted one) is; at most MAX_HINTS, best believed first."""
    kept_set = set(kept)
    doubted = sorted(
        (
            index
            for index, value in enumerate(belief)
            if index not in kept_set and value >= HINT_BELIEF
        ),
        key=lambda index: -belief[index],
    )
    ranked = [*kept, *doubted]
    survivors = same_place_suppressed([outlines[index] for index in ranked])
    return [ranked[position] for position in survivors if position >= len(kept)][:MAX_HINTS]


_Place = tuple[tuple[tuple[int, int], ...], bool, tuple[int, ...]]
"""Where a tile was looked for: the outline of the tile it would lie against, whether before
a train's first tile, and the numbers it must show."""


def _where_trains_go_on(
    layout: TableLayout, looked: set[_Place], photo: Photo
) -> list[tuple[int, tuple[int, ...], NDArray[np.float32]]]:
    """Where to look for a tile not looked for yet, in the decoded photo's pixels: (the
    place's number, the numbers a tile there must show, its outline). Past each train's end
    (straight on, turned at a bend, or a double laid crosswise), past the last tile before
    tiles not seen (straight on or a crosswise double), and before
    the first tile of a train not seen to start at the hub (or not showing the engine's
    number there) and before a loose tile pointing at the hub (a train's next tile, its
    first missed: vision.table.lone_tiles_towards_hub); each place is added to ``looked``."""
    wanted: list[tuple[int, tuple[int, ...], NDArray[np.float32]]] = []
    engine = None
    if layout.hub is not None and layout.hub.engine_tile is not None:
        engine = layout.tiles[layout.hub.engine_tile].pips[0]
    trains = [(train, False) for train in layout.trains]
    trains += [(train, True) for train in lone_tiles_towards_hub(layout)]
    for train, lone in trains:
        last = len(train.tiles) - 1
        places: list[tuple[int, tuple[int, ...]]] = []
        if not lone:
            # A loose tile's far end shows a number not known (the tile may lie either way
            # round): only the hub's side of it is looked at, and once a tile is found there
            # it is a train's and is looked past as one.
            places.append((last, (train.end,)))
        if last > 0 and _slid_onto(layout, train.tiles[last], train.tiles[last - 1]):
            # A double lying well over the tile before it is an outline slid across that
            # tile's joint with the next: the next is looked for past that tile.
            places.append((last - 1, (layout.tiles[train.tiles[last]].pips[0],)))
        if train.unseen is not None:
            places.append((train.unseen[0] - 1, (train.unseen[1],)))
        inner = inner_numbers(layout, train)
        if not train.linked or (engine is not None and engine not in inner):
            # Not seen to start at the hub, or starting there without the engine's number:
            # a tile may lie unseen between.
            places.append((-1, inner))
        for after, ends in places:
            place = (layout.tiles[train.tiles[after]].corners, after < 0, ends)
            if place in looked:
                continue
            looked.add(place)
            if after < 0:
                guesses = [tile_before_outline(layout, train)]
            else:
                turns = (0, 1, -1, ACROSS) if after == last else (0, ACROSS)
                guesses = [next_tile_outline(layout, train, after, turn) for turn in turns]
            for outline in guesses:
                if outline is not None and _inside(outline * photo.scale, photo.pixels.shape):
                    wanted.append((len(looked), ends, outline * photo.scale))
    return wanted


def _slid_onto(layout: TableLayout, double: int, before: int) -> bool:
    pips = layout.tiles[double].pips
    if pips[0] != pips[1]:
        return False
    outline = np.asarray(layout.tiles[double].corners, np.float32)
    under = np.asarray(layout.tiles[before].corners, np.float32)
    return covered_share(outline, [under]) >= SLID_DOUBLE_SHARE


def best_fitting_reads(
    places: Sequence[tuple[int, tuple[int, ...]]],
    reads: Sequence[TileReadLike],
    face_up: Sequence[float],
    shown: set[tuple[int, int]],
) -> list[tuple[float, tuple[int, int], int]]:
    """For each place, the read that best fits it, surest first: (sureness, pips, the read's
    index). A read fits when it is a face-up tile (BEYOND_FACE_UP) and a reading of it that
    shows one of the place's numbers and no tile already read is likely (BEYOND_SURE)."""
    best: dict[int, tuple[float, tuple[int, int], int]] = {}
    for index, ((place, ends), read) in enumerate(zip(places, reads, strict=True)):
        readings = [((max(read.pips), min(read.pips)), read.confidence), *read.alternatives]
        fitting = continuing_reading(readings, ends, shown)
        if fitting is None or face_up[index] < BEYOND_FACE_UP or fitting[1] < BEYOND_SURE:
            continue
        sureness = fitting[1] * face_up[index]
        if place not in best or sureness > best[place][0]:
            best[place] = (sureness, fitting[0], index)
    return sorted(best.values(), reverse=True)


def laid_on_table(tiles: list[DetectedTile], new: DetectedTile) -> list[DetectedTile]:
    """The tiles with ``new`` added, unless a tile read shows its pips, or it lies more than
    BEYOND_COVERED on tiles read; those it may replace when it is at least BEYOND_REPLACES sure
    and surer than each (an outline the finder slid half onto the next tile), or when each is
    a double of a number it shows (an outline slid across a joint)."""
    if new.pips in {tile.pips for tile in tiles}:
        return tiles
    outline = np.asarray(new.corners, np.float32)
    outlines = [np.asarray(tile.corners, np.float32) for tile in tiles]
    if covered_share(outline, outlines) <= BEYOND_COVERED:
        return [*tiles, new]
    under = {
        number
        for number, other in enumerate(outlines)
        if covered_share(other, [outline]) > BEYOND_COVERED
    }
    rest = [other for number, other in enumerate(outlines) if number not in under]
    # An outline slid across a joint shows the number on both sides of it: a double of a
    # number the new tile shows, which the reader may be as sure of as of a real tile.
    slid_across = all(
        tiles[number].pips[0] == tiles[number].pips[1] and tiles[number].pips[0] in new.pips
        for number in under
    )
    if (
        new.confidence < BEYOND_REPLACES
        or (not slid_across and any(tiles[number].confidence >= new.confidence for number in under))
        or covered_share(outline, rest) > BEYOND_COVERED
    ):
        return tiles
    return [tile for number, tile in enumerate(tiles) if number not in under] + [new]


def sized_like_neighbours(tiles: Sequence[DetectedTile]) -> list[DetectedTile]:
    """The tiles, an outline stretched past the tiles round it cut back to their size
    (vision.geometry.cut_to_neighbours); the readings are kept."""
    outlines = [np.asarray(tile.corners, np.float32) for tile in tiles]
    cut = cut_to_neighbours(outlines)
    return [
        tile
        if new is old
        else replace(tile, corners=tuple((int(round(x)), int(round(y))) for x, y in new))
        for tile, old, new in zip(tiles, outlines, cut, strict=True)
    ]


def counted_on_table(
    tiles: Sequence[DetectedTile],
) -> tuple[list[DetectedTile], list[DetectedTile]]:
    """A table photo's tiles to count, and those to hint as "a tile?" (in the given order).

    Hinted: a tile read hardly at all (TABLE_TILE_SURENESS), and one showing a tile a surer
    counted one shows. Neither: a double lying SLID_DOUBLE_SHARE or more on each of two
    other tiles, an outline slid across their joint."""
    outlines = [np.asarray(tile.corners, np.float32) for tile in tiles]
    slid = {
        index
        for index, tile in enumerate(tiles)
        if tile.pips[0] == tile.pips[1]
        and sum(
            covered_share(outlines[index], [other]) >= SLID_DOUBLE_SHARE
            for number, other in enumerate(outlines)
            if number != index
        )
        >= 2
    }
    shown: set[tuple[int, int]] = set()
    counted: set[int] = set()
    for index in sorted(range(len(tiles)), key=lambda index: -tiles[index].confidence):
        tile = tiles[index]
        if index in slid or tile.confidence < TABLE_TILE_SURENESS or tile.pips in shown:
            continue
        shown.add(tile.pips)
        counted.add(index)
    return (
        [tile for index, tile in enumerate(tiles) if index in counted],
        [tile for index, tile in enumerate(tiles) if index not in counted and index not in slid],
    )


def _inside(outline: NDArray[np.float32], shape: tuple[int, ...]) -> bool:
    height, width = shape[:2]
    xs, ys = outline[:, 0], outline[:, 1]
    return bool(xs.min() >= 0 and ys.min() >= 0 and xs.max() < width and ys.max() < height)


def tile_shaped(width: int, height: int) -> bool:
    """A photo as long and narrow as a domino may be a photo cropped to one tile."""
    return TILE_SHAPE[0] <= max(width, height) / max(1, min(width, height)) <= TILE_SHAPE[1]


def whole_photo_quad(width: int, height: int) -> NDArray[np.float32]:
    """The photo's own outline, ordered like every tile outline (long first edge)."""
    corners = np.array(
        [[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], np.float32
    )
    return order_corners(corners)


def _detected(
    pips: tuple[int, int],
    confidence: float,
    quad: NDArray[np.float32],
    photo: Photo,
    alternatives: Sequence[tuple[tuple[int, int], float]] = (),
    halves: tuple[int, int] | None = None,
) -> DetectedTile:
    """One reported tile; ``confidence``: how sure the pipeline is that it is this tile;
    ``halves``: the counts read on the outline's first and second half, as cut for reading."""
    shown = (max(pips), min(pips))
    seen = None
    if halves is not None:
        first, second = half_middles(quad)
        to_photo = 1.0 / photo.scale
        seen = (
            HalfSeen(halves[0], (float(first[0] * to_photo), float(first[1] * to_photo))),
            HalfSeen(halves[1], (float(second[0] * to_photo), float(second[1] * to_photo))),
        )
    return DetectedTile(
        pips=shown,
        confidence=float(np.clip(confidence, 0.0, 1.0)),
        corners=_photo_corners(quad, 1.0 / photo.scale, photo.width, photo.height),
        alternatives=tuple(
            ((max(other), min(other)), float(chance))
            for other, chance in alternatives
            if (max(other), min(other)) != shown
        ),
        halves=seen,
    )


def _other_readings(
    read: TileReadLike, shown: tuple[int, int]
) -> list[tuple[tuple[int, int], float]]:
    """The read's other likely tiles, its own first when a surer read took it (one of each)."""
    own = (max(read.pips), min(read.pips))
    first = [(own, read.confidence)] if own != shown else []
    return sorted([*first, *read.alternatives], key=lambda item: -item[1])


def _photo_corners(
    quad: NDArray[np.float32], to_photo: float, width: int, height: int
) -> tuple[tuple[int, int], ...]:
    """The outline as the contract gives it: photo pixels, clockwise from the top-left corner
    (the one nearest the photo's top-left), whichever edge that starts with."""
    scaled = np.asarray(quad, dtype=np.float64) * to_photo
    xs = np.clip(np.round(scaled[:, 0]), 0, width - 1).astype(int)
    ys = np.clip(np.round(scaled[:, 1]), 0, height - 1).astype(int)
    start = int(np.argmin(xs + ys))
    xs, ys = np.roll(xs, -start), np.roll(ys, -start)
    return tuple((int(x), int(y)) for x, y in zip(xs, ys, strict=True))


_default_reader: HandReader | None = None
_default_reader_lock = threading.Lock()


def default_reader() -> HandReader:
    """The shared reader with every committed model, built once even when several threads
    ask for it at the same moment (each would otherwise load the six models)."""
    global _default_reader
    with _default_reader_lock:
        if _default_reader is None:
            _default_reader = HandReader()
        return _default_reader


def read_hand(data: bytes, max_pips: int | None = None) -> HandReading:
    """Read a hand from photo bytes with the shared default reader."""
    return default_reader().read(data, max_pips)


def score_reading(reading: HandReading, blank_scoring: str = "pips") -> int:
    """The hand's points under the given blank rule, by the rules engine's own scoring."""
    rules = Rules.from_json({"blank_scoring": blank_scoring})
    tiles = [Tile(high, low) for high, low in reading.pip_pairs]
    return score_hand(tiles, rules).points
