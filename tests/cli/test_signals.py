"""Ctrl-C and SIGTERM in the middle of a search: every long-running command that owns the core's
threads (serve, uci, match, train generate, selfplay) stops its searches and joins them before
the interpreter ends, and exits by itself: no crash (SIGABRT, SIGSEGV), no traceback."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

POLYCHESS = [sys.executable, "-m", "polychess"]
RECORD = Path(__file__).parents[1] / "data" / "pgn4" / "cc_teams_26780486.pgn4"
SIGNALS = [signal.SIGINT, signal.SIGTERM]

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals")


def _ended(process: subprocess.Popen[str], seconds: float = 30.0) -> tuple[int, str]:
    try:
        _, err = process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
        pytest.fail(f"still running {seconds} s after the signal: {err[-500:]}")
    assert process.returncode >= 0, f"killed by signal {-process.returncode}: {err[-500:]}"
    assert "Traceback" not in err and "terminate called" not in err, err[-1000:]
    return process.returncode, err


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _request(port: int, method: str, path: str, body: object = None) -> dict[str, object]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"Content-Type": "application/json"})
        reply: dict[str, object] = json.loads(connection.getresponse().read() or b"{}")
        return reply
    finally:
        connection.close()


@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: s.name)
@pytest.mark.parametrize("work", ["analysis", "review"])
def test_serve_stops_its_searches_and_exits_0(signum, work):
    # It died of SIGSEGV (an analysis) or SIGABRT (a review) most times at Ctrl-C.
    port = _free_port()
    process = subprocess.Popen(
        [*POLYCHESS, "serve", "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                _request(port, "GET", "/api/meta")
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        game = _request(port, "POST", "/api/records", {"record": RECORD.read_text()})
        body = {"ply": 8, "lines": 5, "time": 10} if work == "analysis" else {"nodes": 500_000}
        searching = threading.Thread(
            target=lambda: _quietly(_request, port, "POST", f"/api/games/{game['id']}/{work}", body), daemon=True
        )
        searching.start()
        time.sleep(1.0)
        process.send_signal(signum)
        code, _ = _ended(process)
        assert code == 0
    finally:
        if process.poll() is None:
            process.kill()


def _quietly(call, *args):  # the server goes away mid-request: that is the test
    try:
        call(*args)
    except OSError:
        pass


@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: s.name)
def test_uci_stops_its_search_and_exits(signum):
    process = subprocess.Popen(
        [*POLYCHESS, "uci", "--variant", "three-player"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("position startpos\ngo infinite\n")
    process.stdin.flush()
    assert process.stdout.readline().startswith("info depth 1")
    process.send_signal(signum)
    code, _ = _ended(process)
    assert code in (0, 130)


@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: s.name)
def test_match_and_selfplay_stop_mid_search(signum):
    for command in (
        ["match", "--variant", "standard", "--a", "engine:nodes=300000", "--b", "engine:nodes=300000", "--games", "2"],
        ["match", "--a", "engine:nodes=300000", "--b", "engine:nodes=300000", "--games", "6", "--jobs", "2"],
        ["selfplay", "--variant", "four-player", "--games", "2", "--nodes", "300000"],
    ):
        process = subprocess.Popen([*POLYCHESS, *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(1.5)
        process.send_signal(signum)
        code, _ = _ended(process)
        assert code == 130, command


@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: s.name)
def test_train_generate_stops_at_once_and_keeps_its_whole_games(tmp_path, signum):
    from polychess.training.data import read_data

    output = tmp_path / "data.pctd"
    command = [*POLYCHESS, "train", "generate", "--variant", "standard", "--games", "40", "--nodes", "20000"]
    process = subprocess.Popen([*command, "-o", str(output)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3.0)
    process.send_signal(signum)
    started = time.monotonic()
    code, err = _ended(process)
    assert code == 130 and "the same command resumes it" in err
    assert time.monotonic() - started < 10  # the batch in play is stopped, not played out
    name, records = read_data(output)
    assert name == "standard" and len(records) < 40
