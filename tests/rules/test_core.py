"""Tiles, rules parsing, deal tables, schedule and hand scoring."""

from __future__ import annotations

import pickle

import pytest

from companion.rules import (
    PRESETS,
    HandStatus,
    InvalidTileError,
    Rules,
    RulesError,
    Tile,
    check_hand,
    deal,
    full_set,
    hand_size,
    leaders,
    max_hand_points,
    schedule,
    score_hand,
)


def rules(**overrides: object) -> Rules:
    return Rules.from_json({"preset": "standard", **overrides})


class TestTile:
    def test_normalised_and_equal_either_way(self) -> None:
        assert Tile(5, 12) == Tile(12, 5)
        assert (Tile(5, 12).high, Tile(5, 12).low) == (12, 5)
        assert hash(Tile(5, 12)) == hash(Tile(12, 5))

    def test_properties(self) -> None:
        tile = Tile(12, 5)
        assert (tile.pips, tile.is_double, tile.as_list(), str(tile)) == (
            17,
            False,
            [12, 5],
            "12-5",
        )
        assert Tile(6, 6).is_double

    def test_repr_round_trips(self) -> None:
        assert eval(repr(Tile(3, 9))) == Tile(9, 3)

    def test_immutable_and_picklable(self) -> None:
        with pytest.raises(AttributeError):
            Tile(1, 2).high = 3
        assert pickle.loads(pickle.dumps(Tile(7, 2))) is Tile(7, 2)

    @pytest.mark.parametrize("text", ["12-5", "5|12", " 5 12 ", "12:5"])
    def test_parse(self, text: str) -> None:
        assert Tile.parse(text) == Tile(12, 5)

    @pytest.mark.parametrize("text", ["", "12", "a-b", "1-2-3"])
    def test_parse_rejects(self, text: str) -> None:
        with pytest.raises(InvalidTileError):
            Tile.parse(text)

    @pytest.mark.parametrize(
        "value", [[1], [1, 2, 3], "12-5", [-1, 3], [1.5, 2], [True, 2], None, [19, 1], {"a": 1}]
    )
    def test_from_json_rejects(self, value: object) -> None:
        with pytest.raises(InvalidTileError):
            Tile.from_json(value)

    def test_from_json_order_free(self) -> None:
        assert Tile.from_json([5, 12]) is Tile(12, 5)

    @pytest.mark.parametrize(("n", "count"), [(6, 28), (9, 55), (12, 91), (15, 136), (18, 190)])
    def test_full_set(self, n: int, count: int) -> None:
        tiles = full_set(n)
        assert len(tiles) == count == len(set(tiles))
        assert max(t.high for t in tiles) == n

    def test_check_hand(self) -> None:
        assert check_hand([Tile(1, 2), Tile(3, 3)], 6) == HandStatus.VALID
        assert check_hand([Tile(1, 2), Tile(2, 1)], 6) == HandStatus.DUPLICATE_TILE
        status = check_hand([Tile(9, 2), Tile(9, 2)], 6)
        assert status == HandStatus.DUPLICATE_TILE | HandStatus.TILE_NOT_IN_SET


class TestRules:
    def test_missing_preset_means_standard(self) -> None:
        assert Rules.from_json({}) == Rules.from_json({"preset": "standard"})

    def test_override(self) -> None:
        assert rules(blank_scoring="double_blank_50").blank_scoring == "double_blank_50"

    def test_every_preset_is_valid(self) -> None:
        for name in PRESETS:
            Rules.from_json({"preset": name})

    def test_to_json_round_trips(self) -> None:
        original = rules(hand_size={"2": 9, "3": 8}, schedule=[6, 5, 4], set_max=6)
        assert Rules.from_json(original.to_json()) == original
        assert original.to_json()["hand_size"] == {"2": 9, "3": 8}

    def test_hashable(self) -> None:
        assert hash(rules()) == hash(rules())

    @pytest.mark.parametrize(
        ("data", "named"),
        [
            ({"bogus": 1}, "bogus"),
            ({"preset": "nope"}, "preset"),
            ({"set_max": 7}, "set_max"),
            ({"blanks_wild": "yes"}, "blanks_wild"),
            ({"doubles_per_turn": True}, "doubles_per_turn"),
            ({"going_out_bonus": 5}, "going_out_bonus"),
            ({"open_marker_penalty": -1}, "open_marker_penalty"),
            ({"hand_size": "mine"}, "hand_size"),
            ({"hand_size": {"two": 5}}, "hand_size"),
            ({"hand_size": {"2": 0}}, "hand_size"),
            ({"schedule": []}, "schedule"),
            ({"schedule": "ascend"}, "schedule"),
            ({"schedule": [13, 12]}, "schedule"),
        ],
    )
    def test_errors_name_the_key(self, data: dict[str, object], named: str) -> None:
        with pytest.raises(RulesError, match=named):
            Rules.from_json(data)

    def test_not_an_object(self) -> None:
        with pytest.raises(RulesError):
            Rules.from_json(["standard"])


