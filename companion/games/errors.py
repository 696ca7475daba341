"""What can go wrong with a request to a game: each error carries a plain message for the
players, the input at fault and an HTTP status. Pages and the API turn them into answers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..rules.integrity import Problem
from ..storage import storage_trouble

if TYPE_CHECKING:
    from .models import Game


class ServiceError(Exception):
    """A request the game cannot carry out; nothing was saved."""

    status = 400

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def details(self) -> dict[str, Any]:
        """Anything more the API's error answer carries besides the message and field."""
        return {}


class ValidationFailed(ServiceError):
    """Bad input: the message says what is wrong and ``field`` names the input."""


class RoundRefused(ValidationFailed):
    """A round the rules would not allow (or a score to confirm first); ``problems`` has all."""

    def __init__(self, problems: list[Problem]) -> None:
        first = problems[0]
        super().__init__(first.message, first.field)
        self.problems = problems

    @property
    def needs_confirmation_only(self) -> bool:
        """Whether every problem goes away once the players confirm their scores."""
        return all(problem.needs_confirmation for problem in self.problems)

    def details(self) -> dict[str, Any]:
        return {
            "problems": [
                {
                    "field": problem.field,
                    "error": problem.message,
                    "confirm": problem.needs_confirmation,
                    **(
                        {"suggestion": problem.suggestion} if problem.suggestion is not None else {}
                    ),
                }
                for problem in self.problems
            ]
        }


class StorageTrouble(ValidationFailed):
    """The database refused a write (a full disk, a read-only file); nothing was saved."""

    status = 503

    def __init__(self, error: BaseException) -> None:
        trouble = storage_trouble(error)
        super().__init__(
            f"{trouble[:1].upper()}{trouble[1:]}: this change was not saved. Keep this page "
            "open and save again once that is fixed."
        )


class GameNotFound(ServiceError):
    """No game has this id (or it was deleted)."""

    status = 404


class RoundNotFound(ServiceError):
    """The game's schedule has no round with this number."""

    status = 404


class TokenMissing(ServiceError):
    """A write came without the game's edit token."""

    status = 401


class TokenWrong(ServiceError):
    """A write came with a token that is not this game's."""

    status = 403


class StaleVersion(ServiceError):
    """The write was based on an older version of the game; the current game is attached."""

    status = 409

    def __init__(self, game: Game) -> None:
        super().__init__(
            "This game was changed on another device since you loaded it; nothing was saved. "
            "Check the current scores and enter your change again.",
            "version",
        )
        self.game = game


class NothingToUndo(ServiceError):
    """The history has no change left to undo."""

    status = 409


class PersonNotFound(ServiceError):
    """No person in the book has this id (merged into another, perhaps)."""

    status = 404


class BookChanged(ServiceError):
    """A people form built on what another phone has changed since; nothing was saved."""

    status = 409
