"""The standings chart: cumulative score by round, drawn on the server as inline SVG."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence

from markupsafe import Markup, escape

WIDTH = 340
HEIGHT = 220
PAD_LEFT = 34
PAD_RIGHT = 8
PAD_TOP = 10
PAD_BOTTOM = 24
# Distinct hues that stay readable on white, plus dash patterns so colour is never the only cue.
COLOURS = ("#1f5fa8", "#b3261e", "#1b7a3a", "#7a4bb0", "#a35a00", "#00727a", "#8a2b6b", "#444")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 2 1 2", "3 3")


def axis_ticks(low: int, high: int, most: int = 6) -> list[int]:
    """Round-numbered ticks (steps of 1, 2, 5, 10, 20, 25, 50, ...) covering ``low..high``,
    at most ``most`` of them, the first at or below ``low`` and the last at or above ``high``."""
    span = max(high - low, 1)
    step = 1
    for multiplier in itertools.cycle((2, 2.5, 2)):
        if -(-span // step) + 1 <= most:
            break
        step = int(step * multiplier)
    first = (low // step) * step
    last = -(-high // step) * step
    return list(range(first, last + 1, step))


def cumulative_chart(
    players: Sequence[str], cumulative: Mapping[str, Sequence[int]], rounds: int
) -> Markup:
    """Return an SVG line chart of each player's running total after every scored round."""
    played = max((len(values) for values in cumulative.values()), default=0)
    if played == 0:
        return Markup("")
    ticks = axis_ticks(
        min(0, *(min(values) for values in cumulative.values() if values)),
        max(1, *(max(values) for values in cumulative.values() if values)),
    )
    low, high = ticks[0], ticks[-1]
    plot_w = WIDTH - PAD_LEFT - PAD_RIGHT
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    span_x = max(rounds, 2) - 1

    def x_at(index: int) -> float:
        return PAD_LEFT + plot_w * index / span_x

    def y_at(value: int) -> float:
        return PAD_TOP + plot_h * (high - value) / (high - low)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="chart-title" xmlns="http://www.w3.org/2000/svg">',
        '<title id="chart-title">Running totals after each round (lower is better); '
        "the table above has the same numbers.</title>",
    ]
    parts.extend(_grid(ticks, y_at))
    for index in range(rounds):
        if rounds <= 13 or index % 2 == 0:
            parts.append(
                f'<text x="{x_at(index):.1f}" y="{HEIGHT - 8}" class="tick" '
                f'text-anchor="middle">{index + 1}</text>'
            )
    for seat, name in enumerate(players):
        values = cumulative.get(name, ())
        if not values:
            continue
        colour = COLOURS[seat % len(COLOURS)]
        dash = DASHES[seat % len(DASHES)]
        points = " ".join(f"{x_at(i):.1f},{y_at(v):.1f}" for i, v in enumerate(values))
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2.5"'
            f"{dash_attr}><title>{escape(name)}: {values[-1]}</title></polyline>"
        )
        last_x, last_y = x_at(len(values) - 1), y_at(values[-1])
        parts.append(f'<circle cx="{last_x:.1f}" cy="{last_y:.1f}" r="3.5" fill="{colour}"/>')
    parts.append("</svg>")
    return Markup("".join(parts))


def game_totals_chart(name: str, totals: Sequence[int], won: Sequence[bool]) -> Markup:
    """Return an SVG line chart of one person's total in each finished game, oldest first;
    games they won get a filled ring, so the wins stand out without relying on colour."""
    if not totals:
        return Markup("")
    ticks = axis_ticks(min(0, *totals), max(1, *totals))
    low, high = ticks[0], ticks[-1]
    plot_w = WIDTH - PAD_LEFT - PAD_RIGHT
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    span_x = max(len(totals), 2) - 1

    def x_at(index: int) -> float:
        return PAD_LEFT + plot_w * index / span_x

    def y_at(value: int) -> float:
        return PAD_TOP + plot_h * (high - value) / (high - low)

    wins = sum(1 for flag in won if flag)
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="totals-chart-title" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="totals-chart-title">{escape(name)}\'s total in each of '
        f"{len(totals)} finished games, oldest first (lower is better); filled dots are the "
        f"{wins} games won.</title>",
    ]
    parts.extend(_grid(ticks, y_at))
    step = max(1, -(-len(totals) // 8))
    for index in range(0, len(totals), step):
        parts.append(
            f'<text x="{x_at(index):.1f}" y="{HEIGHT - 8}" class="tick" '
            f'text-anchor="middle">{index + 1}</text>'
        )
    points = " ".join(f"{x_at(i):.1f},{y_at(v):.1f}" for i, v in enumerate(totals))
    parts.append(
        f'<polyline points="{points}" fill="none" stroke="{COLOURS[0]}" stroke-width="2"/>'
    )
    if len(totals) <= 200:  # beyond that the dots would only blur the line
        for index, (value, flag) in enumerate(zip(totals, won, strict=True)):
            fill = COLOURS[0] if flag else "#fff"
            parts.append(
                f'<circle cx="{x_at(index):.1f}" cy="{y_at(value):.1f}" r="3" '
                f'fill="{fill}" stroke="{COLOURS[0]}" stroke-width="1.5"/>'
            )
    parts.append("</svg>")
    return Markup("".join(parts))


def _grid(ticks: Sequence[int], y_at: Callable[[int], float]) -> list[str]:
    """A chart's horizontal grid lines, each labelled with its value on the left."""
    lines = []
    for value in ticks:
        y = y_at(value)
        lines.append(
            f'<line x1="{PAD_LEFT}" x2="{WIDTH - PAD_RIGHT}" y1="{y:.1f}" y2="{y:.1f}" '
            'class="grid"/>'
        )
        lines.append(
            f'<text x="{PAD_LEFT - 4}" y="{y + 4:.1f}" class="tick" '
            f'text-anchor="end">{value}</text>'
        )
    return lines
