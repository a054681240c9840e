"""The command line, run end to end."""

import subprocess
import sys

from polychess.cli import main


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
    result = subprocess.run([sys.executable, "-m", "polychess", "perft", "--depth", "2"],
                            capture_output=True, text=True, check=True)
    assert "depth 2: 400 nodes" in result.stdout
