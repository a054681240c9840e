"""Where a match's games are played: here, in worker processes, or on a Ray cluster.

A backend takes the match's settings and the tasks still to play and yields each game's
result as it finishes, in any order; closing it early (an SPRT decided) cancels the games
not yet finished. Every game is played by :func:`polychess.match.runner.play_game`, so every
backend plays the same games.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Any

from polychess.match.runner import GameResult, MatchConfig, Task, play_game

__all__ = ["BACKENDS", "local", "ray", "ray_session"]

BACKENDS = ("local", "ray")


def local(config: MatchConfig, tasks: Sequence[Task], jobs: int = 1) -> Iterator[GameResult]:
    """The games in this process (``jobs=1``) or in ``jobs`` worker processes, one game (and
    its engines) per worker at a time."""
    if jobs <= 1:
        for task in tasks:
            yield play_game(config, task)
        return
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=_worker_context(), initializer=_end_with_parent)
    pending: set[Future[GameResult]] = set()
    queued = iter(tasks)
    interrupted = False
    try:
        # No more games are queued than can run, so that stopping early wastes nothing.
        for task in queued:
            pending.add(pool.submit(play_game, config, task))
            if len(pending) >= jobs:
                break
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                next_task = next(queued, None)
                if next_task is not None:
                    pending.add(pool.submit(play_game, config, next_task))
                yield future.result()
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the games in play are lost with the match
        interrupted = True
        raise
    finally:
        if interrupted:  # their games are not waited for (the executor's exit hook would)
            workers: dict[int, Any] = getattr(pool, "_processes", None) or {}
            for process in list(workers.values()):
                process.terminate()
        pool.shutdown(wait=not interrupted, cancel_futures=True)


def _worker_context() -> multiprocessing.context.BaseContext:
    """How the workers start: from a fork server where there is one, never by forking this
    process, whose threads (a status line, the engines' helpers) a fork would copy half-way."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _end_with_parent() -> None:
    """Run in every worker process as it starts: a thread that waits for the process that made
    the worker to end, then ends the worker. A match killed outright (SIGKILL: no clean-up runs)
    would otherwise leave its workers waiting for games forever. The wait is on the parent's
    sentinel, a pipe only the parent holds open, which the system closes when it dies; a worker
    forked after another holds the earlier one's pipe too, and lets go of it when it ends."""
    # Interrupts are the match's to handle: a worker stopped by Ctrl-C mid-game would only
    # print its traceback (the match ends its workers by ending itself).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is None:  # pragma: no cover - the pool's workers always have a parent
        return

    def end_with_parent() -> None:
        parent.join()
        os._exit(1)  # at once: the games in progress are lost with the match that wanted them

    threading.Thread(target=end_with_parent, name="end with the match", daemon=True).start()


def ray(
    config: MatchConfig, tasks: Sequence[Task], address: str | None = None, jobs: int | None = None, retries: int = 3
) -> Iterator[GameResult]:
    """The games as Ray tasks, one per game, on the cluster at ``address`` (``"auto"``: the
    one this machine belongs to), or on a Ray instance started here with ``jobs`` CPUs (all of
    them if None) and shut down at the end. A task whose worker dies, or whose game raises, is
    retried up to ``retries`` times; the runner counts each game once."""
    with ray_session(address, jobs) as ray_module:
        remote_game = ray_module.remote(num_cpus=1, max_retries=retries, retry_exceptions=True)(play_game)
        shared_config = ray_module.put(config)
        pending = {remote_game.remote(shared_config, task): task for task in tasks}
        try:
            while pending:
                finished, _ = ray_module.wait(list(pending), num_returns=1)
                for reference in finished:
                    del pending[reference]
                    yield ray_module.get(reference)
        finally:
            for reference in pending:
                ray_module.cancel(reference, force=True)


@contextmanager
def ray_session(address: str | None, cpus: int | None) -> Iterator[Any]:
    """The ray module, connected: to the cluster at ``address`` (``"auto"``: the one this
    machine belongs to), or to a Ray instance started here with ``cpus`` CPUs (all of them if
    None) and shut down at the end; an instance already running is used as it is."""
    try:
        import ray as ray_module
    except ImportError:
        raise ValueError('the ray backend needs Ray: pip install "polychess[ray]"') from None
    started_here = not ray_module.is_initialized()
    if started_here:
        if address is None:
            ray_module.init(
                num_cpus=cpus or os.cpu_count() or 1,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        else:
            ray_module.init(address=address, log_to_driver=False, configure_logging=False)
    try:
        yield ray_module
    finally:
        if started_here:
            ray_module.shutdown()
