"""Decoding uploads: every accepted format, EXIF orientation, and every refusal."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pillow_heif
import pytest
from PIL import Image

from vision.decode import (
    FULL_DECODE_MAX_PIXELS,
    MAX_PIXELS,
    PhotoError,
    check_photo,
    decode_photo,
)


def _marked_rgb(width: int = 60, height: int = 40) -> Image.Image:
    """A photo with a red block in its top-left corner, to see where rotation puts it."""
    pixels = np.full((height, width, 3), 255, dtype=np.uint8)
    pixels[:10, :15] = (255, 0, 0)
    return Image.fromarray(pixels, "RGB")


def _encoded(image: Image.Image, fmt: str, **options: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=fmt, **options)
    return buffer.getvalue()


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_decodes_common_formats_to_bgr(fmt: str) -> None:
    photo = decode_photo(
        _encoded(_marked_rgb(), fmt, quality=95) if fmt != "PNG" else _encoded(_marked_rgb(), fmt)
    )
    assert photo.pixels.shape == (40, 60, 3), f"unexpected shape {photo.pixels.shape}"
    assert (photo.width, photo.height) == (60, 40)
    blue, green, red = (int(v) for v in photo.pixels[4, 4])
    assert red > 200 and blue < 60 and green < 60, "channels must come out in BGR order"


def test_decodes_heic_written_by_pillow_heif() -> None:
    pillow_heif.register_heif_opener()
    data = _encoded(_marked_rgb(64, 48), "HEIF", quality=95)
    photo = decode_photo(data)
    assert photo.pixels.shape == (48, 64, 3)
    blue, _, red = (int(v) for v in photo.pixels[4, 4])
    assert red > 180 and blue < 90


def test_applies_exif_orientation() -> None:
    exif = Image.Exif()
    exif[0x0112] = 6  # stored landscape; display rotated 90 degrees clockwise
    data = _encoded(_marked_rgb(60, 40), "JPEG", quality=95, exif=exif.tobytes())
    photo = decode_photo(data)
    assert photo.pixels.shape == (60, 40, 3), "orientation 6 turns a landscape photo portrait"
    assert (photo.width, photo.height) == (40, 60)
    # Rotating clockwise moves the top-left corner to the top-right.
    assert int(photo.pixels[4, 35, 2]) > 200 and int(photo.pixels[4, 35, 0]) < 80
    assert int(photo.pixels[4, 4, 0]) > 200, "the top-left corner is white after rotation"


def test_reduced_decode_reports_the_full_size() -> None:
    data = _encoded(_marked_rgb(1600, 1200), "JPEG", quality=90)
    photo = decode_photo(data, min_long_side=400)
    assert (photo.width, photo.height) == (1600, 1200)
    assert max(photo.pixels.shape[:2]) >= 400
    assert photo.pixels.shape[1] < 1600, "a large JPEG should decode at a reduced scale"
    assert photo.scale == pytest.approx(photo.pixels.shape[1] / 1600)


def test_refuses_empty_file() -> None:
    with pytest.raises(PhotoError, match="empty"):
        decode_photo(b"")


def test_refuses_non_image() -> None:
    with pytest.raises(PhotoError, match="not an image"):
        decode_photo(b"these are my dominoes, honest\n" * 10)


def test_refuses_truncated_jpeg() -> None:
    data = _encoded(
        Image.fromarray(np.random.default_rng(0).integers(0, 255, (300, 300, 3), dtype=np.uint8)),
        "JPEG",
    )
    with pytest.raises(PhotoError, match="truncated or corrupt"):
        decode_photo(data[: len(data) // 2])


def _png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims a huge size (a decompression bomb's header)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + header
    ihdr = struct.pack(">I", len(header)) + chunk + struct.pack(">I", zlib.crc32(chunk))
    body = zlib.compress(b"\x00" * 64)
    idat = (
        struct.pack(">I", len(body))
        + b"IDAT"
        + body
        + struct.pack(">I", zlib.crc32(b"IDAT" + body))
    )
    iend = struct.pack(">I", 0) + b"IEND" + struct.pack(">I", zlib.crc32(b"IEND"))
    return b"\x89PNG\r\n\x1a\n" + ihdr + idat + iend


@pytest.mark.parametrize("side", [8000, 30000])
def test_refuses_too_many_pixels_before_decoding(side: int) -> None:
    assert side * side > MAX_PIXELS
    with pytest.raises(PhotoError, match="too large"):
        decode_photo(_png_claiming(side, side))


def test_pixel_limit_is_adjustable() -> None:
    data = _encoded(_marked_rgb(60, 40), "PNG")
    with pytest.raises(PhotoError, match="too large"):
        decode_photo(data, max_pixels=1000)


def test_a_big_png_is_refused_from_its_header() -> None:
    # Over what PNG may be (it is decoded in full), under the JPEG limit; a header only: had
    # decoding begun, the missing pixels would fail it as truncated.
    data = _png_claiming(6000, 5000)
    assert FULL_DECODE_MAX_PIXELS < 6000 * 5000 < MAX_PIXELS
    with pytest.raises(PhotoError, match="too large to read as PNG \\(6000x5000 pixels"):
        check_photo(data)
    with pytest.raises(PhotoError, match="too large to read as PNG"):
        decode_photo(data, min_long_side=2000)


def test_a_big_jpeg_is_still_read_shrunk() -> None:
    data = _encoded(Image.new("RGB", (6000, 5000), (120, 120, 120)), "JPEG", quality=50)
    assert check_photo(data) == (6000, 5000)
    photo = decode_photo(data, min_long_side=2000)
    assert (photo.width, photo.height) == (6000, 5000)
    assert 2000 <= photo.pixels.shape[1] <= 3000


@pytest.mark.parametrize("fmt", ["PNG", "WEBP", "HEIF"])
def test_other_formats_are_shrunk_right_after_decoding(fmt: str) -> None:
    pillow_heif.register_heif_opener()
    data = _encoded(_marked_rgb(1600, 1200), fmt, **({} if fmt == "PNG" else {"quality": 90}))
    photo = decode_photo(data, min_long_side=400)
    assert (photo.width, photo.height) == (1600, 1200)
    assert photo.pixels.shape[:2] == (300, 400), "shrunk 4 times, long side still 400"
    assert photo.scale == pytest.approx(0.25)
    blue, _, red = (int(v) for v in photo.pixels[1, 1])
    assert red > 180 and blue < 90, "the red corner is still top-left"


def test_a_shrunk_png_keeps_its_exif_orientation() -> None:
    exif = Image.Exif()
    exif[0x0112] = 6  # stored landscape; display rotated 90 degrees clockwise
    data = _encoded(_marked_rgb(800, 400), "PNG", exif=exif.tobytes())
    photo = decode_photo(data, min_long_side=200)
    assert (photo.width, photo.height) == (400, 800)
    assert photo.pixels.shape[:2] == (200, 100), "shrunk 4 times and turned portrait"
    assert int(photo.pixels[1, 98, 2]) > 200, "the red corner went top-right"
    assert int(photo.pixels[1, 1, 0]) > 200, "the top-left corner is white after turning"
