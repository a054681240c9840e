"""The learning environments (polychess.rl, docs/rl.md): PettingZoo's, Gymnasium's and
OpenSpiel's own checkers on every game, and what the checkers cannot see: rewards that add up
to the game's returns, agents terminated when their place is fixed, the vector environment
playing the same games as Game does, illegal actions refused without a change."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings
from typing import Any

import pytest

from game.test_three_player_game import MATE_TWICE  # noqa: E402
from polychess import Board, Game, IllegalMoveError
from polychess.options import OptionError
from polychess.rl import ActionSpace, env, gym_env, observe, openspiel_game, parallel_env, vector_env
from positions import position  # noqa: E402

numpy = pytest.importorskip("numpy")
pettingzoo_test = pytest.importorskip("pettingzoo.test")
env_checker = pytest.importorskip("gymnasium.utils.env_checker")

GAMES = [
    pytest.param("three-player", {}, id="three-player"),
    pytest.param("standard", {}, id="standard"),
    pytest.param("four-player", {"mode": "teams"}, id="teams"),
    pytest.param("four-player", {"mode": "ffa"}, id="ffa"),
]


@pytest.mark.parametrize(
    ("call", "library", "extra"),
    [
        ("rl.env()", "gymnasium", "rl"),
        ("rl.env()", "pettingzoo", "rl"),
        ("rl.parallel_env()", "pettingzoo", "rl"),
        ("rl.gym_env()", "gymnasium", "rl"),
        ("rl.vector_env()", "numpy", "rl"),
        ("rl.ActionSpace('standard').mask(polychess.Board('standard'))", "numpy", "rl"),
        ("rl.observe(polychess.Game('standard'))", "numpy", "rl"),
        ("rl.openspiel_game()", "pyspiel", "openspiel"),
        ("import polychess.rl.openspiel", "pyspiel", "openspiel"),
    ],
)
def test_a_missing_library_names_the_extra_that_brings_it(call: str, library: str, extra: str) -> None:
    # A None in sys.modules makes an import fail as if the library were not installed; in a
    # process of its own, since the libraries are loaded in this one.
    program = f"import sys\nsys.modules[{library!r}] = None\nimport polychess\nfrom polychess import rl\n{call}\n"
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stderr
    assert run.stderr.splitlines()[-1] == (
        f"ModuleNotFoundError: polychess.rl needs {library}, which is not installed: pip install 'polychess[{extra}]'"
    )


@pytest.fixture(autouse=True)
def _quiet_checkers() -> Any:
    # The checkers advise on style (agent names like "player_0", Box observation spaces): we
    # name agents by their colours and observe a dict with the mask, as PettingZoo's chess does.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize(("variant", "options"), GAMES)
def test_pettingzoo_checkers(variant: str, options: dict[str, Any]) -> None:
    pettingzoo_test.api_test(env(variant, **options), num_cycles=200)
    pettingzoo_test.parallel_api_test(parallel_env(variant, **options), num_cycles=200)


@pytest.mark.parametrize(("variant", "options"), GAMES)
def test_pettingzoo_seed_tests(variant: str, options: dict[str, Any]) -> None:
    # parallel_seed_test sends every live agent an action drawn without the mask: the mover's
    # is illegal, and resigns him, as in the AEC environment.
    pettingzoo_test.seed_test(lambda: env(variant, **options), num_cycles=100)
    pettingzoo_test.parallel_seed_test(lambda: parallel_env(variant, **options), num_cycles=100)


def test_pettingzoo_checkers_with_uint8_and_a_ply_limit() -> None:
    pettingzoo_test.api_test(env("three-player", observation_dtype="uint8", max_plies=30), num_cycles=100)
    pettingzoo_test.parallel_api_test(
        parallel_env("three-player", observation_dtype="uint8", max_plies=30), num_cycles=100
    )


@pytest.mark.parametrize(("variant", "options"), GAMES)
def test_gymnasium_checker(variant: str, options: dict[str, Any]) -> None:
    env_checker.check_env(gym_env(variant, **options))
    env_checker.check_env(gym_env(variant, opponents=1, opponent_nodes=50, **options))


def play_aec(environment: Any, seed: int) -> tuple[dict[str, float], list[str]]:
    """Random legal actions until every agent is done: each agent's summed rewards and the order
    in which the agents were terminated."""
    rng = random.Random(seed)
    environment.reset(seed=seed)
    totals = {agent: 0.0 for agent in environment.possible_agents}
    finished: list[str] = []
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        totals[agent] += reward
        if terminated or truncated:
            finished.append(agent)
            environment.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.dtype == numpy.int8 and mask.sum() == len(environment.game.legal_moves)
        environment.step(rng.choice(numpy.flatnonzero(mask).tolist()))
    return totals, finished


@pytest.mark.parametrize(("variant", "options"), GAMES)
def test_aec_rewards_add_up_to_the_returns(variant: str, options: dict[str, Any]) -> None:
    environment = env(variant, **options)
    for seed in range(3):
        totals, finished = play_aec(environment, seed)
        outcome = environment.game.outcome()
        assert outcome is not None
        assert sorted(finished) == sorted(environment.possible_agents)
        returns = dict(zip((c.value for c in outcome.places), outcome.returns(), strict=True))
        assert totals == pytest.approx(returns)


def test_a_mated_three_player_agent_is_terminated_while_the_game_goes_on() -> None:
    # test_three_player_game's MATE_TWICE: White checks Black, Red's quiet move leaves Black mated (out,
    # third); then White's inherited rook mates Red (second), and White wins.
    environment = env("three-player", start=position(MATE_TWICE))
    environment.reset()
    space = environment.table.space

    def play(move: str) -> None:
        environment.step(space.encode(environment.game.board, move))

    play("B3H3")
    play("G1G2")
    assert environment.terminations == {"white": False, "red": False, "black": True}
    assert environment.rewards == {"white": 0.0, "red": 0.0, "black": -1.0}
    assert environment.agent_selection == "black"  # a terminated agent steps None first
    assert environment.last(observe=False)[1:3] == (-1.0, True)
    environment.step(None)
    assert environment.agents == ["white", "red"] and environment.agent_selection == "white"
    assert not environment.game.is_over()
    play("A3A4")
    play("G2G3")
    play("K10K12")
    assert environment.terminations == {"white": True, "red": True}
    assert environment.rewards == {"white": 1.0, "red": 0.0}
    environment.step(None)
    environment.step(None)
    assert environment.agents == []


def test_truncation_at_the_ply_limit() -> None:
    environment = env("standard", max_plies=4)
    environment.reset()
    for _ in range(4):
        environment.step(int(numpy.flatnonzero(environment.last()[0]["action_mask"])[0]))
    assert all(environment.truncations.values()) and not any(environment.terminations.values())
    assert environment.rewards == {"white": 0.0, "black": 0.0}


RANGE = "the action codes are whole numbers from 0 to 3005"
OPENING = ActionSpace("three-player").legal_actions(Board("three-player"))[0]  # a legal code of White's first move


def _wide(code: int) -> list[Any]:
    """Whole numbers that are no action codes, each of which a cast to 32 bits would make ``code``."""
    return [2**32 + code, numpy.int64(2**32 + code), numpy.uint64(2**64 - 2**32 + code), -(2**32) + code]


def test_pettingzoo_illegal_actions_resign_by_default() -> None:
    for make in (env, parallel_env):
        for action in [0, -1, 3006, 2**64, *_wide(OPENING)]:  # 0 is no legal move at the start
            environment = make("three-player")
            environment.reset()
            if make is env:
                environment.step(action)
                infos = environment.infos
            else:
                infos = environment.step({agent: action for agent in environment.agents})[4]
            assert infos["white"]["illegal_action"]
            game = environment.game
            assert game.ply == 0 and game.history == ["resign(white)"]
        # (None is the AEC's action of a done agent, refused otherwise: ValueError, checked elsewhere.)
        for not_a_number in (float(OPENING), numpy.float32(OPENING), True, "E2E4", "1" if make is env else None):
            environment = make("three-player")
            environment.reset()
            with pytest.raises(IllegalMoveError, match=RANGE):
                if make is env:
                    environment.step(not_a_number)
                else:
                    environment.step({agent: not_a_number for agent in environment.agents})
            assert environment.game.history == []


def test_aec_refuses_illegal_actions_unchanged_if_asked() -> None:
    environment = env("three-player", illegal_action="raise")
    environment.reset()
    before = environment.game.board.fen()
    with pytest.raises(IllegalMoveError, match="action 0 is not a legal move here"):
        environment.step(0)
    for action in (-1, 2**40, *_wide(OPENING), float(OPENING), "E2E4"):
        with pytest.raises(IllegalMoveError, match=f"^no action .*: {RANGE}$"):
            environment.step(action)
    with pytest.raises(ValueError, match="None"):
        environment.step(None)
    assert environment.game.board.fen() == before and environment.agent_selection == "white"


def test_observations_are_the_planes_and_the_mask() -> None:
    environment = env("three-player")
    environment.reset()
    game = Game("three-player")
    observation = environment.observe("white")
    assert numpy.array_equal(observation["observation"], observe(game))
    assert numpy.array_equal(observation["action_mask"], ActionSpace("three-player").mask(game.board))
    assert environment.observe("red")["action_mask"].sum() == 0  # not his turn
    assert numpy.array_equal(environment.observe("red")["observation"], observe(game, player="red"))


def test_render_as_text_and_svg() -> None:
    assert "\n" in env("three-player", render_mode="ansi").render()
    assert env("four-player", render_mode="svg").render().startswith("<svg")
    with pytest.raises(ValueError, match="render_mode"):
        env("three-player", render_mode="rgb")


def test_render_as_pixels() -> None:
    pytest.importorskip("PIL")
    from polychess.png import ConverterMissing

    environment = env("three-player", render_mode="rgb_array")
    try:
        pixels = environment.render()
    except ConverterMissing:
        pytest.skip("no SVG to PNG converter (rsvg-convert or cairosvg) installed")
    assert pixels.dtype == numpy.uint8 and pixels.ndim == 3 and pixels.shape[2] == 3
    assert pixels.shape[0] > 100 and len(numpy.unique(pixels.reshape(-1, 3), axis=0)) > 4  # a picture, not a blank


def test_bad_options_name_themselves() -> None:
    with pytest.raises(OptionError, match="clock"):
        env("three-player", time_control=60)
    with pytest.raises(OptionError, match="observation_dtype"):
        env("three-player", observation_dtype="float64")
    with pytest.raises(OptionError, match="max_plies"):
        vector_env("three-player", 2, max_plies=0)
    with pytest.raises(OptionError, match="mode"):
        env("three-player", mode="ffa")
    with pytest.raises(ValueError, match="num_envs"):
        vector_env("three-player", 0)
    with pytest.raises(ValueError, match="seat"):
        gym_env("three-player", seat="blue")
    with pytest.raises(ValueError, match="opponents must name every other seat"):
        gym_env("three-player", opponents={"red": "random"})
    with pytest.raises(ValueError, match="level"):
        gym_env("three-player", opponents=11)


# -- the vector environment ------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "options"), GAMES)
def test_vector_env_plays_the_games_game_plays(variant: str, options: dict[str, Any]) -> None:
    """Every game of the batch, stepped with random legal actions, against a Game fed the same
    moves: the same observations, masks, players to move, and rewards adding up to the returns."""
    vector = vector_env(variant, 3, seed=5, **options)
    observation, info = vector.reset()
    space = ActionSpace(variant, mode=options.get("mode"))
    games = [Game(variant, **options) for _ in range(3)]
    totals = numpy.zeros((3, len(vector.players)))
    ended = 0
    for _ in range(600):
        for i, game in enumerate(games):
            assert numpy.array_equal(observation["observation"][i], observe(game))
            assert numpy.array_equal(observation["action_mask"][i], space.mask(game.board))
            assert vector.players[info["to_play"][i]] == game.turn.value
        actions = vector.random_actions()
        moves = [space.decode(game.board, int(code)) for game, code in zip(games, actions, strict=True)]
        observation, rewards, terminated, truncated, info = vector.step(actions)
        totals += rewards
        assert not truncated.any()
        for i, (game, move) in enumerate(zip(games, moves, strict=True)):
            game.push(move)
            assert terminated[i] == game.is_over()
            if game.is_over():
                ended += 1
                returns = dict(zip(game.outcome().places, game.outcome().returns(), strict=True))  # type: ignore[union-attr]
                assert totals[i] == pytest.approx([returns.get(c, 0.0) for c in game.colours])
                totals[i] = 0
                games[i] = Game(variant, **options)
    if variant == "standard" or options.get("mode") == "teams":
        assert ended > 0


def test_vector_env_refuses_an_illegal_action_before_any_game_moves() -> None:
    vector = vector_env("three-player", 4, seed=1)
    vector.reset()
    legal = vector.random_actions()
    for wide in _wide(int(legal[2])):  # no wide number is cut down to the legal code it ends with
        actions = legal.astype(numpy.asarray(wide).dtype)
        actions[2] = wide
        with pytest.raises(IllegalMoveError, match=f"^game 2: no action {wide}: {RANGE}$"):
            vector.step(actions)
    actions = legal.copy()
    actions[2] = 0
    with pytest.raises(IllegalMoveError, match="game 2: action 0 is not a legal move of white here"):
        vector.step(actions)
    actions[2] = 99999
    with pytest.raises(IllegalMoveError, match=f"game 2: no action 99999: {RANGE}"):
        vector.step(actions)
    for actions in ([*legal[:3], 2**100], legal.astype(numpy.float64), legal.astype(bool)):
        with pytest.raises(IllegalMoveError, match=RANGE):
            vector.step(actions)
    observation = vector.step(legal)[0]["observation"]  # nothing above moved a game
    assert numpy.array_equal(observation[:, 1].sum(axis=(1, 2)), [8, 8, 8, 8])  # Red, to move, has his 8 pawns
    played = [vector.board(i).fen() for i in range(4)]
    for same in (legal.astype(numpy.int16), legal.astype(numpy.uint64), legal.tolist()):  # any integer type
        vector.reset()
        vector.step(same)
        assert [vector.board(i).fen() for i in range(4)] == played
    with pytest.raises(ValueError, match="4 action codes"):
        vector.step(numpy.zeros(3, dtype=numpy.int32))


def test_vector_env_cuts_games_off_and_starts_them_again() -> None:
    vector = vector_env("four-player", 2, max_plies=3, observation_dtype="uint8", seed=3)
    start, _ = vector.reset()
    assert start["observation"].dtype == numpy.uint8
    for ply in range(1, 4):
        observation, rewards, terminated, truncated, info = vector.step(vector.random_actions())
        assert list(truncated) == [ply == 3] * 2 and not terminated.any() and not rewards.any()
    assert numpy.array_equal(observation["observation"], start["observation"])  # the start again
    assert list(info["to_play"]) == [0, 0]


def test_vector_env_arrays_are_copies_unless_asked() -> None:
    vector = vector_env("standard", 2, seed=2)
    first, _ = vector.reset()
    vector.step(vector.random_actions())
    assert first["observation"][:, 1].sum() == 16  # White's pawns at the start, kept
    shared = vector_env("standard", 2, seed=2, copy=False)
    observation, _ = shared.reset()
    again, *_ = shared.step(shared.random_actions())
    assert again["observation"] is observation["observation"]


def test_vector_env_threads_play_the_same_games() -> None:
    one = vector_env("three-player", 16, seed=9)
    two = vector_env("three-player", 16, seed=9, threads=2)
    one.reset()
    two.reset()
    for _ in range(50):
        actions = one.random_actions()
        assert numpy.array_equal(actions, two.random_actions())
        a, b = one.step(actions), two.step(actions)
        for x, y in zip(a[:4], b[:4], strict=True):
            if isinstance(x, dict):
                assert all(numpy.array_equal(x[k], y[k]) for k in x)
            else:
                assert numpy.array_equal(x, y)
    assert one.board(0) == two.board(0)


# -- the Gymnasium environment ---------------------------------------------------------------


def test_gym_env_plays_one_seat_against_policies() -> None:
    seen: list[int] = []

    def first_legal(observation: dict[str, Any]) -> int:
        seen.append(int(observation["action_mask"].sum()))
        return int(numpy.flatnonzero(observation["action_mask"])[0])

    environment = gym_env("three-player", seat="red", opponents={"white": first_legal, "black": "random"})
    observation, info = environment.reset(seed=4)
    assert seen == [20] and info["to_move"] == "red"  # White has moved; Red is to move
    assert observation["action_mask"].sum() == len(environment.table.game.legal_moves)
    total = 0.0
    for _ in range(2000):
        observation, reward, terminated, truncated, info = environment.step(
            int(environment.np_random.choice(numpy.flatnonzero(observation["action_mask"])))
        )
        total += reward
        if terminated or truncated:
            break
    assert terminated
    game = environment.table.game
    if game.is_over():
        assert total == pytest.approx(
            dict(zip(game.outcome().places, game.outcome().returns(), strict=True))[  # type: ignore[union-attr]
                next(c for c in game.colours if c.value == "red")
            ]
        )
    else:  # Red was mated: out, third
        assert total == -1.0


def test_gym_env_illegal_action_resigns_or_raises() -> None:
    environment = gym_env("three-player")
    environment.reset(seed=0)
    _, reward, terminated, _, info = environment.step(0)
    assert terminated and info["illegal_action"] and reward == -1.0  # out first: third place
    for wide in _wide(OPENING):  # no code, though a cast to 32 bits would make it a legal one
        environment.reset(seed=0)
        _, _, terminated, _, info = environment.step(wide)
        assert terminated and info["illegal_action"] and environment.game.ply == 0
    environment.reset(seed=0)
    with pytest.raises(IllegalMoveError, match=RANGE):  # no whole number: no action, under any policy
        environment.step(float(OPENING))
    strict = gym_env("three-player", illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalMoveError):
        strict.step(0)
    with pytest.raises(IllegalMoveError, match=RANGE):
        strict.step(2**32 + OPENING)
    assert strict.table.game.ply == 0
    with pytest.raises(OptionError, match="illegal_action must be one of resign, raise"):
        gym_env("three-player", illegal_action="ignore")


# -- OpenSpiel ------------------------------------------------------------------------------


def test_openspiel_random_simulations() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from polychess.rl import openspiel

    openspiel.register()  # importing the module registered them; again is harmless
    for name in openspiel.GAMES:
        pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=1, serialize=False, verbose=False)
    game = openspiel_game("four-player", setup="classic")
    assert str(game) == str(pyspiel.load_game("polychess_four_player_teams", {"setup": "classic"}))
    assert game.num_players() == 4 and game.num_distinct_actions() == 7420
    state = game.new_initial_state()
    clone = state.clone()
    state.apply_action(state.legal_actions()[0])
    assert clone.move_number() == 0 and state.move_number() == 1
    assert len(state.observation_tensor(0)) == 64 * 14 * 14
    with pytest.raises(OptionError, match="mode"):
        openspiel_game("four-player", mode="duel")
    with pytest.raises(OptionError, match="not a parameter of polychess_standard"):
        openspiel_game("standard", setup="classic")
    with pytest.raises(OptionError, match="setup"):
        openspiel_game("four-player", setup="hexagonal")


def test_openspiel_mcts_bot_plays() -> None:
    pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import mcts

    game = openspiel_game("standard")
    evaluator = mcts.RandomRolloutEvaluator(1, numpy.random.RandomState(0))
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=8, evaluator=evaluator, random_state=numpy.random.RandomState(0))
    state = game.new_initial_state()
    for _ in range(2):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
