"""White balance: a photo taken under tinted light is put back towards neutral before its
tiles are read.

A kitchen bulb, a pink lamp shade or a phone whose own white balance gave up turns a blank
half from white to orange or pink, and the face-down check then takes a blank double for a
tile's coloured back (the dev photos with a warm or pink tint laid over them: 61 of 62 read
exact untinted, 54 and 55 tinted; models/MODEL_CARD.md, "White balance"). The finder still
outlines such tiles, so the light's colour is read off the faces it outlined: the brightest
part of a tile is its white face (or, on a black tile, its white pips), whatever the table's
colour. Each channel is then scaled so that white comes out no more tinted than the models
were taught to read (TAUGHT_TINT): a photo in that range is left exactly as it is, since
making it fully grey moved rendered tables' markers and tiles the models already read right.
The whole photo's brightest pixels are no guide to the light: a teal board, a green cloth or
a lamp can be brighter than any tile.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

BRIGHTEST_SHARE = 0.1
"""The brightest share of the pixels inside the outlines taken to be white in the light that
fell on them (a white tile's face, or the pips of a black one)."""

SAMPLE_STEP = 4
"""The photo is looked at shrunk this many times across and down: the light's colour does not
need every pixel."""

MIN_PIXELS = 50
"""Fewer sampled pixels inside the outlines than this say nothing of the light."""

GAIN_LIMITS = (0.6, 1.7)
"""No channel is scaled by less or more than this."""

TAUGHT_TINT = 0.12
"""How far from 1 a gain may be and the models still read the photo as they were taught
(the renderer tints its scenes about this much): only a tint beyond this is taken away."""

NEUTRAL_ENOUGH = 0.02
"""Gains all within this of 1 leave the photo as it is: a photo already neutral is not
touched (nor copied)."""

Pixels = NDArray[np.uint8]


def light_colour(
    pixels: Pixels, outlines: Sequence[NDArray[np.float32]], share: float = BRIGHTEST_SHARE
) -> NDArray[np.float32] | None:
    """The colour (B, G, R, 0..255) of the brightest ``share`` of the pixels inside the tile
    ``outlines`` (corners in ``pixels``' coordinates), their per-channel median: what white
    looks like in this photo's light. None where the outlines cover too few pixels."""
    if pixels.ndim != 3 or pixels.shape[2] != 3:
        raise ValueError(f"expected an (H, W, 3) photo, got shape {pixels.shape}")
    height, width = pixels.shape[:2]
    small_size = (max(1, width // SAMPLE_STEP), max(1, height // SAMPLE_STEP))
    small = cv2.resize(pixels, small_size, interpolation=cv2.INTER_NEAREST)
    scale = np.array([small_size[0] / width, small_size[1] / height], np.float32)
    inside = np.zeros(small.shape[:2], np.uint8)
    polygons = [
        np.round(np.asarray(outline, np.float32).reshape(-1, 2) * scale).astype(np.int32)
        for outline in outlines
    ]
    if polygons:
        cv2.fillPoly(inside, polygons, 1)
    chosen = small[inside > 0]
    if chosen.shape[0] < MIN_PIXELS:
        return None
    brightness = chosen.astype(np.uint16).sum(axis=1)
    count = max(1, int(round(chosen.shape[0] * share)))
    brightest = np.argpartition(brightness, chosen.shape[0] - count)[-count:]
    return np.asarray(np.median(chosen[brightest], axis=0), dtype=np.float32)


def white_gains(pixels: Pixels, outlines: Sequence[NDArray[np.float32]]) -> NDArray[np.float32]:
    """Per-channel gains (B, G, R) that make the light's colour grey at the same brightness,
    each within GAIN_LIMITS (all 1 where the outlines say nothing of the light)."""
    colour = light_colour(pixels, outlines)
    if colour is None:
        return np.ones(3, np.float32)
    colour = np.maximum(colour, 1.0)
    gains = colour.mean() / colour
    beyond = np.sign(gains - 1.0) * np.maximum(np.abs(gains - 1.0) - TAUGHT_TINT, 0.0)
    return np.asarray(np.clip(1.0 + beyond, *GAIN_LIMITS), dtype=np.float32)


def white_balanced(pixels: Pixels, outlines: Sequence[NDArray[np.float32]]) -> Pixels:
    """The photo with its light's tint taken down to what the models were taught, judged by
    the tiles outlined in it (the same array where it is within that already)."""
    gains = white_gains(pixels, outlines)
    if bool(np.all(np.abs(gains - 1.0) < NEUTRAL_ENOUGH)):
        return pixels
    scaling = np.diag(gains).astype(np.float32)
    return np.asarray(cv2.transform(np.ascontiguousarray(pixels), scaling), dtype=np.uint8)
