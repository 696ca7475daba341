"""The winner card: a finished game's winner, final standings and best round, drawn as a PNG
to share from a phone, with the short text that goes with it. Reads a :class:`GameView`;
no database, no Flask."""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from .sheetview import GameView

WIDTH = 1080
HEIGHT = 1080
MARGIN = 72
BACKGROUND = (250, 246, 236)
INK = (33, 33, 33)
MUTED = (96, 96, 96)
ACCENT = (27, 94, 32)  # the sheet's "ok" green: the winners' rows
RULE = (214, 206, 188)

# Looked up by file name: Pillow searches the system's font folders (on Linux those under
# XDG_DATA_DIRS, e.g. /usr/share/fonts), so no path of one machine is written here. DejaVu
# and Liberation are the fonts Debian and the CI image install; Pillow's own default font is
# the last resort.
BOLD_FONTS = ("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf", "Arial Bold.ttf", "Arial.ttf")
REGULAR_FONTS = ("DejaVuSans.ttf", "LiberationSans-Regular.ttf", "Arial.ttf")

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@dataclass(frozen=True)
class BestRound:
    """The lowest single-round score of the game and every (player, round) that scored it."""

    points: int
    who: tuple[tuple[str, int], ...]


class GameNotFinished(ValueError):
    """A winner card asked for a game still being played."""


@lru_cache(maxsize=32)
def load_font(size: int, bold: bool = False) -> Font:
    """A TrueType font of ``size`` pixels from the system, else Pillow's default font."""
    for name in BOLD_FONTS if bold else REGULAR_FONTS:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size)


def best_round(view: GameView) -> BestRound | None:
    """The lowest score anyone made in one round, and who made it in which round."""
    scored = [(points, name, r.n) for r in view.rounds for name, points in r.points.items()]
    if not scored:
        return None
    lowest = min(points for points, _, _ in scored)
    order = {name: seat for seat, name in enumerate(view.players)}
    who = sorted(
        ((name, n) for points, name, n in scored if points == lowest),
        key=lambda item: (item[1], order[item[0]]),
    )
    return BestRound(lowest, tuple(who))


def names_words(names: list[str]) -> str:
    """Names as a sentence lists them: "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def points_words(points: int) -> str:
    """A score in words a player reads: "1 point", "42 points"."""
    return f"{points} point{'' if abs(points) == 1 else 's'}"


def headline(view: GameView) -> str:
    """ "Ann wins!" or "Ann and Bob tie for the win!"."""
    if len(view.winners) == 1:
        return f"{view.winners[0]} wins!"
    return f"{names_words(view.winners)} tie for the win!"


def best_round_words(best: BestRound, most: int = 3) -> str:
    """ "Best round: Bob, 0 points in round 5"; a score several made (going out scores 0
    most rounds) with how often each made it, most first: "Best round: 0 points (Jo 4
    times, Ann twice, Cy once and 2 more)"."""
    if len(best.who) == 1:
        name, n = best.who[0]
        return f"Best round: {name}, {points_words(best.points)} in round {n}"
    times = Counter(name for name, _ in best.who)
    ranked = sorted(times, key=lambda name: -times[name])  # a stable sort keeps the seat order
    shown = [f"{name} {times_words(times[name])}" for name in ranked[:most]]
    if len(ranked) > most:
        shown.append(f"{len(ranked) - most} more")
    return f"Best round: {points_words(best.points)} ({names_words(shown)})"


def times_words(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def share_text(view: GameView) -> str:
    """The short text shared with the card."""
    if not view.finished:
        raise GameNotFinished("The game is not finished.")
    winner_total = view.totals[view.winners[0]]
    others = [name for name in view.standings if name not in view.winners]
    lines = [
        f"Mexican Train: {headline(view)} {points_words(winner_total)} after "
        f"{len(view.rounds)} rounds."
    ]
    if others:
        lines.append("Then " + ", ".join(f"{name} {view.totals[name]}" for name in others) + ".")
    best = best_round(view)
    if best is not None:
        lines.append(best_round_words(best) + ".")
    return " ".join(lines)


def fit(text: str, font: Font, width: float) -> str:
    """``text`` cut to ``width`` pixels with an ellipsis when it is longer."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, font: Font, width: float, lines: int = 2) -> list[str]:
    """``text`` broken at spaces into at most ``lines`` lines of ``width`` pixels, the last
    one cut with an ellipsis when the text is longer."""
    words = text.split(" ")
    result: list[str] = []
    while words and len(result) < lines - 1:
        line = words.pop(0)
        while words and font.getlength(f"{line} {words[0]}") <= width:
            line = f"{line} {words.pop(0)}"
        result.append(fit(line, font, width))
    if words:
        result.append(fit(" ".join(words), font, width))
    return result


def render_png(view: GameView) -> bytes:
    """Draw the winner card of a finished game as PNG bytes (WIDTH x HEIGHT)."""
    if not view.finished:
        raise GameNotFinished("The game is not finished.")
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN
    y = MARGIN
    draw.text((MARGIN, y), "Mexican Train", font=load_font(40), fill=MUTED)
    y += 64
    # The winners' names get the big line to themselves, so a long name loses only its end.
    title = load_font(84, bold=True)
    draw.text((MARGIN, y), fit(names_words(view.winners), title, inner), font=title, fill=ACCENT)
    y += 110
    winner_total = view.totals[view.winners[0]]
    won = "wins" if len(view.winners) == 1 else "tie for the win"
    subtitle = f"{won} with {points_words(winner_total)} after {len(view.rounds)} rounds"
    draw.text((MARGIN, y), fit(subtitle, load_font(40), inner), font=load_font(40), fill=INK)
    y += 76
    draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=RULE, width=4)
    y += 24

    footer_top = HEIGHT - MARGIN - 110
    row = min(120, (footer_top - y - 16) // max(1, len(view.standings)))
    size = max(24, int(row * 0.6))
    rank_font, name_font = load_font(size, bold=True), load_font(size)
    total_font = load_font(size, bold=True)
    rank_width = rank_font.getlength("88") + 32
    for name in view.standings:
        colour = ACCENT if name in view.winners else INK
        total = str(view.totals[name])
        total_width = total_font.getlength(total)
        draw.text((MARGIN, y), str(view.ranks[name]), font=rank_font, fill=MUTED)
        room = inner - rank_width - total_width - 32
        draw.text((MARGIN + rank_width, y), fit(name, name_font, room), font=name_font, fill=colour)
        draw.text((WIDTH - MARGIN - total_width, y), total, font=total_font, fill=colour)
        y += row

    y = footer_top
    draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=RULE, width=4)
    best = best_round(view)
    if best is not None:
        footer = load_font(36)
        for index, line in enumerate(wrap(best_round_words(best), footer, inner)):
            draw.text((MARGIN, y + 20 + 46 * index), line, font=footer, fill=INK)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()
