"""The examples run (examples/): each one for a moment, with small settings."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_train_three_player_trains_and_evaluates(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("gymnasium")
    plot = tmp_path / "curve.png"
    monkeypatch.setattr(
        sys,
        "argv",
        [
            "train_three_player.py",
            "--minutes",
            "0",
            "--round-games",
            "2",
            "--eval-games",
            "2",
            "--max-plies",
            "30",
            "--plot",
            str(plot),
        ],
    )
    runpy.run_path(str(EXAMPLES / "train_three_player.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "    2 games  mean return" in out
    assert "trained agent: mean return" in out and "random agent:  mean return" in out
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "no plot" in out
    else:
        assert plot.stat().st_size > 0
