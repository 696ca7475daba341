"""Camera pipeline: read the dominoes left in a hand from a phone photo.

Public API: `read_hand(data) -> HandReading`, `score_reading(reading, blank_scoring)`,
`HandReader` (holds the two model sessions: tile finder and half reader), `PhotoError`
(unreadable photo), and the result types `HandReading` and `DetectedTile`.
"""

from vision.decode import PhotoError, decode_photo
from vision.pipeline import HandReader, read_hand, score_reading
from vision.types import DetectedTile, HandReading

__all__ = [
    "DetectedTile",
    "HandReader",
    "HandReading",
    "PhotoError",
    "decode_photo",
    "read_hand",
    "score_reading",
]
