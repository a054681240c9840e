"""Statistics of engine matches: score and Elo intervals, and the sequential test that stops a match.

A sample is one opening's group mean: the score of configuration A over that opening played once with every
seat assignment. The games of a group share their opening and so are correlated; their mean is the
independent unit (fishtest's pentanomial pair, generalized to any number of seats), and every function here
takes those means. A score is A's share in [0, 1], which in multi-player games can be any fraction.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = ["Estimate", "Sprt", "elo_from_score", "elo_interval", "format_elo", "score_from_elo", "score_interval"]


@dataclass(frozen=True)
class Estimate:
    """A point estimate with the bounds of its confidence interval (scores or Elo, as the producer says)."""

    mean: float
    low: float
    high: float


def _check_samples(samples: Sequence[float]) -> None:
    for index, value in enumerate(samples):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"sample {index} is {value!r}, outside the score range [0, 1]")


def score_interval(samples: Sequence[float], confidence: float = 0.95) -> Estimate:
    """The mean score with its normal-approximation interval, mean ± z·s/√n, clipped to [0, 1].

    s is the sample standard deviation (n − 1 in the denominator). One sample says nothing about the spread,
    so its interval is the whole range [0, 1] rather than a false certainty.
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    if len(samples) == 0:
        raise ValueError("samples must not be empty: a score needs at least one game group")
    _check_samples(samples)
    mean = statistics.fmean(samples)
    if len(samples) < 2:
        return Estimate(mean, 0.0, 1.0)
    z = statistics.NormalDist().inv_cdf((1.0 + confidence) / 2.0)
    half_width = z * statistics.stdev(samples) / math.sqrt(len(samples))
    return Estimate(mean, max(0.0, mean - half_width), min(1.0, mean + half_width))


def elo_from_score(score: float) -> float:
    """The logistic Elo difference, −400·log10(1/score − 1), that an expected score implies.

    A perfect score has no finite Elo, so 1 and 0 give +inf and −inf; an even score gives +0.0 (never −0.0,
    which would print as "-0.0").
    """
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"score must be in [0, 1], got {score!r}")
    if score == 1.0:
        return math.inf
    if score == 0.0:
        return -math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def score_from_elo(elo: float) -> float:
    """The expected score of an Elo difference, 1 / (1 + 10^(−elo/400)): the inverse of elo_from_score.

    The power is always taken of a non-positive exponent so that huge differences give 0 or 1, not an overflow.
    """
    if math.isnan(elo):
        raise ValueError("elo must be a number, got nan")
    if elo >= 0.0:
        return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))
    power = math.pow(10.0, elo / 400.0)
    return power / (1.0 + power)


def elo_interval(samples: Sequence[float], confidence: float = 0.95) -> Estimate:
    """score_interval mapped through elo_from_score: the map is increasing, so the bounds stay bounds."""
    score = score_interval(samples, confidence)
    return Estimate(elo_from_score(score.mean), elo_from_score(score.low), elo_from_score(score.high))


def format_elo(estimate: Estimate) -> str:
    """An Elo estimate as "+35.2 [+12.0, +58.9]": signed, so a regression cannot be misread as a gain."""

    def signed(value: float) -> str:
        return f"{round(value, 1) + 0.0:+.1f}" if math.isfinite(value) else f"{value:+}"

    return f"{signed(estimate.mean)} [{signed(estimate.low)}, {signed(estimate.high)}]"


_PRIOR = (0.0, 1.0)
"""The pseudo-samples added to a sample with no spread: one lost and one won group (see Sprt.llr)."""


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0: Elo = elo0 against H1: Elo = elo1.

    alpha and beta are the error rates accepted for wrongly deciding H1 and H0; the test stops as soon as the
    log-likelihood ratio leaves (lower_bound, upper_bound), which needs far fewer games on average than a
    fixed-length match with the same error rates.

    It decides nothing before ``min_samples`` samples: the normal approximation takes the variance from the
    samples themselves, and from a handful it can be far too small (four three-player openings of six games,
    scored 7/12, 7/12, 1/2 and 7/12, once gave an LLR of +4.25).
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    min_samples: int = 20

    def __post_init__(self) -> None:
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1)):
            raise ValueError(f"elo0 and elo1 must be finite, got {self.elo0!r} and {self.elo1!r}")
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 must be less than elo1, got elo0={self.elo0!r} elo1={self.elo1!r}")
        for name, rate in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < rate < 0.5:
                raise ValueError(f"{name} must be in (0, 0.5), got {rate!r}")
        if self.min_samples < 2:
            raise ValueError(f"min_samples must be at least 2, got {self.min_samples!r}")

    @property
    def lower_bound(self) -> float:
        """log(beta / (1 − alpha)): at or below it the test accepts H0."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper_bound(self) -> float:
        """log((1 − beta) / alpha): at or above it the test accepts H1."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, samples: Sequence[float]) -> float:
        """The generalized SPRT log-likelihood ratio of H1 over H0 (normal approximation).

        As in fishtest and cutechess (GSPRT, Michel Van den Bergh): with s0, s1 the scores of elo0, elo1 and
        m, v the mean and population variance of the n samples, LLR = n·(s1 − s0)·(2m − s0 − s1) / (2v).

        Fewer than 2 samples give 0.0: no evidence yet. When n ≥ 2 samples are all equal, v is 0 and the
        formula would decide on the spot; instead the LLR is computed on the samples plus one lost and one won
        group (0 and 1). That prior has the neutral mean 1/2 and the largest variance a score can have, so it
        can only make the test more cautious; it is used only where the formula is undefined (elsewhere the
        result is exactly fishtest's); and its weight fades as n grows, so a match that wins every group still
        decides H1, and one that draws every group decides H0 when an even score is nearer s0 than s1.
        """
        _check_samples(samples)
        if len(samples) < 2:
            return 0.0
        variance = statistics.pvariance(samples)
        if variance == 0.0:
            samples = [*samples, *_PRIOR]
            variance = statistics.pvariance(samples)
        mean = statistics.fmean(samples)
        s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        return len(samples) * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)

    def decision(self, samples: Sequence[float]) -> Literal["H0", "H1"] | None:
        """The test's verdict: "H1" or "H0" once the LLR reaches that bound (after at least ``min_samples``
        samples), None while the match must go on."""
        _check_samples(samples)
        if len(samples) < self.min_samples:
            return None
        llr = self.llr(samples)
        if llr >= self.upper_bound:
            return "H1"
        if llr <= self.lower_bound:
            return "H0"
        return None

    def __str__(self) -> str:
        return f"SPRT elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g}"
