"""Photo floods against `make serve`: peak memory and scoresheet polls while 16 flat 49-MP PNGs,
then 48 12-MP HEICs, are sent at once to the referee's photo reader (no login needed).

The server is the production set-up (`python -m companion.serve`: 2 workers x 32 threads) on
127.0.0.1 with a fresh SQLite file. Each run sends each flood at once, one connection per
photo, while a scoresheet poll (GET /api/games/<id>) is timed every 0.2 s and the server's
resident memory (the master and both workers, from /proc) is sampled every 20 ms. Goals: no
worker lost, peak under 1.5 GB, every poll under 1 s. Bounded: each request gives up after
120 s. Prints the median over the runs of each figure, and how the photos were answered
(200 read, 400 refused, 503 busy: "send it again").
Run: `python benchmarks/bench_photo_flood.py [--runs N]`.
"""

from __future__ import annotations

import argparse
import http.client
import io
import re
import statistics
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pillow_heif
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from serving import MemorySampler, Poller, Server  # noqa: E402

from training.synth import render_scene, use_sample_photos  # noqa: E402

# The same rendered photos whether or not scikit-image (the train extra) is installed.
use_sample_photos(False)

GOAL_PEAK_BYTES = 1.5e9
GOAL_POLL_SECONDS = 1.0


def flat_png(width: int = 7000, height: int = 7000) -> bytes:
    """A 49-MP PNG of one grey: about 160 kB on the wire, 147 MB once decoded in full."""
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (120, 120, 120)).save(buffer, format="PNG")
    return buffer.getvalue()


def phone_heic(seed: int = 0) -> bytes:
    """A 12-MP (4032x3024) HEIC of a rendered hand with a sensor's noise, as an iPhone sends."""
    scene = render_scene(seed, n_tiles=(8, 8), size=(1600, 1200))
    big = cv2.resize(scene.image, (4032, 3024), interpolation=cv2.INTER_CUBIC)
    noise = np.random.default_rng(seed).normal(0.0, 3.0, big.shape)
    rgb = cv2.cvtColor(np.clip(big + noise, 0, 255).astype(np.uint8), cv2.COLOR_BGR2RGB)
    pillow_heif.register_heif_opener()
    buffer = io.BytesIO()
    Image.fromarray(rgb).save(buffer, format="HEIF", quality=60)
    return buffer.getvalue()


class Asker:
    """A browser session on the free referee page: its cookie and form token."""

    def __init__(self, server: Server) -> None:
        self.server = server
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        connection.request("GET", "/referee?ask=turn")
        response = connection.getresponse()
        page = response.read().decode()
        self.cookie = (response.getheader("Set-Cookie") or "").split(";")[0]
        connection.close()
        token = re.search(r'name="csrf_token" value="([^"]+)"', page)
        if token is None:
            raise RuntimeError("the referee page has no form token")
        self.token = token.group(1)

    def send_photo(self, photo: bytes, filename: str) -> int:
        """Post the photo as the page's "Read the photo" does; the answer's status."""
        boundary = uuid.uuid4().hex
        parts = []
        for name, value in (("csrf_token", self.token), ("ask", "turn"), ("photo-target", "tiles")):
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
                f"{value}\r\n".encode()
            )
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; '
            f'filename="{filename}"\r\nContent-Type: application/octet-stream\r\n\r\n'.encode()
            + photo
            + b"\r\n"
        )
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=120)
        try:
            connection.request(
                "POST",
                "/referee/photo?ask=turn",
                body=body,
                headers={
                    "Content-Type": f"multipart/form-data; boundary={boundary}",
                    "Cookie": self.cookie,
                },
            )
            response = connection.getresponse()
            response.read()
            return response.status
        except OSError:
            return 0  # no answer: the worker died or the request timed out
        finally:
            connection.close()


def flood(server: Server, game: str, photo: bytes, filename: str, count: int) -> dict[str, object]:
    asker = Asker(server)
    workers_before = set(server.workers())
    statuses: list[int] = []
    lock = threading.Lock()

    def send() -> None:
        status = asker.send_photo(photo, filename)
        with lock:
            statuses.append(status)

    senders = [threading.Thread(target=send, daemon=True) for _ in range(count)]
    started = time.monotonic()
    with MemorySampler(server) as memory, Poller(server, f"/api/games/{game}") as poller:
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join(timeout=150)
        time.sleep(0.5)  # a poll or two after the last answer
    return {
        "peak": memory.peak,
        "poll_max": max(poller.seconds),
        "poll_median": statistics.median(poller.seconds),
        "poll_failures": poller.failures,
        "seconds": time.monotonic() - started,
        "statuses": Counter(statuses),
        "workers_lost": len(workers_before - set(server.workers())),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    floods = (
        ("16 flat 49-MP PNGs at once", flat_png(), "flat.png", 16),
        ("48 12-MP HEICs at once", phone_heic(), "hand.heic", 48),
    )
    results: dict[str, list[dict[str, object]]] = {label: [] for label, *_ in floods}
    with Server("companion.serve") as server:
        game = server.new_game()
        baseline = server.rss()
        for _ in range(args.runs):
            for label, photo, filename, count in floods:
                results[label].append(flood(server, game, photo, filename, count))
    print(f"make serve at rest: {baseline / 1e6:.0f} MB (master and 2 workers)")
    for label, photo, _filename, _count in floods:
        runs = results[label]
        peak = statistics.median(float(str(run["peak"])) for run in runs)
        poll_max = statistics.median(float(str(run["poll_max"])) for run in runs)
        poll_median = statistics.median(float(str(run["poll_median"])) for run in runs)
        lost = sum(int(str(run["workers_lost"])) for run in runs)
        failed = sum(int(str(run["poll_failures"])) for run in runs)
        answers: Counter[int] = Counter()
        for run in runs:
            answers.update(run["statuses"])  # type: ignore[arg-type]
        worst_peak = max(float(str(run["peak"])) for run in runs)
        worst_poll = max(float(str(run["poll_max"])) for run in runs)
        took = statistics.median(float(str(run["seconds"])) for run in runs)
        met = lost == 0 and failed == 0 and worst_peak < GOAL_PEAK_BYTES
        met = met and worst_poll < GOAL_POLL_SECONDS
        print(
            f"{label} ({len(photo) / 1e6:.2f} MB each), {len(runs)} runs: peak memory median "
            f"{peak / 1e9:.2f} GB (worst {worst_peak / 1e9:.2f}); polls median "
            f"{poll_median * 1000:.0f} ms, slowest median {poll_max * 1000:.0f} ms (worst "
            f"{worst_poll * 1000:.0f} ms), {failed} failed; workers lost {lost}; flood over in "
            f"{took:.1f} s; answers {dict(sorted(answers.items()))}; "
            f"{'meets' if met else 'misses'} the goals",
            flush=True,
        )


if __name__ == "__main__":
    main()
