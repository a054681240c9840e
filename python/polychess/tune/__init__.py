"""Tuning the evaluation from games (Texel tuning): :mod:`~polychess.tune.samples` turns
self-play games into labelled positions, :mod:`~polychess.tune.fit` fits the weights of
:mod:`polychess.evaluation` to them by logistic regression on the results."""
