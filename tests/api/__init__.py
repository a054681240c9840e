"""The Python API over the core (polychess.Board, Move, Game as values): views, copies, errors, bad input at every
entry point, python-chess-like board methods, and how often a step crosses into the core."""
