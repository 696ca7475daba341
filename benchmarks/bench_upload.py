"""Round trip of a 12-megapixel phone photo: bytes sent and the server's time, before and after
the phone shrinks it.

Before: the full 4000x3000 JPEG is sent (what a page without JavaScript still does). After: the
page shrinks it in the browser to 2000 px on its long side (what the reader uses,
vision.pipeline.READ_LONG_SIDE) with createImageBitmap + canvas.toBlob("image/jpeg", 0.9);
here the system Chromium runs that same code on the same photo. Without Chromium, Pillow
stands in (said so in the output).

The server's time is measured: the photo is posted to the picker's read-photo address through
Flask's test client (multipart parsing, decoding, reading, the page), median over several
runs. The time to send the bytes is computed, not measured, at two uplink speeds.
Run: `python benchmarks/bench_upload.py [--runs N]`.
"""

from __future__ import annotations

import argparse
import base64
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import create_app  # noqa: E402
from companion.extensions import db  # noqa: E402
from training.synth import render_scene, use_sample_photos  # noqa: E402

# The same rendered photos whether or not scikit-image (the train extra) is installed.
use_sample_photos(False)

CHROMIUM = Path("/usr/bin/chromium")
SEND_LONG_SIDE = 2000  # as static/js/photo.js
UPLINKS_MBIT = (10.0, 2.0)  # good phone Wi-Fi, a weak signal

SHRINK_JS = """async ([data, longSide]) => {
  const bytes = Uint8Array.from(atob(data), c => c.charCodeAt(0));
  const file = new Blob([bytes], {type: "image/jpeg"});
  const bitmap = await createImageBitmap(file, {imageOrientation: "from-image"});
  const scale = longSide / Math.max(bitmap.width, bitmap.height);
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise(resolve => canvas.toBlob(resolve, "image/jpeg", 0.9));
  const buffer = new Uint8Array(await blob.arrayBuffer());
  let text = "";
  for (let i = 0; i < buffer.length; i += 8192) {
    text += String.fromCharCode.apply(null, buffer.subarray(i, i + 8192));
  }
  return btoa(text);
}"""


def phone_photo(seed: int) -> bytes:
    """A 4000x3000 JPEG of a rendered 8-tile hand, with a camera sensor's fine noise so that
    it weighs what a phone's photo does (an upscaled render alone compresses far better)."""
    scene = render_scene(seed, n_tiles=(8, 8), size=(1600, 1200))
    big = cv2.resize(scene.image, (4000, 3000), interpolation=cv2.INTER_CUBIC)
    noise = np.random.default_rng(seed).normal(0.0, 4.0, big.shape)
    big = np.clip(big + noise, 0, 255).astype(np.uint8)
    ok, encoded = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return encoded.tobytes()


def shrink_in_browser(photo: bytes) -> bytes | None:
    """The photo as the page sends it, shrunk by the system Chromium; None without one."""
    if not CHROMIUM.is_file():
        return None
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page()
            page.set_content("<!doctype html><title>shrink</title>")
            encoded = page.evaluate(SHRINK_JS, [base64.b64encode(photo).decode(), SEND_LONG_SIDE])
        finally:
            browser.close()
    return base64.b64decode(encoded)


def shrink_with_pillow(photo: bytes) -> bytes:
    image = Image.open(io.BytesIO(photo))
    scale = SEND_LONG_SIDE / max(image.size)
    small = image.resize((round(image.width * scale), round(image.height * scale)), Image.LANCZOS)
    buffer = io.BytesIO()
    small.save(buffer, format="JPEG", quality=90)
    return buffer.getvalue()


def server_ms(photos: dict[str, bytes], runs: int) -> dict[str, list[float]]:
    """Wall ms of each photo's read-photo request, ``runs`` times each, interleaved."""
    with tempfile.TemporaryDirectory() as workdir:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "bench",
                "WTF_CSRF_ENABLED": False,
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(workdir) / 'bench.sqlite'}",
                "PUBLIC_URL": "http://bench.test",
            }
        )
        with app.app_context():
            db.create_all()
        client = app.test_client()
        created = client.post("/api/games", json={"players": ["Ann", "Bob"], "rules": {}})
        game = created.get_json()
        client.get(f"/games/{game['id']}/edit/{game['edit_token']}")
        url = f"/games/{game['id']}/rounds/1/tiles/0/photo?from=picker"
        times: dict[str, list[float]] = {name: [] for name in photos}
        for run in range(runs + 1):  # the first run loads the models
            for name, data in photos.items():
                started = time.perf_counter()
                response = client.post(
                    url,
                    data={"photo-0": (io.BytesIO(data), "photo.jpg")},
                    content_type="multipart/form-data",
                )
                elapsed = (time.perf_counter() - started) * 1000
                if response.status_code != 200:
                    raise RuntimeError(f"the server answered {response.status_code}")
                if run:
                    times[name].append(elapsed)
        with app.app_context():
            db.drop_all()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    full = phone_photo(args.seed)
    shrunk = shrink_in_browser(full)
    how = "shrunk by Chromium's canvas.toBlob"
    if shrunk is None:
        shrunk, how = shrink_with_pillow(full), "shrunk by Pillow (no Chromium here)"
    photos = {"before: full 4000x3000": full, f"after: 2000 px, {how}": shrunk}
    times = server_ms(photos, args.runs)
    print("12-megapixel photo of an 8-tile hand, sent to the picker's read-photo address:")
    for name, data in photos.items():
        ms = statistics.median(times[name])
        sends = ", ".join(
            f"{mbit:g} Mbit/s: {len(data) * 8 / (mbit * 1e6) * 1000:.0f} ms to send "
            f"+ server = {len(data) * 8 / (mbit * 1e6) * 1000 + ms:.0f} ms"
            for mbit in UPLINKS_MBIT
        )
        print(f"  {name}: {len(data) / 1e6:.2f} MB; server median {ms:.0f} ms ({args.runs} runs)")
        print(f"    {sends}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
