"""The family's record book: every person's figures across games, head to head, and the page
that renames and merges people."""

from .views import bp

__all__ = ["bp"]
