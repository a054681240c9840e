#!/usr/bin/env python3
"""Train a small value network to play three-player chess against random players, then show
that it beats them, with a plot of its learning curve.

    pip install 'polychess[examples]'        # numpy, gymnasium, pettingzoo, matplotlib
    python examples/train_three_player.py    # about 5 minutes on 2 CPUs: writes learning_curve.png

The agent plays White in ``polychess.rl.gym_env`` against two random opponents. It is an
after-state learner: it looks at the position each legal move leads to (from its own seat,
the planes of ``polychess.rl.observe``), scores it with a two-layer network (numpy only), and
plays the best one, with a little exploration while training. The network learns to predict
the agent's return at the end of the game (+1 first, 0 second, -1 third; ``polychess.Outcome``)
from the positions it chose (Monte Carlo targets, Adam).

At the end the trained agent and a random agent play the same number of evaluation games
from White's seat; the script prints both mean returns with 95% intervals. The plot shows the
mean return of each training round (with exploration) beside the random agent's level.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy

from polychess.rl import gym_env, observe
from polychess.rl.gymnasium_env import GymEnv


class ValueNetwork:
    """tanh(w2 . relu(W1 x + b1) + b2): the predicted return of a position, trained by Adam."""

    def __init__(self, inputs: int, hidden: int, rng: numpy.random.Generator, learning_rate: float = 1e-3) -> None:
        self.params = {
            "w1": rng.normal(0, 1 / math.sqrt(inputs), (inputs, hidden)).astype(numpy.float32),
            "b1": numpy.zeros(hidden, numpy.float32),
            "w2": rng.normal(0, 1 / math.sqrt(hidden), hidden).astype(numpy.float32),
            "b2": numpy.zeros(1, numpy.float32),
        }
        self.moments = {k: (numpy.zeros_like(v), numpy.zeros_like(v)) for k, v in self.params.items()}
        self.learning_rate, self.steps = learning_rate, 0

    def __call__(self, x: numpy.ndarray) -> numpy.ndarray:
        hidden = numpy.maximum(x @ self.params["w1"] + self.params["b1"], 0)
        return numpy.tanh(hidden @ self.params["w2"] + self.params["b2"])

    def train(self, x: numpy.ndarray, target: numpy.ndarray) -> float:
        """One Adam step on the mean squared error; returns the error before the step."""
        p = self.params
        pre = x @ p["w1"] + p["b1"]
        hidden = numpy.maximum(pre, 0)
        out = numpy.tanh(hidden @ p["w2"] + p["b2"])
        error = out - target
        d_out = 2 * error * (1 - out**2) / len(x)
        d_hidden = numpy.outer(d_out, p["w2"]) * (pre > 0)
        grads = {
            "w2": hidden.T @ d_out,
            "b2": numpy.array([d_out.sum()], numpy.float32),
            "w1": x.T @ d_hidden,
            "b1": d_hidden.sum(axis=0),
        }
        self.steps += 1
        for name, grad in grads.items():
            m, v = self.moments[name]
            m[:] = 0.9 * m + 0.1 * grad
            v[:] = 0.999 * v + 0.001 * grad**2
            m_hat, v_hat = m / (1 - 0.9**self.steps), v / (1 - 0.999**self.steps)
            p[name] -= (self.learning_rate * m_hat / (numpy.sqrt(v_hat) + 1e-8)).astype(numpy.float32)
        return float((error**2).mean())


def choose(
    env: GymEnv,
    observation: dict[str, numpy.ndarray],
    network: ValueNetwork | None,
    epsilon: float,
    rng: numpy.random.Generator,
) -> tuple[int, numpy.ndarray | None]:
    """The action to play and the after-state it leads to (None for a random agent)."""
    legal = numpy.flatnonzero(observation["action_mask"])
    if network is None or rng.random() < epsilon:
        return int(rng.choice(legal)), None
    game = env.game.copy()  # look ahead on a copy: the environment's game is left alone
    space, seat = env.table.space, env.seat
    after = numpy.empty((len(legal), *env.table.observation_shape), numpy.float32)
    for i, code in enumerate(legal):
        game.push(space.decode(game.board, int(code)))
        observe(game, after[i], player=seat)
        game.pop()
    flat = after.reshape(len(legal), -1)
    best = int(numpy.argmax(network(flat)))
    return int(legal[best]), flat[best]


def play(
    env: GymEnv, network: ValueNetwork | None, epsilon: float, rng: numpy.random.Generator, seed: int
) -> tuple[float, list[numpy.ndarray]]:
    """One game from the agent's seat: his return and the after-states he chose."""
    observation, _ = env.reset(seed=seed)
    chosen: list[numpy.ndarray] = []
    total = 0.0
    while True:
        action, after = choose(env, observation, network, epsilon, rng)
        if after is not None:
            chosen.append(after)
        observation, reward, terminated, truncated, _ = env.step(action)
        total += reward
        if terminated or truncated:
            return total, chosen


