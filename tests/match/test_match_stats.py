"""Match statistics (polychess.match.stats): intervals checked against hand-computed values, the Elo map and its
inverse, the SPRT's bounds, its LLR against the GSPRT formula, and when it stops on decided and even matches."""

from __future__ import annotations

import math

import pytest

from polychess.match.stats import (
    Estimate,
    Sprt,
    elo_from_score,
    elo_interval,
    format_elo,
    score_from_elo,
    score_interval,
)

Z95 = 1.959963984540054  # the 0.975 quantile of the standard normal distribution
LOG19 = math.log(19.0)


def repeated(pattern: list[float], times: int) -> list[float]:
    return pattern * times


# Intervals


def test_interval_by_hand() -> None:
    # Groups of a three-player match: mean 3/4; squared deviations 1/16, 1/144, 25/144, 1/16 sum to 44/144,
    # so s² = 44/144 / 3 = 11/108 and the half-width is z·√(11/108)/2 ≈ 0.31275, whose high end is clipped.
    estimate = score_interval([1.0, 2 / 3, 1 / 3, 1.0])
    half_width = Z95 * math.sqrt(11 / 108) / 2
    assert estimate.mean == pytest.approx(0.75)
    assert estimate.low == pytest.approx(0.75 - half_width)
    assert estimate.low == pytest.approx(0.43725, abs=1e-5)
    assert estimate.high == 1.0


def test_interval_by_hand_unclipped_and_other_confidence() -> None:
    # [1, ½, ½, 0]: mean ½, s² = (¼ + ¼) / 3 = 1/6, s/√4 = √(1/6)/2 ≈ 0.20412; z(0.90) ≈ 1.644854.
    estimate = score_interval([1.0, 0.5, 0.5, 0.0], confidence=0.90)
    half_width = 1.6448536269514722 * math.sqrt(1 / 6) / 2
    assert estimate.mean == 0.5
    assert estimate.low == pytest.approx(0.5 - half_width)
    assert estimate.high == pytest.approx(0.5 + half_width)
    assert estimate.low == pytest.approx(0.16425, abs=1e-5)


def test_interval_contains_the_mean_and_shrinks_with_n() -> None:
    widths = []
    for times in (1, 2, 4, 16, 64):
        estimate = score_interval(repeated([1.0, 0.5, 0.5, 0.0, 2 / 3], times))
        assert estimate.low < estimate.mean < estimate.high
        widths.append(estimate.high - estimate.low)
    assert widths == sorted(widths, reverse=True)
    assert len(set(widths)) == len(widths)
    # The width falls as 1/√n (nearly: the n − 1 of the standard deviation).
    assert widths[-1] / widths[-2] == pytest.approx(0.5, abs=0.01)


def test_higher_confidence_is_wider() -> None:
    samples = repeated([1.0, 0.5, 0.0, 0.5, 1.0], 10)
    narrow, wide = score_interval(samples, 0.8), score_interval(samples, 0.99)
    assert wide.low < narrow.low < narrow.high < wide.high


def test_one_sample_gives_the_whole_range() -> None:
    assert score_interval([2 / 3]) == Estimate(2 / 3, 0.0, 1.0)
    assert elo_interval([0.5]) == Estimate(0.0, -math.inf, math.inf)


def test_identical_samples_give_a_point() -> None:
    assert score_interval([0.25, 0.25, 0.25]) == Estimate(0.25, 0.25, 0.25)


# Elo


def test_elo_of_known_scores() -> None:
    assert elo_from_score(0.75) == pytest.approx(-400 * math.log10(1 / 0.75 - 1), abs=1e-9)
    assert elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_from_score(0.5) == 0.0
    assert math.copysign(1.0, elo_from_score(0.5)) == 1.0
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf
    assert elo_from_score(1 / (1 + 10 ** (-1 / 4))) == pytest.approx(100.0)


@pytest.mark.parametrize("score", [0.01, 0.1, 0.25, 1 / 3, 0.49, 0.5, 0.6, 2 / 3, 0.9, 0.999])
def test_elo_is_antisymmetric_and_inverted_by_score_from_elo(score: float) -> None:
    assert elo_from_score(1 - score) == pytest.approx(-elo_from_score(score), abs=1e-9)
    assert score_from_elo(elo_from_score(score)) == pytest.approx(score, abs=1e-12)
    assert score_from_elo(-elo_from_score(score)) == pytest.approx(1 - score, abs=1e-12)


def test_score_from_elo_at_the_extremes() -> None:
    assert score_from_elo(0.0) == 0.5
    assert score_from_elo(400.0) == pytest.approx(10 / 11)
    assert score_from_elo(math.inf) == 1.0
    assert score_from_elo(-math.inf) == 0.0
    assert score_from_elo(1e6) == 1.0
    assert score_from_elo(-1e6) == 0.0


