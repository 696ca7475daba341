"""Rules-engine speed: simulated rounds per second and referee queries per second.

    .venv/bin/python benchmarks/bench_rules.py [--runs 5] [--rounds 300] [--queries 10000]

Prints the median (and spread) of several runs of:
- random self-play rounds, 4 players, double-12, standard rules, no invariant checks;
- 10,000 ``turn`` queries drawn from simulated positions, answered in-process (JSON text in,
  JSON text out, through ``referee.answer_text`` as the command does) and end to end through
  ``python -m companion.rules check FILE`` (a fresh process per run, start-up included);
- the command's start-up alone, as this environment runs it and with bytecode cached.
Every rate is given per CPU second (the machine is shared) and per wall-clock second.
Targets: 1,000 rounds/s and 20,000 queries/s on one core.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion import rules_compiled  # noqa: E402
from companion.rules import Draw, End, Play, Rules, State  # noqa: E402
from companion.rules.legality import legal_actions  # noqa: E402
from companion.rules.referee import answer_all, answer_text, turn_query  # noqa: E402
from companion.rules.simulate import play_round  # noqa: E402


def bench_rounds(rounds: int, seed: int) -> tuple[float, float]:
    """(wall-clock rate, CPU-time rate) of unchecked self-play rounds."""
    rules = Rules.from_json({"preset": "standard"})
    rng = random.Random(seed)
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        play_round(rules, 4, 12, rng, check=False)
    return rounds / (time.perf_counter() - wall), rounds / (time.process_time() - cpu)


def make_queries(count: int, seed: int) -> list[dict[str, Any]]:
    """Turn queries from real positions: mostly the turn actually played, some a random play
    (usually illegal, so the referee also explains and re-judges it)."""
    rng = random.Random(seed)
    presets = ["standard", "fundex", "hub_sheet", "web_compilation", "wikihow"]
    queries: list[dict[str, Any]] = []
    while len(queries) < count:
        preset = rng.choice(presets)
        try:
            rules = Rules.from_json({"preset": preset})
        except ValueError:
            rules = Rules.from_json({"preset": "standard"})
        players = rng.choice((3, 4, 5, 6))
        state = State.deal(rules, players, rng.choice(range(rules.set_max + 1)), rng)
        while state.outcome is None and len(queries) < count:
            start = state.copy()
            seat = state.turn
            taken: list[Any] = []
            while state.outcome is None and state.turn == seat:
                action = rng.choice(legal_actions(state))
                state.apply(action)
                taken.append(Draw(state.drawn) if type(action) is Draw else action)
                if type(action) is End:
                    break
            if rng.random() < 0.7:
                query = turn_query(start, taken)
            else:
                hand = start.hands[start.turn] or []
                if not hand:
                    continue
                query = turn_query(start, [Play(rng.choice(hand), rng.choice(start.trains))])
            # As a table sends them: the preset by name, and half the time trains by open end.
            query["rules"] = {"preset": preset}
            if rng.random() < 0.5:
                for name, train in query["table"]["trains"].items():
                    if "tiles" in train:
                        tiles = train.pop("tiles")
                        train["end"] = _open_end(start, name, tiles)
            queries.append(query)
    return queries


def _open_end(state: State, name: str, tiles: list[list[int]]) -> int:
    train = state.train_id(name)
    value = state.open_end(train)
    assert value is not None
    return value


def bench_in_process(text: str, count: int) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    answer_text(text)
    return count / (time.perf_counter() - wall), count / (time.process_time() - cpu)


def bench_command(path: Path, count: int, env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall-clock rate, CPU-time rate) of one run of the check command, start-up included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "companion.rules", "check", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"check command failed ({result.returncode}): {result.stdout[:300]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return count / elapsed, count / cpu


def report(name: str, rates: list[tuple[float, float]], unit: str, target: float) -> None:
    """Prints medians of wall-clock and CPU-time rates (CPU time is what one core does
    when the machine is shared)."""
    wall = statistics.median(r[0] for r in rates)
    cpu = statistics.median(r[1] for r in rates)
    spread = f"wall min {min(r[0] for r in rates):,.0f}, max {max(r[0] for r in rates):,.0f}"
    mark = "meets" if cpu >= target else "below"
    print(
        f"{name}: median {cpu:,.0f} {unit} per CPU second, {wall:,.0f} wall-clock "
        f"({spread}; {len(rates)} runs; {mark} the {target:,.0f} target)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--queries", type=int, default=10_000)
    args = parser.parse_args()

    cpu = time.process_time()
    for _ in range(10_000_000):
        pass
    print(
        f"calibration: 10M empty loop steps take {time.process_time() - cpu:.2f} s of CPU here "
        f"(about 0.15 s on a current laptop core); load average {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} cores"
    )
    print(
        "rules engine: "
        + ("compiled with mypyc (make)" if rules_compiled() else "plain Python (not compiled)")
    )
    rates = [bench_rounds(args.rounds, seed) for seed in range(args.runs)]
    report("self-play, 4 players, double-12", rates, "rounds/s", 1000)

    queries = make_queries(args.queries, seed=1)
    text = json.dumps(queries)
    answers, _ = answer_all(queries)
    legal = sum(1 for a in answers if a.get("legal"))
    print(f"query batch: {len(queries):,} turn queries, {len(text) / 1e6:.1f} MB, {legal:,} legal")
    rates = [bench_in_process(text, len(queries)) for _ in range(args.runs)]
    report("referee in-process (JSON in and out)", rates, "queries/s", 20_000)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "queries.json"
        path.write_text(text)
        rates = [bench_command(path, len(queries)) for _ in range(args.runs)]
        report("referee via `python -m companion.rules check FILE`", rates, "queries/s", 20_000)
        empty = Path(folder) / "empty.json"
        empty.write_text("[]")
        startup = [bench_command(empty, 1) for _ in range(args.runs)]
        # With PYTHONDONTWRITEBYTECODE set, every start compiles the package from source; a
        # normal install caches the bytecode, so measure that case too (cache in a temp dir).
        cached_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        cached_env["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "pycache")
        bench_command(empty, 1, cached_env)  # fills the cache
        startup_cached = [bench_command(empty, 1, cached_env) for _ in range(args.runs)]
    for label, times in (
        (f"PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')}", startup),
        ("bytecode cached", startup_cached),
    ):
        print(
            f"command start-up alone (empty list, {label}): median "
            f"{statistics.median(1 / r[1] for r in times):.3f} s CPU, "
            f"{statistics.median(1 / r[0] for r in times):.3f} s wall-clock"
        )


if __name__ == "__main__":
    main()
