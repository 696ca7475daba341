"""Database trouble in words a player can act on (a full disk, a read-only file)."""

from __future__ import annotations

FULL = ("database or disk is full", "no space left on device", "could not extend file")
READ_ONLY = ("readonly database", "read-only", "permission denied", "unable to open database file")


def storage_trouble(error: BaseException) -> str:
    """Say what is wrong with the database behind ``error``, as the end of a sentence."""
    text = str(error).casefold()
    if any(words in text for words in FULL):
        return "the laptop's disk is full"
    if any(words in text for words in READ_ONLY):
        return "the scores file can't be written (it is read-only or its folder is)"
    return "the database could not be reached"