def test_elo_interval_maps_the_score_interval() -> None:
    samples = repeated([1.0, 0.5, 2 / 3, 0.0, 1.0], 8)
    score, elo = score_interval(samples), elo_interval(samples)
    assert elo.mean == pytest.approx(elo_from_score(score.mean))
    assert elo.low == pytest.approx(elo_from_score(score.low))
    assert elo.high == pytest.approx(elo_from_score(score.high))
    assert elo.low < elo.mean < elo.high
    assert elo_interval([1.0, 1.0]) == Estimate(math.inf, math.inf, math.inf)


def test_format_elo() -> None:
    assert format_elo(Estimate(35.2, 12.0, 58.94)) == "+35.2 [+12.0, +58.9]"
    assert format_elo(Estimate(-7.25, -30.0, 15.5)) == "-7.2 [-30.0, +15.5]"
    assert format_elo(Estimate(0.0, -math.inf, math.inf)) == "+0.0 [-inf, +inf]"
    assert format_elo(Estimate(-0.04, -0.0, 0.0)) == "+0.0 [+0.0, +0.0]"


# SPRT


def test_sprt_bounds() -> None:
    sprt = Sprt(0, 10)
    assert sprt.lower_bound == pytest.approx(-LOG19)
    assert sprt.upper_bound == pytest.approx(LOG19)
    skewed = Sprt(0, 10, alpha=0.1, beta=0.2)
    assert skewed.lower_bound == pytest.approx(math.log(0.2 / 0.9))
    assert skewed.upper_bound == pytest.approx(math.log(0.8 / 0.1))


def test_sprt_str() -> None:
    assert str(Sprt(0, 10)) == "SPRT elo0=0 elo1=10 alpha=0.05 beta=0.05"
    assert str(Sprt(-2.5, 0.5, alpha=0.1, beta=0.01)) == "SPRT elo0=-2.5 elo1=0.5 alpha=0.1 beta=0.01"


def test_llr_matches_the_gsprt_formula() -> None:
    # m and v computed independently; v is the population variance (ddof 0), not the sample variance.
    samples = [1.0, 0.5, 1 / 3, 0.5, 1.0, 2 / 3]
    n = len(samples)
    mean = sum(samples) / n
    variance = sum((x - mean) ** 2 for x in samples) / n
    s0, s1 = 1 / (1 + 10 ** (-0 / 400)), 1 / (1 + 10 ** (-20 / 400))
    expected = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    assert Sprt(0, 20).llr(samples) == pytest.approx(expected, rel=1e-12)


def test_llr_positive_and_rising_above_elo1() -> None:
    sprt = Sprt(0, 10)
    pattern = [1.0, 0.5, 2 / 3, 0.5]  # mean 2/3, well above s1 ≈ 0.514
    llrs = [sprt.llr(repeated(pattern, times)) for times in (1, 2, 3, 5, 8)]
    assert all(llr > 0 for llr in llrs)
    assert llrs == sorted(llrs)
    assert len(set(llrs)) == len(llrs)


def test_llr_negative_below_elo0() -> None:
    sprt = Sprt(0, 10)
    pattern = [0.0, 0.5, 1 / 3, 0.5]  # mean 1/3, below s0 = 0.5
    llrs = [sprt.llr(repeated(pattern, times)) for times in (1, 2, 4)]
    assert all(llr < 0 for llr in llrs)
    assert llrs == sorted(llrs, reverse=True)


def test_llr_without_evidence_is_zero() -> None:
    sprt = Sprt(0, 10)
    assert sprt.llr([]) == 0.0
    assert sprt.llr([1.0]) == 0.0
    assert sprt.decision([]) is None
    assert sprt.decision([1.0]) is None


def test_all_wins_decide_h1_soon() -> None:
    # Identical samples are computed with one lost and one won group added: n ones and the prior make a
    # Bernoulli sample of n + 2 with p = (n + 1)/(n + 2), variance p(1 − p), so
    # LLR = (n + 2)·(s1 − s0)·(2p − s0 − s1) / (2p(1 − p)); for elo1 = 100 it first passes log 19 at n = 6.
    sprt = Sprt(0, 100)
    s0, s1 = 0.5, 1 / (1 + 10 ** (-100 / 400))

    def by_hand(n: int) -> float:
        p = (n + 1) / (n + 2)
        return (n + 2) * (s1 - s0) * (2 * p - s0 - s1) / (2 * p * (1 - p))

    first = next(n for n in range(2, 100) if by_hand(n) >= LOG19)
    assert first == 6
    for n in range(2, 10):
        assert sprt.llr([1.0] * n) == pytest.approx(by_hand(n))
    # the LLR is past the bound from 6 samples, but no decision comes before min_samples
    assert all(sprt.decision([1.0] * n) is None for n in range(sprt.min_samples))
    assert sprt.decision([1.0] * sprt.min_samples) == "H1"
    assert Sprt(0, 100, min_samples=first).decision([1.0] * first) == "H1"
    assert Sprt(0, 100, min_samples=first).decision([1.0] * (first - 1)) is None


