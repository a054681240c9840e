"""Three-player perft counts from the start position (tests/data/three_player_perft.txt)."""

import pytest

from perft_data import perft_cases
from polychess import Board

CASES = perft_cases("three_player_perft.txt")
# Depth 5 below each first move, as the reference generator counted it.
REFERENCE_DIVIDE_5 = {
    "A2A3": 169178,
    "A2A4": 186622,
    "B1A3": 177660,
    "B1C3": 195003,
    "B2B3": 186942,
    "B2B4": 186602,
    "C2C3": 186942,
    "C2C4": 196423,
    "D2D3": 239949,
    "D2D4": 249816,
    "E2E3": 265940,
    "E2E4": 267543,
    "F2F3": 169178,
    "F2F4": 178526,
    "G1F3": 195923,
    "G1H3": 178080,
    "G2G3": 186982,
    "G2G4": 187427,
    "H2H3": 169178,
    "H2H4": 186982,
}


@pytest.mark.parametrize("ident,fen,depth,nodes", CASES, ids=[f"{c[0]}-d{c[2]}" for c in CASES])
def test_perft(ident, fen, depth, nodes):
    assert Board("three-player", fen).perft(depth) == nodes


def test_divide_matches_reference():
    assert Board("three-player").divide(5) == REFERENCE_DIVIDE_5
