"""The soft time limit stretches while the search is unsure and shrinks while it is sure."""

from __future__ import annotations

import pytest

from polychess.protocol.timeman import NEW_ITERATION_SHARE, IterationStop, TimeBudget

BUDGET = TimeBudget(soft=1.0, hard=4.0)
PLAIN = NEW_ITERATION_SHARE * BUDGET.soft  # where a search stops with no stretch


def iterate(stop: IterationStop, lines: list[tuple[str, int]], elapsed: float = 0.0) -> bool:
    """Feeds iterations (best move, score) and returns the last answer."""
    answer = False
    for move, score in lines:
        answer = stop(elapsed, move, score)
    return answer


def test_a_first_iteration_stops_at_the_plain_share():
    assert not IterationStop(BUDGET)(PLAIN - 0.01, "e2e4", 20)
    assert IterationStop(BUDGET)(PLAIN, "e2e4", 20)


def test_a_best_move_that_holds_shrinks_the_time():
    stop = IterationStop(BUDGET)
    iterate(stop, [("e2e4", 20)] * 5)
    assert stop.stretch() < 1
    assert stop(0.8 * PLAIN, "e2e4", 20)


def test_a_best_move_that_changes_stretches_the_time():
    stop = IterationStop(BUDGET)
    assert not iterate(stop, [("e2e4", 20), ("d2d4", 20), ("e2e4", 20)], elapsed=1.2 * PLAIN)
    assert stop.stretch() > 1.2
    # the stretch fades once the move holds again
    settled = stop.stretch()
    iterate(stop, [("e2e4", 20)] * 2, elapsed=0.0)
    assert stop.stretch() < settled


def test_a_falling_score_stretches_the_time_and_a_rising_one_does_not():
    falling, rising = IterationStop(BUDGET), IterationStop(BUDGET)
    iterate(falling, [("e2e4", 60), ("e2e4", 40), ("e2e4", -60)])
    iterate(rising, [("e2e4", -60), ("e2e4", 40), ("e2e4", 60)])
    assert falling.stretch() > 1.4
    assert rising.stretch() == 1.0


@pytest.mark.parametrize("moves", [["a", "b"] * 10, ["a"] * 20])
def test_the_stretch_stays_within_its_bounds_below_the_hard_limit(moves):
    stop = IterationStop(BUDGET)
    for i, move in enumerate(moves):
        stop(0.0, move, -100 * i)
        assert 0.6 <= stop.stretch() <= 2.0
        assert NEW_ITERATION_SHARE * BUDGET.soft * stop.stretch() < BUDGET.hard