def test_a_handful_of_steady_samples_decides_nothing() -> None:
    # Four openings of six games, each scored near 0.56: the variance of four such means is tiny, and
    # the LLR alone would accept H1 (as a three-player match once did).
    sprt = Sprt(0, 20)
    samples = [7 / 12, 7 / 12, 0.5, 7 / 12]
    assert sprt.llr(samples) > sprt.upper_bound
    assert sprt.decision(samples) is None
    with pytest.raises(ValueError, match="min_samples"):
        Sprt(0, 20, min_samples=1)


def test_all_losses_decide_h0_soon() -> None:
    sprt = Sprt(0, 100)
    decided = next(n for n in range(2, 100) if sprt.decision([0.0] * n) is not None)
    assert sprt.decision([0.0] * decided) == "H0"
    assert decided == sprt.min_samples


def test_even_match_decides_h0() -> None:
    # Alternating won and lost groups, a win first: after an even n, m = ½ and v = ¼, so with s0 = ½ and
    # d = s1 − ½ the LLR is n·d·(−d)/(½) = −2nd²; after an odd n, m = ½ + 1/(2n) adds about 2d, which keeps it
    # above the next even value. The first decision is at the first even n ≥ log 19 / (2d²) ≈ 288.3: 290.
    sprt = Sprt(0, 50)
    d = 1 / (1 + 10 ** (-50 / 400)) - 0.5
    threshold = LOG19 / (2 * d * d)
    expected = math.ceil(threshold) + math.ceil(threshold) % 2
    assert expected == 290
    samples = [1.0, 0.0] * (expected // 2)
    assert sprt.llr(samples) == pytest.approx(-2 * expected * d * d)
    assert sprt.decision(samples) == "H0"
    assert all(sprt.decision(samples[:n]) is None for n in range(expected))


def test_all_draws_decide_h0() -> None:
    # n draws and the prior (0 and 1): mean ½, variance ½/(n + 2), LLR = −(n + 2)²·d², d = s1 − ½.
    sprt = Sprt(0, 10)
    d = 1 / (1 + 10 ** (-10 / 400)) - 0.5
    expected = math.ceil(math.sqrt(LOG19) / d) - 2
    assert expected == 118
    assert sprt.llr([0.5] * expected) == pytest.approx(-((expected + 2) ** 2) * d * d)
    assert sprt.decision([0.5] * expected) == "H0"
    assert sprt.decision([0.5] * (expected - 1)) is None


def test_a_single_imperfect_group_uses_the_plain_formula() -> None:
    # The prior is used only where the variance is 0; one differing sample restores the plain GSPRT.
    samples = [1.0, 1.0, 1.0, 0.5]
    mean, variance = 0.875, 3 / 64
    s0, s1 = 0.5, 1 / (1 + 10 ** (-100 / 400))
    assert Sprt(0, 100).llr(samples) == pytest.approx(4 * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance))


# Bad arguments


@pytest.mark.parametrize(
    ("samples", "confidence", "message"),
    [
        ([], 0.95, "empty"),
        ([0.5, 1.5], 0.95, r"sample 1 is 1\.5"),
        ([-0.1], 0.95, r"sample 0 is -0\.1"),
        ([math.nan], 0.95, "sample 0 is nan"),
        ([0.5], 0.0, "confidence"),
        ([0.5], 1.0, "confidence"),
        ([0.5], math.nan, "confidence"),
    ],
)
def test_score_interval_rejects(samples: list[float], confidence: float, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        score_interval(samples, confidence)
    with pytest.raises(ValueError, match=message):
        elo_interval(samples, confidence)


@pytest.mark.parametrize("score", [-0.01, 1.01, math.nan])
def test_elo_from_score_rejects(score: float) -> None:
    with pytest.raises(ValueError, match="score must be in"):
        elo_from_score(score)


def test_score_from_elo_rejects_nan() -> None:
    with pytest.raises(ValueError, match="nan"):
        score_from_elo(math.nan)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((10, 0), "elo0 must be less than elo1"),
        ((5, 5), "elo0 must be less than elo1"),
        ((0, math.inf), "finite"),
        ((math.nan, 10), "finite"),
        ((0, 10, 0.0), "alpha"),
        ((0, 10, 0.5), "alpha"),
        ((0, 10, 0.05, 0.0), "beta"),
        ((0, 10, 0.05, 0.6), "beta"),
        ((0, 10, 0.05, math.nan), "beta"),
    ],
)
def test_sprt_rejects(arguments: tuple[float, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Sprt(*arguments)


def test_llr_rejects_out_of_range_samples() -> None:
    with pytest.raises(ValueError, match=r"sample 2 is 2\.0"):
        Sprt(0, 10).llr([0.5, 1.0, 2.0])
    with pytest.raises(ValueError, match="outside"):
        Sprt(0, 10).decision([-1.0])
