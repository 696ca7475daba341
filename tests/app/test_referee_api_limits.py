"""POST /api/referee under hostile or faulty input: bounded bodies and batches, engine faults
logged but never shown, and the collector left running for the worker's other threads."""

from __future__ import annotations

import gc
import json
import logging
from collections.abc import Mapping
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.api.views import MAX_REFEREE_BYTES, MAX_REFEREE_QUERIES
from companion.rules.referee import answer, contract

SETUP = {"kind": "setup", "rules": {"preset": "standard"}, "players": 4}
SCORE = {"kind": "score", "rules": {"preset": "standard"}, "hand": [[6, 6], [0, 1]]}


def post(client: FlaskClient, body: Any) -> Any:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return client.post("/api/referee", data=data, content_type="application/json")


def test_an_engine_fault_is_logged_and_the_asker_gets_a_plain_sentence(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(_query: Mapping[str, Any]) -> dict[str, Any]:
        raise RuntimeError("internal detail /srv/companion/secret.py line 12")

    monkeypatch.setitem(contract.KINDS, "score", broken)
    with caplog.at_level(logging.ERROR):
        response = post(client, [SETUP, SCORE])
    assert response.status_code == 400
    setup_answer, fault = response.get_json()
    assert setup_answer["hand_size"] == 15  # the other query is still answered
    assert fault == {"error": contract.UNEXPECTED_FAULT}
    assert "secret" not in response.get_data(as_text=True)
    assert "RuntimeError" not in response.get_data(as_text=True)
    logged = [record for record in caplog.records if record.exc_info]
    assert len(logged) == 1
    assert "secret.py" in str(logged[0].exc_info[1])


def test_the_api_leaves_the_collector_running_while_it_judges(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []

    def watching(query: Mapping[str, Any]) -> dict[str, Any]:
        seen.append(gc.isenabled())
        return {"points": 0}

    monkeypatch.setitem(contract.KINDS, "score", watching)
    assert gc.isenabled()
    response = post(client, [SCORE, SCORE])
    assert response.status_code == 200
    assert seen == [True, True]


def test_a_body_over_the_cap_is_refused_with_413_and_a_sentence(client: FlaskClient) -> None:
    body = b"[" + b",".join([b"0"] * (MAX_REFEREE_BYTES // 2 + 1)) + b"]"
    response = post(client, body)
    assert response.status_code == 413
    error = response.get_json()["error"]
    assert "1 MB" in error and "fewer queries" in error


def test_a_batch_over_the_cap_is_refused_with_413_and_a_sentence(client: FlaskClient) -> None:
    response = post(client, [SETUP] * (MAX_REFEREE_QUERIES + 1))
    assert response.status_code == 413
    assert "more than the 1,000 answered at once" in response.get_json()["error"]


def test_a_full_batch_is_answered(client: FlaskClient) -> None:
    response = post(client, [SETUP] * MAX_REFEREE_QUERIES)
    assert response.status_code == 200
    assert len(response.get_json()) == MAX_REFEREE_QUERIES


def test_a_list_of_things_that_are_not_queries_stops_at_the_first(client: FlaskClient) -> None:
    body = [SETUP, *([0] * (MAX_REFEREE_QUERIES - 1))]
    response = post(client, body)
    assert response.status_code == 400
    assert response.get_json() == {
        "error": '[1]: not a query (an object with a "kind"); nothing was judged'
    }
    assert len(response.data) < 200  # not one error per zero


def test_one_answer_is_still_the_commands(client: FlaskClient) -> None:
    response = post(client, SCORE)
    assert response.status_code == 200
    assert response.get_json() == answer(SCORE)[0]
