"""The README's Python snippets run as shown, each pasted alone into a fresh interpreter."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
SNIPPETS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.DOTALL)


def test_the_readme_has_snippets():
    assert len(SNIPPETS) >= 6


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[f"snippet{i}" for i in range(len(SNIPPETS))])
def test_each_snippet_runs_alone(snippet, tmp_path):
    # A fresh process: nothing another snippet defined is there. The polychess command of the
    # environment under test comes first on PATH (a snippet starts `polychess uci`).
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", snippet],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "PATH": path},
    )
    assert done.returncode == 0, done.stderr[-3000:]
