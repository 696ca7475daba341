"""The home page: how to join from a phone, past games, and starting a new one."""

from .views import bp

__all__ = ["bp"]
