"""What the installed distribution says about itself: one version everywhere, the licence with
its text, the classifiers an index shows."""

import importlib.metadata
import subprocess
import sys

import polychess
from polychess.cli import main


def test_one_version_everywhere(capsys):
    # pyproject.toml reads the version from the package (scikit-build-core's regex provider).
    assert importlib.metadata.version("polychess") == polychess.__version__
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"polychess {polychess.__version__}"
    shown = subprocess.run([sys.executable, "-m", "polychess", "--version"], capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and shown.stdout.strip() == f"polychess {polychess.__version__}"


def test_licence_and_classifiers():
    metadata = importlib.metadata.metadata("polychess")
    assert metadata["License-Expression"] == "MIT"
    licence = [f for f in importlib.metadata.files("polychess") or [] if f.name == "LICENSE"]
    assert licence and "MIT License" in licence[0].read_text()
    classifiers = set(metadata.get_all("Classifier") or [])
    assert {
        "Programming Language :: Python :: 3.10",
        "Programming Language :: Python :: 3.13",
        "Operating System :: POSIX :: Linux",
        "Typing :: Typed",
    } <= classifiers
    assert any(c.startswith("Development Status ::") for c in classifiers)
    assert metadata["Requires-Python"] == ">=3.10" and metadata["Author"]
