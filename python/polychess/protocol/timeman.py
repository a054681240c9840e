"""How long to think about one move, from the clocks a GUI or an arena sends.

A search gets two limits: it stops at ``hard`` whatever it is doing, and after an iteration
it does not start another once ``soft`` is spent (the next iteration would take several times
as long as the last one, so starting it late would only be cut off at ``hard``). The soft
limit stretches while the search is unsure (its best move changes between iterations, or its
score falls) and shrinks while it is sure (the same best move for several iterations):
:class:`IterationStop`. The player's own clock is all that counts: every player's clock runs
only on his own moves, whatever the number of players.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_MOVES_TO_GO", "NEW_ITERATION_SHARE", "IterationStop", "TimeBudget", "think_time"]

# After an iteration, a new one is not started once this share of the soft limit is spent:
# the next iteration usually takes longer than all before it together.
NEW_ITERATION_SHARE = 0.6
# With no ``movestogo``, the moves still to play on the clock are guessed at this many: the
# time is spread over them, and the increment of each is added.
DEFAULT_MOVES_TO_GO = 30
# Of the increment, this share is spent on the move that earns it; the rest builds a reserve.
_INCREMENT_SHARE = 0.75
# The hard limit: this many times the soft one, but never more than this share of the clock.
_HARD_OVER_SOFT = 4.0
_HARD_SHARE_OF_CLOCK = 0.5
# The search always gets at least this much, however little is on the clock.
_LEAST_SECONDS = 0.005
# How far the soft limit stretches or shrinks (the hard limit still ends every search).
_LEAST_STRETCH, _MOST_STRETCH = 0.6, 2.0
# Each change of the best move adds this much stretch, halved at every later iteration.
_CHANGE_STRETCH = 0.8
# A fall of the score below the best of the earlier iterations stretches the time by
# 1 + fall / _FALL_CENTIPAWNS, at most by _MOST_FALL_STRETCH; a rise adds nothing.
_FALL_CENTIPAWNS = 200
_MOST_FALL_STRETCH = 1.5
# The same best move for this many iterations in a row shrinks the time to this share.
_STABLE_ITERATIONS, _STABLE_SHARE = 4, 0.7


@dataclass(frozen=True)
class TimeBudget:
    """Seconds for one move: ``soft`` after which no iteration starts, ``hard`` at which the
    search stops."""

    soft: float
    hard: float


def think_time(
    remaining: float, increment: float = 0.0, moves_to_go: int | None = None, overhead: float = 0.03
) -> TimeBudget:
    """The budget of a move with ``remaining`` seconds on the mover's clock, ``increment``
    seconds added after it, ``moves_to_go`` moves to play before the clock is refilled (None:
    sudden death) and ``overhead`` seconds lost per move to the pipes and the GUI."""
    if remaining < 0 or increment < 0 or overhead < 0:
        raise ValueError("clock times must not be negative")
    if moves_to_go is not None and moves_to_go < 1:
        raise ValueError(f"movestogo must be at least 1, got {moves_to_go}")
    usable = max(0.0, remaining - overhead)
    if moves_to_go == 1:  # the last move before the clock is refilled may use most of it
        hard = max(_LEAST_SECONDS, 0.8 * usable)
        return TimeBudget(soft=hard * 0.5, hard=hard)
    spread = min(moves_to_go or DEFAULT_MOVES_TO_GO, DEFAULT_MOVES_TO_GO)
    soft = usable / spread + _INCREMENT_SHARE * increment
    hard = min(_HARD_OVER_SOFT * soft, _HARD_SHARE_OF_CLOCK * usable + increment * _INCREMENT_SHARE)
    hard = max(_LEAST_SECONDS, min(hard, usable))
    return TimeBudget(soft=max(_LEAST_SECONDS, min(soft, hard)), hard=hard)


class IterationStop:
    """Whether a clocked search should start no new iteration, asked after each one with the
    time spent and the iteration's best move and score (for the mover).

    The soft limit is stretched while the best move changes and while the score falls below
    that of the earlier iterations, and shrunk once the best move has held for several
    iterations, within [0.6, 2] times its length."""

    def __init__(self, budget: TimeBudget) -> None:
        self.budget = budget
        self.best_move: object = None
        self.best_score: int | None = None
        self.changes = 0.0
        self.stable_iterations = 0
        self._stretch = 1.0

    def stretch(self) -> float:
        """How many times the soft limit the search may now spend."""
        return self._stretch

    def __call__(self, elapsed: float, best_move: object, score: int) -> bool:
        self.changes /= 2
        if self.best_move is not None and best_move != self.best_move:
            self.changes += 1
            self.stable_iterations = 0
        else:
            self.stable_iterations += 1
        self.best_move = best_move
        fall = 0 if self.best_score is None else max(0, self.best_score - score)
        self.best_score = score if self.best_score is None else max(self.best_score, score)
        stretch = 1 + _CHANGE_STRETCH * self.changes
        stretch *= min(_MOST_FALL_STRETCH, 1 + fall / _FALL_CENTIPAWNS)
        if self.stable_iterations >= _STABLE_ITERATIONS:
            stretch *= _STABLE_SHARE
        self._stretch = min(_MOST_STRETCH, max(_LEAST_STRETCH, stretch))
        return elapsed >= NEW_ITERATION_SHARE * self.budget.soft * self.stretch()
