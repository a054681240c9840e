"""One game as the learning environments see it: the seats as agent names, action codes in,
observations and masks out, and each player's reward at the step his place is fixed.

The PettingZoo, Gymnasium and OpenSpiel environments all play through a :class:`Table`, so
they agree on what an action, an observation and a reward are (docs/rl.md). The game itself
is a :class:`polychess.Game`: every rule is the core's.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

from polychess.rl.extras import needs_extra

with needs_extra("rl"):
    import numpy

from polychess.game import Game
from polychess.options import CLOCK_OPTIONS, OptionError
from polychess.rl.actions import ActionSpace

__all__ = ["ILLEGAL_ACTIONS", "OBSERVATION_DTYPES", "RENDER_MODES", "Table", "start_game"]

OBSERVATION_DTYPES = ("float32", "uint8")
RENDER_MODES = ("ansi", "human", "svg", "rgb_array")
# What an environment does with an agent's action that is no legal move (docs/rl.md): the agent
# resigns, as Gymnasium's and PettingZoo's checkers and agents without masks draw any code; or
# IllegalMoveError, nothing changed.
ILLEGAL_ACTIONS = ("resign", "raise")
# Game options that make no sense without a clock on the wall.
_CLOCK_OPTIONS = (*CLOCK_OPTIONS, "time_source")


def start_game(variant: str, options: Mapping[str, Any]) -> Game:
    """The game an environment plays, from :class:`polychess.Game`'s options (checked there)."""
    for name in _CLOCK_OPTIONS:
        if options.get(name) not in (None, False, 0, 0.0):
            raise OptionError(name, f"{{{name}}}: the environments play without a clock")
    game = Game(variant, **{k: v for k, v in options.items() if k not in _CLOCK_OPTIONS})
    if game.is_over():
        raise ValueError(f"the game is over before the first move ({game.outcome().termination.value})")  # type: ignore[union-attr]
    return game


def check_dtype(dtype: str) -> str:
    if dtype not in OBSERVATION_DTYPES:
        raise OptionError(
            "observation_dtype", f"{{observation_dtype}} must be one of {', '.join(OBSERVATION_DTYPES)}, got {dtype!r}"
        )
    return dtype


def check_render_mode(render_mode: str | None) -> str | None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, got {render_mode!r}")
    return render_mode


def check_illegal_action(illegal_action: str) -> str:
    if illegal_action not in ILLEGAL_ACTIONS:
        raise OptionError(
            "illegal_action", f"{{illegal_action}} must be one of {', '.join(ILLEGAL_ACTIONS)}, got {illegal_action!r}"
        )
    return illegal_action


def check_max_plies(max_plies: int | None) -> int:
    """The ply limit as the core takes it (0: none)."""
    if max_plies is None:
        return 0
    if isinstance(max_plies, bool) or not isinstance(max_plies, int) or not 1 <= max_plies < 2**32:
        raise OptionError("max_plies", f"{{max_plies}} must be a whole number of at least 1, got {max_plies!r}")
    return max_plies


def _pixels(picture: str) -> numpy.ndarray:
    """SVG text as RGB pixels: converted to PNG as ``polychess show`` converts it (rsvg-convert
    or cairosvg), read by Pillow."""
    import io
    import os
    import tempfile

    from polychess.png import svg_to_png

    try:
        from PIL import Image
    except ImportError:
        raise ImportError("render_mode='rgb_array' needs Pillow: pip install pillow") from None
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "board.png")
        svg_to_png(picture, path)
        with open(path, "rb") as png:
            data = png.read()
    return numpy.asarray(Image.open(io.BytesIO(data)).convert("RGB"))


