"""Matches between players (the arena): ``polychess match`` and this package.

- :mod:`~polychess.match.players`: baselines, our engine, external engines (specs).
- :mod:`~polychess.match.scoring`: seat assignments and the score of a finished game.
- :mod:`~polychess.match.openings`: random, from a file, or the shipped balanced sets.
- :mod:`~polychess.match.runner`: the games of a match, its output file and its resumption.
- :mod:`~polychess.match.backends`: where the games run (this machine, processes, Ray).
- :mod:`~polychess.match.stats`: confidence intervals, Elo, SPRT.
- :mod:`~polychess.match.report`: the table printed at the end.
"""