class TestSetup:
    @pytest.mark.parametrize(
        ("table", "sizes"),
        [
            ("celko", [15, 15, 15, 12, 12, 11, 11]),
            ("fundex", [15, 15, 15, 11, 11, 8, 8]),
            ("idaho_goodsam", [16, 15, 14, 13, 12, 11, 10]),
            ("ourpastimes", [16, 16, 15, 14, 12, 10, 9]),
            ("wikihow", [12, 12, 12, 12, 12, 10, 10]),
        ],
    )
    def test_named_tables_double_12(self, table: str, sizes: list[int]) -> None:
        r = rules(hand_size=table)
        assert [hand_size(r, players) for players in range(2, 9)] == sizes

    def test_wikihow_nine_and_ten(self) -> None:
        assert hand_size(rules(hand_size="wikihow"), 10) == 8

    def test_celko_other_sets(self) -> None:
        assert [hand_size(rules(set_max=6), p) for p in (2, 3, 4)] == [9, 8, 6]
        assert [hand_size(rules(set_max=9), p) for p in range(2, 9)] == [9, 9, 9, 7, 7, 7, 6]
        assert [hand_size(rules(set_max=15), p) for p in (2, 6, 7, 8, 9, 12)] == [
            15,
            15,
            13,
            13,
            11,
            11,
        ]

    @pytest.mark.parametrize(
        ("overrides", "players"),
        [
            ({"set_max": 6}, 5),
            ({"set_max": 18}, 4),
            ({"hand_size": "fundex", "set_max": 9}, 3),
            ({}, 9),
        ],
    )
    def test_uncovered_combinations_are_errors(
        self, overrides: dict[str, object], players: int
    ) -> None:
        with pytest.raises(RulesError, match="hand_size"):
            hand_size(rules(**overrides), players)

    def test_explicit_table(self) -> None:
        assert hand_size(rules(set_max=18, hand_size={"4": 20}), 4) == 20

    def test_deal(self) -> None:
        assert deal(rules(), 6) == (12, 91, 18)
        assert deal(rules(hand_size="fundex"), 6) == (11, 91, 24)
        assert deal(rules(set_max=6, hand_size={"3": 8}), 3).boneyard == 3

    def test_deal_too_big(self) -> None:
        with pytest.raises(RulesError, match="hand_size"):
            deal(rules(set_max=6, hand_size={"4": 8}), 4)

    def test_schedule(self) -> None:
        assert schedule(rules()) == tuple(range(12, -1, -1))
        assert schedule(rules(set_max=9)) == tuple(range(9, -1, -1))
        assert schedule(rules(schedule=[9, 8, 7])) == (9, 8, 7)

    def test_leaders(self) -> None:
        assert leaders(rules(), 3)[:5] == (0, 1, 2, 0, 1)
        assert set(leaders(rules(round_leader="engine_holder"), 4)) == {None}
        assert len(leaders(rules(schedule=[6, 5]), 4)) == 2


HAND = [Tile(0, 0), Tile(0, 5), Tile(6, 6)]


class TestScoring:
    @pytest.mark.parametrize(
        ("blank_scoring", "points"),
        [
            ("pips", 17),
            ("double_blank_50", 67),
            ("double_blank_25", 42),
            ("blank_25_double_blank_50", 92),
        ],
    )
    def test_blank_scoring(self, blank_scoring: str, points: int) -> None:
        assert score_hand(HAND, rules(blank_scoring=blank_scoring)).points == points

    @pytest.mark.parametrize(("penalty", "points"), [(0, 18), (5, 23), (10, 28), (25, 43)])
    def test_open_marker_penalty(self, penalty: int, points: int) -> None:
        hand = [Tile(6, 5), Tile(4, 3)]
        assert score_hand(hand, rules(open_marker_penalty=penalty), markers_up=1).points == points

    def test_going_out_bonus(self) -> None:
        assert score_hand([], rules(going_out_bonus=-10), went_out=True).points == -10
        assert score_hand([], rules(), went_out=True).points == 0

    def test_opponents_doubled_only_when_round_ends_on_double(self) -> None:
        r = rules(go_out_on_double="allowed_opponents_x2")
        hand = [Tile(6, 5)]
        assert score_hand(hand, r, round_end="went_out_on_double").points == 22
        assert score_hand(hand, r, round_end="went_out").points == 11
        assert score_hand(hand, rules(), round_end="went_out_on_double").points == 11

    def test_blocked_lowest_to_zero(self) -> None:
        r = rules(blocked_scoring="lowest_to_zero")
        hand = [Tile(2, 1)]
        assert score_hand(hand, r, round_end="blocked", lowest=True).points == 0
        assert score_hand(hand, r, round_end="blocked").points == 3
        assert score_hand(hand, rules(), round_end="blocked", lowest=True).points == 3

    def test_reason_is_a_sentence(self) -> None:
        assert "50" in score_hand(HAND, rules(blank_scoring="double_blank_50")).reason

    def test_bad_context(self) -> None:
        with pytest.raises(RulesError, match="round_end"):
            score_hand(HAND, rules(), round_end="finished")  # type: ignore[arg-type]
        with pytest.raises(RulesError, match="markers_up"):
            score_hand(HAND, rules(), markers_up=-1)

    def test_max_hand_points(self) -> None:
        assert max_hand_points(rules()) == 1092
        assert max_hand_points(rules(schedule=[12, 11, 10])) == 1092 - 20
        assert max_hand_points(rules(open_marker_penalty=10)) == 1102
        assert max_hand_points(rules(set_max=6)) == 168
