"""The ``python -m companion.rules`` command, as outside checkers call it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.rules.cli import main

ROOT = Path(__file__).resolve().parents[2]

SCORE = {"kind": "score", "rules": {"preset": "standard"}, "hand": [[6, 5], [4, 3]]}
SETUP = {"kind": "setup", "rules": {"preset": "standard"}, "players": 6}


def run(args: list[str], stdin: str | None = None) -> tuple[int, Any, str]:
    result = subprocess.run(
        [sys.executable, "-m", "companion.rules", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    out = json.loads(result.stdout) if result.stdout.strip() else None
    return result.returncode, out, result.stderr


def test_list_in_list_out_from_stdin() -> None:
    code, out, err = run(["check", "-"], json.dumps([SCORE, SETUP]))
    assert code == 0, err
    assert out[0]["points"] == 18
    assert out[1]["hand_size"] == 12 and out[1]["boneyard"] == 18


def test_single_query_from_file(tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    path.write_text(json.dumps(SCORE))
    code, out, _ = run(["check", str(path)])
    assert code == 0 and out == {"points": 18, "reason": out["reason"]}


def test_malformed_query_answered_in_place_with_exit_2() -> None:
    bad = {"kind": "score", "rules": {"preset": "standard"}, "hand": [[6, 5, 1]]}
    code, out, err = run(["check", "-"], json.dumps([SCORE, bad, SETUP]))
    assert code == 2
    assert "Traceback" not in err
    assert len(out) == 3
    assert out[0]["points"] == 18 and out[2]["hand_size"] == 12
    assert "hand[0]" in out[1]["error"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"kind": "dance"}, "kind"),
        ({"rules": {}}, "kind"),
        ("score", "query"),
        (
            {"kind": "score", "rules": {"preset": "standard", "colour": 1}, "hand": []},
            "rules.colour",
        ),
        ({"kind": "score", "rules": {"blank_scoring": "zero"}, "hand": []}, "rules.blank_scoring"),
        ({"kind": "score", "hand": []}, "rules"),
        ({"kind": "setup", "rules": {}, "players": "six"}, "players"),
        ({"kind": "setup", "rules": {}, "players": 12}, "hand_size"),
        ({"kind": "last_tile_call", "rules": {}, "boneyard": -1}, "boneyard"),
        (
            {
                "kind": "turn",
                "rules": {},
                "table": {"seats": ["A", "B"], "engine": 12, "boneyard": 3},
                "turn": {"seat": "Z", "hand": []},
                "actions": [],
            },
            "turn.seat",
        ),
        (
            {
                "kind": "turn",
                "rules": {},
                "table": {"seats": ["A", "B"], "engine": 12, "boneyard": 3},
                "turn": {"seat": "A", "hand": [[1, 2]]},
                "actions": [{"play": [1, 2], "on": "Q"}],
            },
            "actions[0].on",
        ),
        (
            {
                "kind": "turn",
                "rules": {},
                "table": {
                    "seats": ["A", "B"],
                    "engine": 12,
                    "boneyard": 3,
                    "trains": {"A": {"tiles": [[12, 3], [4, 5]]}},
                },
                "turn": {"seat": "A", "hand": []},
                "actions": [],
            },
            "table.trains.A.tiles[1]",
        ),
        (
            {
                "kind": "turn",
                "rules": {},
                "table": {"seats": ["A", "B"], "engine": 12, "boneyard": 3},
                "turn": {"seat": "A", "hand": [[12, 12]]},
                "actions": [],
            },
            "table.engine",
        ),
        (
            {
                "kind": "round_status",
                "rules": {},
                "table": {"seats": ["A", "B"], "engine": 12, "boneyard": 0},
                "hands": {"A": []},
            },
            "hands.B",
        ),
        (
            {
                "kind": "turn",
                "rules": {},
                "table": {
                    "seats": ["A", "B"],
                    "engine": 12,
                    "boneyard": 3,
                    "trains": {"A": {"end": 4}, "mexican": {"end": 4}},
                },
                "turn": {"seat": "A", "hand": [[4, 4], [4, 1]]},
                "actions": [{"play": [4, 4], "on": "A"}, {"play": [4, 4], "on": "mexican"}],
            },
            "actions[1].play",
        ),
        (
            {
                "kind": "turn",
                "rules": {},
                "table": {
                    "seats": ["A", "B"],
                    "engine": 12,
                    "boneyard": 3,
                    "trains": {"A": {"end": 4}, "mexican": {"end": 4}},
                },
                "turn": {
                    "seat": "A",
                    "hand": [[4, 4], [4, 1]],
                    "played": [{"play": [4, 4], "on": "A"}],
                },
                "actions": [{"play": [4, 4], "on": "mexican"}],
            },
            "actions[0].play",
        ),
    ],
)
def test_error_names_the_field(
    query: Any, field: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "q.json"
    path.write_text(json.dumps(query))
    assert main(["check", str(path)]) == 2
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"error"}
    assert field in out["error"]


def test_not_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    path.write_text("{kind: turn")
    assert main(["check", str(path)]) == 2
    assert "JSON" in json.loads(capsys.readouterr().out)["error"]


def test_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["check", str(tmp_path / "absent.json")]) == 2
    assert "cannot read" in json.loads(capsys.readouterr().out)["error"]


def test_turn_answer_has_the_contract_fields(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    query = {
        "kind": "turn",
        "rules": {"preset": "standard"},
        "table": {
            "set_max": 12,
            "engine": 10,
            "seats": ["A", "B", "C", "D"],
            "trains": {
                "A": {"end": 4},
                "B": {"tiles": [[10, 9], [9, 9]], "marker": True},
                "C": {"end": 2},
                "D": {"end": 6},
                "mexican": {"end": 3},
            },
            "open_doubles": ["B"],
            "boneyard": 28,
        },
        "turn": {"seat": "C", "first_turn": False, "hand": [[9, 7], [2, 11], [3, 3]]},
        "actions": [{"play": [2, 11], "on": "C"}],
    }
    path = tmp_path / "q.json"
    path.write_text(json.dumps(query))
    assert main(["check", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] is False and out["step"] == 0 and out["rule"] == "satisfy_scope"
    assert "B's train (9-9)" in out["reason"]
    assert out["after"] == {
        "trains": {
            "A": {"end": 4, "marker": False},
            "B": {"end": 9, "marker": True},
            "C": {"end": 2, "marker": False},
            "D": {"end": 6, "marker": False},
            "mexican": {"end": 3},
        },
        "open_doubles": ["B"],
        "boneyard": 28,
        "turn_over": False,
        "round_over": False,
    }
    assert out["allowed_under"] == ["train_only", "none"]


def test_simulate_command_prints_a_summary() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "companion.rules", "simulate", "--rounds", "20", "--seed", "3"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "rounds: 20" in result.stdout and "invariant_failures: 0" in result.stdout
