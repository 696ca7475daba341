"""Command line: ``python -m companion.rules check FILE|-`` and ``... simulate``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from companion.rules.referee import answer_text


def check(path: str) -> int:
    """Answers the queries in ``path`` (``-`` for standard input); returns the exit status."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        print(json.dumps({"error": f"file: cannot read {path}: {error.strerror}"}))
        return 2
    except UnicodeDecodeError:
        print(json.dumps({"error": f"file: {path} is not UTF-8 text"}))
        return 2
    try:
        out, ok = answer_text(text)
    except json.JSONDecodeError as error:
        print(json.dumps({"error": f"file: not valid JSON ({error})"}))
        return 2
    except RecursionError:
        print(json.dumps({"error": "file: JSON nested too deeply"}))
        return 2
    sys.stdout.write(out + "\n")
    return 0 if ok else 2


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m companion.rules")
    commands = parser.add_subparsers(dest="command", required=True)
    check_parser = commands.add_parser("check", help="answer referee queries (JSON)")
    check_parser.add_argument("file", help="a JSON file of one query or a list, or - for stdin")
    sim = commands.add_parser("simulate", help="play random rounds and check invariants")
    sim.add_argument("--rounds", type=int, default=1000)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--preset", default=None, help="a preset name, or 'mixed' (default)")
    sim.add_argument("--players", type=int, default=None)
    sim.add_argument("--games", action="store_true", help="play whole games of every round")
    args = parser.parse_args(argv)
    if args.command == "check":
        return check(args.file)
    from companion.rules.simulate import run_cli

    status: int = run_cli(args.rounds, args.seed, args.preset, args.players, args.games)
    return status
