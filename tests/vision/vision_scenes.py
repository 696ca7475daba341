"""Drawn test scenes shared by the vision tests (no model, no renderer needed)."""

from __future__ import annotations

import cv2
import numpy as np


def draw_tile(
    image: np.ndarray,
    centre: tuple[float, float],
    angle: float,
    length: float,
    *,
    face_up: bool = True,
    body: tuple[int, int, int] = (225, 235, 240),
    ink: tuple[int, int, int] = (20, 20, 20),
) -> np.ndarray:
    """Draw a domino (face up: divider and pips) and return its true corners (4, 2)."""
    half_long, half_short = length / 2, length / 4
    c, s = np.cos(angle), np.sin(angle)
    axis_long, axis_short = np.array([c, s]), np.array([-s, c])
    centre_v = np.array(centre)

    def at(u: float, v: float) -> np.ndarray:
        return centre_v + u * axis_long + v * axis_short

    corners = np.array(
        [
            at(-half_long, -half_short),
            at(half_long, -half_short),
            at(half_long, half_short),
            at(-half_long, half_short),
        ]
    )
    cv2.fillConvexPoly(image, np.round(corners).astype(np.int32), body)
    if face_up:
        thickness = max(int(length / 40), 2)
        top = tuple(int(v) for v in np.round(at(0, -half_short * 0.8)))
        bottom = tuple(int(v) for v in np.round(at(0, half_short * 0.8)))
        cv2.line(image, top, bottom, ink, thickness)
        radius = max(int(length / 22), 2)
        for u, v in ((-0.7, -0.5), (-0.3, 0.5), (0.5, 0.0), (0.3, -0.5), (0.7, 0.5)):
            point = tuple(int(p) for p in np.round(at(u * half_long, v * half_short)))
            cv2.circle(image, point, radius, ink, -1)
    return corners


def table(height: int = 600, width: int = 800) -> np.ndarray:
    """A green, slightly noisy table top."""
    rng = np.random.default_rng(3)
    top = np.full((height, width, 3), (60, 90, 50), dtype=np.uint8)
    noise = rng.integers(-8, 9, top.shape)
    return np.clip(top.astype(int) + noise, 0, 255).astype(np.uint8)


def iou(first: np.ndarray, second: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    a, b = first.astype(np.float32), second.astype(np.float32)
    inter, _ = cv2.intersectConvexConvex(a, b)
    union = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return float(inter / union) if union > 0 else 0.0


def png_bytes(image: np.ndarray) -> bytes:
    """Encode a BGR array as PNG."""
    ok, encoded = cv2.imencode(".png", image)
    assert ok
    return encoded.tobytes()
