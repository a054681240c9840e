"""The core's folders are layers: each includes only the folders before it in LAYERS (and
itself), so that a reader can learn the core from the bottom up and no change below reaches
into what stands on it. docs/architecture.md draws them."""

from __future__ import annotations

import re
from pathlib import Path

CPP = Path(__file__).parents[2] / "cpp"
LAYERS = ("base", "board", "games", "core", "nnue", "search", "learn", "selfplay")
_INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/', re.MULTILINE)


def test_every_folder_of_the_core_is_a_layer() -> None:
    assert sorted(p.name for p in CPP.iterdir() if p.is_dir()) == sorted(LAYERS)


def test_each_folder_includes_only_the_folders_below_it() -> None:
    against = []
    for path in sorted(CPP.glob("*/*")):
        layer = LAYERS.index(path.parent.name)
        for folder in _INCLUDE.findall(path.read_text(encoding="utf-8")):
            if folder not in LAYERS or LAYERS.index(folder) > layer:
                against.append(f"{path.relative_to(CPP)} includes {folder}/")
    assert not against, against


def test_the_check_sees_an_include_against_the_order() -> None:
    assert _INCLUDE.findall('#include <vector>\n#include "search/tt.h"\n  #  include "core/x.h"') == ["search", "core"]
