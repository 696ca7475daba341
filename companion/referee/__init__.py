"""The referee page: settle a dispute at the table under the game's house rules."""

from .views import bp

__all__ = ["bp"]
