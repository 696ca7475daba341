"""The service layer directly: races between phones, ranks and stored entries."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import update

from companion.extensions import db
from companion.games import errors, export, service, sheetview
from companion.games.models import Game


def test_a_write_that_loses_a_race_is_a_409_not_an_overwrite(app: Flask) -> None:
    with app.app_context():
        game, _token = service.create_game(["Ann", "Bob"], {})
        game_id = game.id
        # Another phone commits between our version check and our commit.
        db.session.execute(update(Game).where(Game.id == game_id).values(version=Game.version + 1))
        with pytest.raises(errors.StaleVersion) as raised:
            service.set_round(game, 1, {"Ann": {"points": 4}}, 1)
        assert raised.value.status == 409
        db.session.expire_all()
        fresh = service.get_game(game_id)
        assert fresh.version == 2
        assert fresh.rounds == []


def test_equal_totals_share_a_rank(app: Flask) -> None:
    with app.app_context():
        game, _token = service.create_game(["Ann", "Bob", "Cy", "Dee"], {})
        service.set_round(
            game,
            1,
            {"Ann": {"points": 5}, "Bob": {"points": 5}, "Cy": {"points": 1}, "Dee": {"points": 9}},
            1,
        )
        view = sheetview.view_game(game)
        assert view.ranks == {"Cy": 1, "Ann": 2, "Bob": 2, "Dee": 4}
        assert view.standings == ["Cy", "Ann", "Bob", "Dee"]
        assert view.cumulative["Dee"] == [9]


def test_an_unchanged_write_does_not_add_history(app: Flask) -> None:
    with app.app_context():
        game, _token = service.create_game(["Ann", "Bob"], {})
        service.set_round(game, 1, {"Ann": {"points": 5}}, 1)
        service.set_round(game, 1, {"Ann": {"points": 5}}, 2)
        assert game.version == 2
        assert len(service.history(game)) == 1


def test_picking_no_tiles_means_the_player_went_out(app: Flask) -> None:
    with app.app_context():
        game, _token = service.create_game(["Ann", "Bob"], {"going_out_bonus": -5})
        service.set_round(game, 1, {"Ann": {"tiles": []}}, 1)
        round_one = export.game_to_json(sheetview.view_game(game))["rounds"][0]
        assert round_one["scores"]["Ann"] == {"points": -5, "went_out": True, "tiles": []}
