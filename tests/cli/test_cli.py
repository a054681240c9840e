"""The command line, run end to end."""

import io
import os
import subprocess
import sys

import pytest

from polychess.cli import main


class _Terminal(io.StringIO):
    """A captured stream that says it is a terminal, for the output meant for terminals only."""

    def isatty(self) -> bool:
        return True


def test_perft_command(capsys):
    assert main(["perft", "--variant", "three-player", "--depth", "3"]) == 0
    out = capsys.readouterr().out
    assert "depth 3: 8000 nodes" in out and "nodes/s" in out


def test_perft_divide_and_all(capsys):
    assert main(["perft", "--variant", "standard", "--depth", "2", "--divide"]) == 0
    out = capsys.readouterr().out
    assert "e2e4: 20" in out and "nodes: 400" in out
    assert main(["perft", "--variant", "standard", "--depth", "2", "--all"]) == 0
    out = capsys.readouterr().out
    assert "depth 1: 20 nodes" in out and "depth 2: 400 nodes" in out


def test_moves_command(capsys):
    assert main(["moves", "--variant", "three-player"]) == 0
    assert len(capsys.readouterr().out.split()) == 20


def test_bad_position_is_reported(capsys):
    assert main(["perft", "--variant", "standard", "--fen", "nonsense", "--depth", "1"]) == 2
    assert "polychess:" in capsys.readouterr().err


def test_module_entry_point():
    result = subprocess.run(
        [sys.executable, "-m", "polychess", "perft", "--depth", "2"], capture_output=True, text=True, check=True
    )
    assert "depth 2: 400 nodes" in result.stdout


def test_perft_of_depth_0_is_one_node_in_the_singular(capsys):
    assert main(["perft", "--depth", "0"]) == 0
    assert capsys.readouterr().out.startswith("depth 0: 1 node in ")


def test_perft_progress_on_a_terminal(capsys, monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["perft", "--variant", "standard", "--depth", "3"]) == 0
    assert "depth 3: 8902 nodes" in capsys.readouterr().out  # the same count, counted move by move
    progress = terminal.getvalue()
    assert "\rperft depth 3: move 1 of 20 (a2a3), 0 nodes so far" in progress
    assert "move 20 of 20 (h2h4)" in progress and "\n" not in progress
    assert progress.endswith("\r") and progress.rsplit("\r", 2)[1].strip() == ""  # wiped before the result
    # --divide: the same counts as the core's one call
    assert main(["perft", "--variant", "standard", "--depth", "3", "--divide"]) == 0
    live = capsys.readouterr().out
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert main(["perft", "--variant", "standard", "--depth", "3", "--divide"]) == 0
    assert capsys.readouterr().out == live and "g1f3: 440" in live


def test_perft_says_nothing_on_stderr_when_piped():
    result = subprocess.run(
        [sys.executable, "-m", "polychess", "perft", "--depth", "4", "--all"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stderr == "" and result.stdout.count("\n") == 4


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_perft_progress_reaches_a_real_terminal():
    terminal, child_side = os.openpty()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "polychess", "perft", "--depth", "4"], stdout=subprocess.PIPE, stderr=child_side
        )
    finally:
        os.close(child_side)
    chunks = []
    while True:
        try:
            chunk = os.read(terminal, 4096)
        except OSError:  # Linux reports the closed other side as EIO
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(terminal)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 0
    shown = b"".join(chunks).decode()
    assert "perft depth 4: move 20 of 20 (H2H4)" in shown
    assert out.decode().startswith("depth 4: 178080 nodes")
