"""The README's way to serve HTTPS (a phone installs the app only from a secure origin) works as
written: its migrate and gunicorn lines, run with a certificate made here, answer over TLS,
and the links and QR codes the pages hand out use https.

Needs the ``openssl`` command to make the certificate; skipped without it.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
README = PROJECT / "README.md"
MARKER = "<!-- tested by tests/app/test_https.py"
OPENSSL = shutil.which("openssl")


def readme_commands() -> list[list[str]]:
    """The commands of the README's HTTPS block that run from the checkout (``.venv/bin/``)."""
    text = README.read_text(encoding="utf-8")
    block = text[text.index(MARKER) :]
    block = block[
        block.index("```sh") + len("```sh") : block.index("```", block.index("```sh") + 5)
    ]
    return [
        shlex.split(line.split("  #")[0])
        for line in block.splitlines()
        if line.startswith(".venv/bin/")
    ]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def localised(command: list[str], cert: Path, key: Path, port: int) -> list[str]:
    """A README command as this test runs it: this interpreter's tools, loopback, a free port,
    the certificate made here."""
    bin_dir = Path(sys.executable).parent
    swap = {"192.168.1.20.pem": str(cert), "192.168.1.20-key.pem": str(key)}
    out = []
    for word in command:
        if word.startswith(".venv/bin/"):
            word = str(bin_dir / word.removeprefix(".venv/bin/"))
        word = swap.get(word, word)
        out.append(re.sub(r"^0\.0\.0\.0:8443$", f"127.0.0.1:{port}", word))
    return out


@pytest.fixture
def https_server(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    if OPENSSL is None:
        pytest.skip("the openssl command is not installed")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'https.sqlite'}",
        "SECRET_KEY": "https-test",
        "FLASK_PUBLIC_URL": f"https://127.0.0.1:{port}",
    }
    migrate, serve = (localised(command, cert, key, port) for command in readme_commands())
    assert "db" in migrate and "--certfile" in serve, "the README's block changed shape"
    subprocess.run(migrate, cwd=PROJECT, env=env, check=True, capture_output=True)
    server = subprocess.Popen(
        [*serve, "--workers", "1"],
        cwd=PROJECT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        # gunicorn listens before its worker has loaded the app: wait for a whole answer.
        ready = ssl.create_default_context(cafile=str(cert))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"https://127.0.0.1:{port}/", context=ready, timeout=5):
                    break
            except OSError:
                time.sleep(0.3)
        else:
            pytest.fail("the HTTPS server did not answer within 60 s")
        yield port, cert
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def test_the_readme_https_commands_serve_the_app_over_tls(
    https_server: tuple[int, Path],
) -> None:
    port, cert = https_server
    trusted = ssl.create_default_context(cafile=str(cert))
    with urllib.request.urlopen(f"https://127.0.0.1:{port}/", context=trusted, timeout=10) as page:
        assert page.status == 200
        body = page.read().decode()
    assert 'rel="manifest"' in body
    # The join address and its QR code name the secure origin, so phones open that one.
    assert f"https://127.0.0.1:{port}" in body
    manifest_url = f"https://127.0.0.1:{port}/static/manifest.webmanifest"
    with urllib.request.urlopen(manifest_url, context=trusted, timeout=10) as manifest:
        assert manifest.status == 200
