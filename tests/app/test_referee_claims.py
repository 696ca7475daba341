"""The referee page never overstates: a ruling cites the sources of the value in force, says
only what the judge says when asked again, and an allowed move names the rules it passed."""

from __future__ import annotations

from flask.testing import FlaskClient

from companion.rules.describe import book_title, where_from
from companion.rules.keys import SOURCE_TITLES
from tests.app.test_referee import make_game, ruling_text


def test_a_changed_rule_cites_the_texts_that_play_the_changed_value(client: FlaskClient) -> None:
    game = make_game(client, {"preset": "fundex"})
    url = f"/games/{game['id']}/referee"
    data = {"ask": "call", "call_boneyard": "5", "change": "last_tile_call=draw1"}
    shown = ruling_text(client.post(url, data=data).data)
    assert "Draw 1" in shown
    # Forgetting costs one tile in S-25's club sheet; Fundex's "Last Tile" section says two.
    assert SOURCE_TITLES["S-25"][1:] in shown
    assert where_from("fundex", "last_tile_call") not in shown
    assert (
        "instead of the Fundex Games Mexican Train instructions (2003): forgetting costs two"
        in (shown)
    )
    # Unchanged, the same question still cites the book's own section.
    unchanged = ruling_text(client.post(url, data={"ask": "call", "call_boneyard": "5"}).data)
    assert "Draw 2" in unchanged and where_from("fundex", "last_tile_call")[1:] in unchanged


def source_part(shown: str) -> str:
    """The ruling's "Where it comes from" line."""
    return shown.split("Where it comes from", 1)[1].split("Under these other", 1)[0]


GONE_OUT_ON_7_7 = {"ask": "round", "next": "1", "out-0": "on", "end-0": "7", "open-0": "on"}


def test_must_be_covered_cites_the_game_that_plays_it_not_the_texts_against_it(
    client: FlaskClient,
) -> None:
    game = make_game(client)
    data = {**GONE_OUT_ON_7_7, "change": "go_out_on_double=must_be_covered"}
    shown = ruling_text(client.post(f"/games/{game['id']}/referee", data=data).data)
    assert "Not over yet" in shown
    cited = source_part(shown)
    assert SOURCE_TITLES["P-CM"][1:] in cited  # the only one that plays it
    for against in ("S-07", "S-24", "S-28"):  # standard's sources, which let the round end
        assert SOURCE_TITLES[against] not in cited
        assert SOURCE_TITLES[against] in shown  # named, rightly, among those that end it


def test_is_the_round_over_names_the_values_that_would_end_it(client: FlaskClient) -> None:
    game = make_game(client, {"preset": "standard", "go_out_on_double": "must_be_covered"})
    shown = ruling_text(client.post(f"/games/{game['id']}/referee", data=GONE_OUT_ON_7_7).data)
    assert "Not over yet" in shown
    assert "No other value" not in shown
    assert "The round is over if allowed, and the round ends at once" in shown
    assert book_title("standard") in shown


def test_a_ruling_no_value_would_change_says_so(client: FlaskClient) -> None:
    game = make_game(client)
    url = f"/games/{game['id']}/referee"
    shown = ruling_text(client.post(url, data={"ask": "score", "hand": ["6-5", "4-3"]}).data)
    assert "18 points" in shown and "No other value of this rule would change" in shown
    blanks = ruling_text(client.post(url, data={"ask": "score", "hand": ["0-0", "5-0"]}).data)
    assert "5 points" in blanks
    assert "80 points if every blank half counts 25" in blanks  # 0-0 = 50 (Fundex), 5-0 = 25
    assert "30 points if the double-blank counts 25" in blanks
    assert SOURCE_TITLES["S-25"] in blanks  # a text that plays it, though no preset does


def test_an_allowed_move_names_the_house_rules_it_passed_with_their_sources(
    client: FlaskClient,
) -> None:
    game = make_game(client)
    data = {
        "ask": "turn",
        "end-1": "9",
        "open-1": "on",
        "seat": "2",
        "act0-kind": "play", "act0-a": "9", "act0-b": "4", "act0-on": "1",
    }  # fmt: skip
    shown = ruling_text(client.post(f"/games/{game['id']}/referee", data=data).data)
    assert "Yes: Cy may play 9-4 on Bea's train." in shown
    # Covering the open double on Bea's private train is allowed because an open double
    # opens it to everyone (satisfy_scope table); with "none" it would stay private.
    assert "Rules checked, and passed:" in shown
    assert "An open double stops play: all play stops until it is covered (" in shown
    assert where_from("standard", "satisfy_scope") in shown


def test_a_plain_allowed_move_says_only_the_core_rules_decide(client: FlaskClient) -> None:
    game = make_game(client)
    data = {"ask": "turn", "end-2": "5", "seat": "2", "act0-kind": "play", "act0-a": "5",
            "act0-b": "3"}  # fmt: skip
    shown = ruling_text(client.post(f"/games/{game['id']}/referee", data=data).data)
    assert "Allowed" in shown and "Rules checked" not in shown
    assert "No house rule decides this" in shown


def test_a_turn_under_a_changed_rule_cites_that_value_s_texts(client: FlaskClient) -> None:
    game = make_game(client)
    data = {
        "ask": "turn", "seat": "0", "end-0": "7", "hand": ["7-7"],
        "act0-kind": "play", "act0-a": "7", "act0-b": "7", "act1-kind": "end",
        "change": "go_out_on_double=must_be_covered",
    }  # fmt: skip
    shown = ruling_text(client.post(f"/games/{game['id']}/referee", data=data).data)
    assert "Not allowed" in shown and "must be covered: Ann draws first" in shown
    cited = source_part(shown)
    assert SOURCE_TITLES["P-CM"][1:] in cited
    assert all(SOURCE_TITLES[code] not in cited for code in ("S-07", "S-24", "S-28"))
    assert "Allowed, and the round ends at once (as in this app's standard rules" in shown
