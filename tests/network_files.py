"""Hand-made network files for the tests: the file hash, and a file renamed to another game."""

from __future__ import annotations


def fnv1a(data: bytes) -> int:
    """The network file's hash (cpp/nnue/network.cpp)."""
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def renamed(data: bytes, game: bytes) -> bytes:
    """A version 4 network file with another game's name, its hash made to match (what a hand-made
    or mislabelled file is)."""
    length = int.from_bytes(data[8:10], "little")
    named = data[:8] + len(game).to_bytes(2, "little") + game + data[10 + length :]
    hash_at = 10 + len(game) + 40
    body = named[:hash_at] + named[hash_at + 8 :]
    return named[:hash_at] + fnv1a(body).to_bytes(8, "little") + named[hash_at + 8 :]
