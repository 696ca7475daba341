"""Decode an uploaded photo (JPEG, PNG, WebP, HEIC) into an upright BGR array."""

from __future__ import annotations

import io
import math
import warnings
from dataclasses import dataclass

import cv2
import numpy as np
import pillow_heif
from numpy.typing import NDArray
from PIL import Image, ImageOps, UnidentifiedImageError

MAX_PIXELS = 50_000_000
"""Largest photo accepted (width x height); phone cameras stay well below this."""

FULL_DECODE_MAX_PIXELS = 25_000_000
"""Largest PNG, WebP or HEIC accepted. JPEGs shrink while they are decoded (libjpeg's DCT
scaling), so a 50-MP JPEG costs what a 3-MP one does; these formats are decoded in full before
they are shrunk, so their size bounds a read's memory: a flat 49-MP PNG of 160 kB took 470 MB
to decode. A 24-MP iPhone HEIC fits; PNG and WebP photos come from screenshots or from the
page's own 2000-px resize."""

ACCEPTED_FORMATS = frozenset({"JPEG", "PNG", "WEBP", "HEIF", "MPO"})
SHRINKS_WHILE_DECODING = frozenset({"JPEG", "MPO"})
REDUCIBLE_MODES = frozenset({"L", "LA", "RGB", "RGBA", "RGBX", "I", "F"})

pillow_heif.register_heif_opener()


class PhotoError(ValueError):
    """The bytes are not a photo this pipeline can read; the message is plain words."""


@dataclass(frozen=True)
class Photo:
    """A decoded photo, upright (EXIF orientation applied)."""

    pixels: NDArray[np.uint8]
    """(H, W, 3) uint8 BGR; smaller than width x height when decoded at reduced size."""
    width: int
    """Full width of the upright photo in pixels."""
    height: int
    """Full height of the upright photo in pixels."""

    @property
    def scale(self) -> float:
        """Size of `pixels` relative to the full photo (1.0 when decoded in full)."""
        return float(self.pixels.shape[1]) / self.width


def check_photo(data: bytes, *, max_pixels: int = MAX_PIXELS) -> tuple[int, int]:
    """Check from its header that ``data`` is a photo this pipeline reads, and return its size
    (as stored, before EXIF orientation); no pixel is decoded.

    Raises PhotoError as :func:`decode_photo` does.
    """
    with _opened(data, max_pixels) as image:
        return image.size


def decode_photo(
    data: bytes, *, max_pixels: int = MAX_PIXELS, min_long_side: int | None = None
) -> Photo:
    """Decode image bytes to an upright BGR photo.

    Raises PhotoError for empty, non-image, truncated or oversized files. The pixel limit
    is checked from the header, before any pixels are decoded (PNG, WebP and HEIC are held to
    FULL_DECODE_MAX_PIXELS too). With `min_long_side`, a photo larger than twice that is
    shrunk while its long side stays at least `min_long_side`: a JPEG while it is decoded
    (libjpeg's DCT scaling, much faster than decoding in full and resizing), other formats
    right after decoding, before any copy is made.
    """
    with _opened(data, max_pixels) as image:
        width, height = image.size
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", Image.DecompressionBombWarning)
                factor = max(image.size) / min_long_side if min_long_side else 1.0
                if factor >= 2.0 and image.format in SHRINKS_WHILE_DECODING:
                    target = (image.size[0] / factor, image.size[1] / factor)
                    image.draft("RGB", (math.ceil(target[0]), math.ceil(target[1])))
                image.load()
                shown = image
                if factor >= 2.0 and image.format not in SHRINKS_WHILE_DECODING:
                    shown = _reduced(image, int(factor))
                loaded_size = shown.size
                # Turned in place: no copy of the pixels when the photo is already upright.
                ImageOps.exif_transpose(shown, in_place=True)
                if shown.size != loaded_size and shown.size == loaded_size[::-1]:
                    width, height = height, width
                rgb = shown if shown.mode == "RGB" else shown.convert("RGB")
                array = np.asarray(rgb, dtype=np.uint8)
        except Image.DecompressionBombError:
            raise PhotoError(_too_large_message((width, height), max_pixels)) from None
        except (OSError, ValueError, SyntaxError, EOFError) as exc:
            raise PhotoError(f"the image is truncated or corrupt ({_plain(exc)})") from None
    if array.ndim != 3 or array.shape[0] == 0 or array.shape[1] == 0:
        raise PhotoError("the image has no pixels")
    pixels = np.ascontiguousarray(cv2.cvtColor(array, cv2.COLOR_RGB2BGR), dtype=np.uint8)
    return Photo(pixels=pixels, width=width, height=height)


def _opened(data: bytes, max_pixels: int) -> Image.Image:
    """The image of ``data`` opened (its header read, nothing decoded) and checked."""
    if not data:
        raise PhotoError("the file is empty")
    try:
        with warnings.catch_warnings():
            # Pillow's own bomb warning is replaced by the explicit limit below.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
    except UnidentifiedImageError:
        raise PhotoError("not an image (JPEG, PNG, WebP or HEIC expected)") from None
    except Image.DecompressionBombError:
        raise PhotoError(_too_large_message(None, max_pixels)) from None
    except (OSError, ValueError, SyntaxError) as exc:
        raise PhotoError(f"the image could not be read ({_plain(exc)})") from None
    try:
        if image.format not in ACCEPTED_FORMATS:
            raise PhotoError(
                f"unsupported image format {image.format or 'unknown'} "
                "(JPEG, PNG, WebP or HEIC expected)"
            )
        width, height = image.size
        if width <= 0 or height <= 0:
            raise PhotoError("the image has no pixels")
        if width * height > max_pixels:
            raise PhotoError(_too_large_message((width, height), max_pixels))
        if image.format not in SHRINKS_WHILE_DECODING and width * height > FULL_DECODE_MAX_PIXELS:
            shown_format = "HEIC" if image.format == "HEIF" else image.format
            raise PhotoError(
                f"the image is too large to read as {shown_format} ({width}x{height} pixels; "
                f"PNG, WebP and HEIC photos up to {FULL_DECODE_MAX_PIXELS / 1e6:g} megapixels, "
                f"JPEGs up to {max_pixels / 1e6:g})"
            )
    except PhotoError:
        image.close()
        raise
    return image


def _reduced(image: Image.Image, factor: int) -> Image.Image:
    """``image`` shrunk ``factor`` times (block averages), its EXIF kept for orientation."""
    source = image if image.mode in REDUCIBLE_MODES else image.convert("RGB")
    smaller = source.reduce(factor)
    smaller.info = dict(image.info)
    return smaller


def _too_large_message(size: tuple[int, int] | None, max_pixels: int) -> str:
    limit = f"{max_pixels / 1e6:g} megapixels"
    if size is None:
        return f"the image is too large (over {limit})"
    width, height = size
    return f"the image is too large ({width}x{height} pixels, limit {limit})"


def _plain(exc: BaseException) -> str:
    text = str(exc).strip()
    return text if text else type(exc).__name__
