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

ACCEPTED_FORMATS = frozenset({"JPEG", "PNG", "WEBP", "HEIF", "MPO"})

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


def decode_photo(
    data: bytes, *, max_pixels: int = MAX_PIXELS, min_long_side: int | None = None
) -> Photo:
    """Decode image bytes to an upright BGR photo.

    Raises PhotoError for empty, non-image, truncated or oversized files. The pixel limit
    is checked from the header, before any pixels are decoded. With `min_long_side`, a JPEG
    larger than twice that is decoded at a reduced scale (libjpeg's DCT scaling, much faster
    than decoding in full and resizing) while its long side stays at least `min_long_side`.
    """
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
    with image:
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
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", Image.DecompressionBombWarning)
                if min_long_side is not None and image.format in {"JPEG", "MPO"}:
                    factor = max(image.size) / min_long_side
                    if factor >= 2.0:
                        target = (image.size[0] / factor, image.size[1] / factor)
                        image.draft("RGB", (math.ceil(target[0]), math.ceil(target[1])))
                image.load()
                loaded_size = image.size
                # Turned in place: no copy of the pixels when the photo is already upright.
                ImageOps.exif_transpose(image, in_place=True)
                if image.size != loaded_size and image.size == loaded_size[::-1]:
                    width, height = height, width
                rgb = image if image.mode == "RGB" else image.convert("RGB")
                array = np.asarray(rgb, dtype=np.uint8)
        except Image.DecompressionBombError:
            raise PhotoError(_too_large_message((width, height), max_pixels)) from None
        except (OSError, ValueError, SyntaxError, EOFError) as exc:
            raise PhotoError(f"the image is truncated or corrupt ({_plain(exc)})") from None
    if array.ndim != 3 or array.shape[0] == 0 or array.shape[1] == 0:
        raise PhotoError("the image has no pixels")
    pixels = np.ascontiguousarray(cv2.cvtColor(array, cv2.COLOR_RGB2BGR), dtype=np.uint8)
    return Photo(pixels=pixels, width=width, height=height)


def _too_large_message(size: tuple[int, int] | None, max_pixels: int) -> str:
    limit = f"{max_pixels / 1e6:g} megapixels"
    if size is None:
        return f"the image is too large (over {limit})"
    width, height = size
    return f"the image is too large ({width}x{height} pixels, limit {limit})"


def _plain(exc: BaseException) -> str:
    text = str(exc).strip()
    return text if text else type(exc).__name__