class Table:
    """A game in progress, read and played by action codes.

    ``agents`` are the seats' colour names in turn order. :meth:`play` plays the code of the
    player to move and returns the rewards of that step: a player receives his return
    (:meth:`polychess.Outcome.returns`) at the step his place is fixed, when he goes out with a
    place or when the game ends, so his rewards over a game add up to his return. A game that
    reaches ``max_plies`` plies is cut off (:attr:`truncated`) with no rewards. :meth:`act` plays
    an agent's action by the ``illegal_action`` policy (:data:`ILLEGAL_ACTIONS`).
    """

    def __init__(
        self,
        start: Game,
        observation_dtype: str = "float32",
        max_plies: int | None = None,
        illegal_action: str = "raise",
    ) -> None:
        self.start = start
        self.space = ActionSpace(start.variant, start.mode, start.setup)
        self.observation_dtype = check_dtype(observation_dtype)
        self.max_plies = check_max_plies(max_plies)
        self.illegal_action = check_illegal_action(illegal_action)
        self.agents: tuple[str, ...] = tuple(c.value for c in start.seats)
        self._index = {c.value: start.colours.index(c) for c in start.seats}
        self.observation_shape: tuple[int, int, int] = tuple(start.state.observation_shape)  # type: ignore[assignment]
        self.reset()

    def reset(self) -> None:
        self.game = self.start.copy()
        self.truncated = False
        self._settled = self.game.state.settled_players

    @property
    def to_move(self) -> str | None:
        """The agent to move; None once the game is over or cut off."""
        return None if self.game.is_over() or self.truncated else self.game.turn.value

    def is_done(self, agent: str) -> bool:
        """Whether the agent's place is fixed (or the game is cut off)."""
        return self.truncated or bool(self._settled >> self._index[agent] & 1)

    def play(self, code: int) -> dict[str, float]:
        """Plays the code of the player to move; the rewards of the agents whose place this step
        fixed. An IllegalMoveError (a ValueError) for a code that is no legal move leaves the
        game unchanged."""
        self._require_running()
        self.game.push(self.space.decode(self.game.live_board, code))
        return self._settle()

    def act(self, code: int) -> tuple[dict[str, float], bool]:
        """Plays an agent's action, the code of the player to move, by the table's policy: a
        code that is no legal move resigns the mover ("resign") or raises IllegalMoveError and
        changes nothing ("raise"). Anything but a whole number raises IllegalMoveError either
        way. The rewards of the step, and whether the action was illegal."""
        self._require_running()
        if self.illegal_action == "resign" and not self.space.is_legal(self.game.live_board, code):
            return self.resign(self.game.turn.value), True
        return self.play(code), False

    def resign(self, agent: str) -> dict[str, float]:
        """The agent resigns (rules: out, ranked as if mated now); the rewards of that step."""
        self._require_running()
        self.game.resign(agent)
        return self._settle()

    def _require_running(self) -> None:
        if self.to_move is None:
            raise ValueError("the game is over: reset the environment")

    def _settle(self) -> dict[str, float]:
        state = self.game.state
        settled = state.settled_players
        newly, self._settled = settled & ~self._settled, settled
        rewards = {agent: float(state.return_of(index)) for agent, index in self._index.items() if newly >> index & 1}
        if self.max_plies and not self.game.is_over() and self.game.ply - self.start.ply >= self.max_plies:
            self.truncated = True
        return rewards

    def observe(self, agent: str) -> dict[str, numpy.ndarray]:
        """The agent's view: the planes from his seat and the mask of his legal actions (all
        zeros unless he is to move)."""
        planes = numpy.empty(self.observation_shape, dtype=self.observation_dtype)
        self.game.state.write_observation(planes, self._index[agent])
        if agent == self.to_move:
            mask = self.space.mask(self.game.live_board)
        else:
            mask = numpy.zeros(self.space.size, dtype=numpy.int8)
        return {"observation": planes, "action_mask": mask}

    def render(self, render_mode: str | None) -> Any:
        """'ansi': the text board; 'human': the text board, printed; 'svg': the picture as SVG
        text; 'rgb_array': the picture as an (height, width, 3) uint8 array."""
        if render_mode is None:
            warnings.warn(
                f"render() without a render_mode: pass render_mode= one of {', '.join(RENDER_MODES)}", stacklevel=3
            )
            return None
        if render_mode in ("svg", "rgb_array"):
            from polychess import svg  # svg imports the game module

            position = self.game.live_board
            picture = svg.board(position, lastmove=position.peek() if position.move_stack else None)
            return picture if render_mode == "svg" else _pixels(picture)
        if render_mode == "human":
            print(self.game)
            return None
        return str(self.game)

    def legal_actions(self) -> list[int]:
        return self.space.legal_actions(self.game.live_board) if self.to_move is not None else []
