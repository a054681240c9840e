"""docs/api.md names every public name of the package, so that it cannot fall behind."""

import re
from pathlib import Path

import pytest

import polychess
from polychess import formats, nnue, rl
from polychess.protocol import client

API = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text(encoding="utf-8")
WORDS = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", API))


def _public(cls: type) -> set[str]:
    return {name for name in dir(cls) if not name.startswith("_")}


@pytest.mark.parametrize(
    "names",
    [
        set(polychess.__all__),
        set(formats.__all__),
        set(rl.__all__),
        set(nnue.__all__),
        _public(nnue.Network),
        _public(nnue.Evaluator),
        set(client.__all__),
        _public(polychess.Board),
        _public(polychess.Game),
        _public(polychess.Engine),
        _public(polychess.SearchResult) | set(polychess.SearchResult.__dataclass_fields__),
        _public(polychess.Move),
        _public(polychess.Layout),
        _public(client.UciEngine),
        _public(rl.ActionSpace),
    ],
    ids=[
        "polychess",
        "formats",
        "rl",
        "nnue",
        "Network",
        "Evaluator",
        "client",
        "Board",
        "Game",
        "Engine",
        "SearchResult",
        "Move",
        "Layout",
        "UciEngine",
        "ActionSpace",
    ],
)
def test_docs_api_names_every_public_name(names):
    assert not names - WORDS, f"docs/api.md does not name {sorted(names - WORDS)}"