def mean_interval(values: list[float]) -> tuple[float, float]:
    mean = float(numpy.mean(values))
    return mean, 1.96 * float(numpy.std(values, ddof=1)) / math.sqrt(len(values)) if len(values) > 1 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=4.0, help="training time (default 4)")
    parser.add_argument("--round-games", type=int, default=20, help="games per training round (default 20)")
    parser.add_argument("--eval-games", type=int, default=100, help="evaluation games per agent (default 100)")
    parser.add_argument("--max-plies", type=int, default=600, help="plies after which a game is cut off (0 = none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", default="learning_curve.png", help="where the plot goes ('' for none)")
    arguments = parser.parse_args()

    rng = numpy.random.default_rng(arguments.seed)
    env = gym_env("three-player", seat="white", opponents="random", max_plies=arguments.max_plies or None)
    inputs = int(numpy.prod(env.table.observation_shape))
    network = ValueNetwork(inputs, 64, rng)
    positions: list[numpy.ndarray] = []
    targets: list[float] = []
    curve: list[tuple[int, float]] = []
    games, seed = 0, arguments.seed * 1_000_000
    started = time.monotonic()
    while time.monotonic() - started < arguments.minutes * 60 or not curve:
        returns = []
        for _ in range(arguments.round_games):
            result, chosen = play(env, network, epsilon=0.1, rng=rng, seed=seed)
            seed += 1
            returns.append(result)
            positions.extend(chosen)
            targets.extend([result] * len(chosen))
        games += arguments.round_games
        positions, targets = positions[-60_000:], targets[-60_000:]  # the recent games only
        x, y = numpy.asarray(positions), numpy.asarray(targets, numpy.float32)
        for _ in range(200):
            batch = rng.integers(0, len(x), 256)
            loss = network.train(x[batch], y[batch])
        curve.append((games, float(numpy.mean(returns))))
        print(
            f"{games:5d} games  mean return {curve[-1][1]:+.3f}  loss {loss:.3f}  {time.monotonic() - started:5.0f} s",
            flush=True,
        )

    trained = [play(env, network, 0.0, rng, seed=10**9 + i)[0] for i in range(arguments.eval_games)]
    random_agent = [play(env, None, 0.0, rng, seed=10**9 + i)[0] for i in range(arguments.eval_games)]
    (t_mean, t_half), (r_mean, r_half) = mean_interval(trained), mean_interval(random_agent)
    print(f"\nevaluation, {arguments.eval_games} games each from White's seat against two random players:")
    print(f"  trained agent: mean return {t_mean:+.3f} ± {t_half:.3f}")
    print(f"  random agent:  mean return {r_mean:+.3f} ± {r_half:.3f}")
    print(
        "  the trained agent "
        + ("beats" if t_mean - t_half > r_mean + r_half else "does not clearly beat")
        + " the random agent"
    )
    if arguments.plot:
        draw(curve, r_mean, arguments.plot)


def draw(curve: list[tuple[int, float]], random_level: float, path: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed (pip install 'polychess[examples]'): no plot")
        return
    games, returns = zip(*curve, strict=True)
    window = 5
    smooth = [float(numpy.mean(returns[max(0, i - window + 1) : i + 1])) for i in range(len(returns))]
    figure, axes = plt.subplots(figsize=(7, 4))
    axes.plot(games, returns, marker=".", alpha=0.4, label="each training round (10% exploration)")
    axes.plot(games, smooth, linewidth=2, label=f"mean of the last {window} rounds")
    axes.axhline(random_level, color="grey", linestyle="--", label="random agent (evaluation)")
    axes.set_xlabel("training games")
    axes.set_ylabel("mean return (+1 first, -1 third)")
    axes.set_title("Three-player chess: White against two random players")
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    print(f"learning curve: {path}")


if __name__ == "__main__":
    main()
