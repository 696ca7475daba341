"""QR codes drawn as inline SVG (no Pillow, no network)."""

from __future__ import annotations

import functools

import qrcode
from markupsafe import Markup, escape

QUIET_ZONE = 2  # modules of white border; phones read 2 fine off a screen


def _dark_runs(matrix: list[list[bool]]) -> str:
    """One path rectangle per horizontal run of dark modules (a third of one per module)."""
    parts = []
    for y, row in enumerate(matrix):
        x = 0
        while x < len(row):
            if not row[x]:
                x += 1
                continue
            start = x
            while x < len(row) and row[x]:
                x += 1
            parts.append(f"M{start} {y}h{x - start}v1h-{x - start}z")
    return "".join(parts)


# Drawing a code takes milliseconds and the pages show the same few addresses again and again,
# so finished SVGs are kept.
@functools.lru_cache(maxsize=256)
def qr_svg(data: str, label: str) -> Markup:
    """Return an inline ``<svg>`` QR code for ``data`` that screen readers announce as ``label``.

    The SVG has a viewBox but no width or height: CSS sizes it.
    """
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=QUIET_ZONE)
    code.add_data(data)
    code.make(fit=True)
    matrix = code.get_matrix()
    size = len(matrix)
    return Markup(
        f'<svg role="img" aria-label="{escape(label)}" class="qr" viewBox="0 0 {size} {size}" '
        'xmlns="http://www.w3.org/2000/svg" shape-rendering="crispEdges">'
        f'<rect width="{size}" height="{size}" fill="#fff"/>'
        f'<path d="{_dark_runs(matrix)}" fill="#000"/></svg>'
    )
