"""QR codes drawn as inline SVG (no Pillow, no network)."""

from __future__ import annotations

import functools

import qrcode
import qrcode.image.svg
from markupsafe import Markup, escape


# Drawing a code takes tens of milliseconds and the pages show the same few addresses again and
# again, so finished SVGs are kept.
@functools.lru_cache(maxsize=256)
def qr_svg(data: str, label: str) -> Markup:
    """Return an inline ``<svg>`` QR code for ``data`` that screen readers announce as ``label``."""
    code = qrcode.QRCode(
        image_factory=qrcode.image.svg.SvgPathImage,
        error_correction=qrcode.constants.ERROR_CORRECT_M,
        border=2,
    )
    code.add_data(data)
    code.make(fit=True)
    image = code.make_image(attrib={"class": "qr"})
    svg: str = image.to_string(encoding="unicode")
    # The library writes a fixed size in millimetres; CSS sizes it instead.
    svg = svg.replace('width="', 'data-width="', 1).replace('height="', 'data-height="', 1)
    accessible = f'<svg role="img" aria-label="{escape(label)}" '
    return Markup(svg.replace("<svg ", accessible, 1))
