#!/usr/bin/env python3
"""Learning environments: steps per second of random play, polychess against PettingZoo's
``chess_v6`` (python-chess underneath), measured in one run.

    python bench/rl_speed.py                    # 3 s per row
    python bench/rl_speed.py --seconds 1 --num-envs 64

Rows, each with random legal actions:

- ``chess_v6`` AEC: the reference, actions drawn by ``action_space(agent).sample(mask)``;
- polychess AEC (``polychess.rl.env``), three-player and standard, drawn the same way
  (target: at least 2x ``chess_v6``);
- polychess vector env (``polychess.rl.vector_env``), three-player, ``--num-envs`` games a
  call, actions drawn in the core (``random_actions()``), and drawn in numpy from the returned
  masks (target: at least 20x ``chess_v6``); every step counts once per game.

PettingZoo's chess needs python-chess and pygame; if they are missing this script installs
them (``pip install``), for itself only. It reports; it does not assert.
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import time
from typing import Any

import numpy

TARGET_SINGLE = 2.0
TARGET_VECTOR = 20.0


def ensure_chess_v6() -> Any:
    try:
        return importlib.import_module("pettingzoo.classic.chess_v6")
    except ImportError as error:
        print(f"pettingzoo's chess is not importable ({error}); running: pip install 'pettingzoo[classic]'")
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "pettingzoo[classic]"], check=False)
        importlib.invalidate_caches()
        return importlib.import_module("pettingzoo.classic.chess_v6")


def aec_steps_per_second(env: Any, seconds: float, seed: int) -> float:
    """Random play through an AEC env for about ``seconds``: the agents' moves per second."""
    env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(env.action_space(agent).sample(observation["action_mask"]))
            steps += 1
            if steps % 256 == 0 and time.perf_counter() - start >= seconds:
                break
        else:
            env.reset()
    return steps / (time.perf_counter() - start)


def vector_steps_per_second(
    variant: str, num_envs: int, seconds: float, seed: int, numpy_actions: bool, **options: Any
) -> float:
    from polychess.rl import vector_env

    env = vector_env(variant, num_envs, seed=seed, copy=False, **options)
    observation, _ = env.reset()
    rng = numpy.random.default_rng(seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if numpy_actions:  # the largest of uniform draws over the legal codes is a uniform legal code
            actions = numpy.argmax(rng.random(observation["action_mask"].shape) * observation["action_mask"], axis=1)
        else:
            actions = env.random_actions()
        observation, _, _, _, _ = env.step(actions)
        steps += num_envs
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per row (default 3)")
    parser.add_argument("--num-envs", type=int, default=256, help="games per vector step (default 256)")
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()

    from polychess import rl

    chess_v6 = ensure_chess_v6()
    seconds, seed = arguments.seconds, arguments.seed
    reference = aec_steps_per_second(chess_v6.env(), seconds, seed)
    rows = [("PettingZoo chess_v6, AEC (reference)", reference, None)]
    rows.append(
        ("polychess three-player, AEC", aec_steps_per_second(rl.env("three-player"), seconds, seed), TARGET_SINGLE)
    )
    rows.append(("polychess standard, AEC", aec_steps_per_second(rl.env("standard"), seconds, seed), TARGET_SINGLE))
    for numpy_actions in (False, True):
        drawn = "numpy draws from the masks" if numpy_actions else "core draws"
        rows.append(
            (
                f"polychess three-player, vector x{arguments.num_envs}, {drawn}",
                vector_steps_per_second("three-player", arguments.num_envs, seconds, seed, numpy_actions),
                TARGET_VECTOR,
            )
        )
    print(f"random play, {seconds:g} s a row\n")
    print(f"{'environment':<62} {'steps/s':>12} {'x chess_v6':>11}  target")
    for name, rate, target in rows:
        ratio = rate / reference
        verdict = "" if target is None else f">= {target:g}x: {'met' if ratio >= target else 'NOT MET'}"
        print(f"{name:<62} {rate:>12,.0f} {ratio:>10.1f}x  {verdict}")


if __name__ == "__main__":
    main()
