"""A match's results as a table: per configuration the games, score with its confidence
interval, Elo estimate, place score, W/D/L, moves, thinking time, nodes and the median depth of
its searches; then the SPRT, terminations, capped games and incidents.

The interval and the Elo estimate are computed over the openings (each opening's mean score
over all its seat assignments, :func:`polychess.match.runner.opening_samples`), which takes
out the imbalance of each opening. W/D/L counts games scored above, at and below 1/2.
"""

from __future__ import annotations

from collections import Counter
from statistics import median

from polychess.game import Termination
from polychess.match.runner import PLY_CAP, MatchResult, opening_samples
from polychess.match.stats import Estimate, elo_interval, format_elo, score_interval
from polychess.options import option

__all__ = ["format_report", "progress_text"]


def _estimates(match: MatchResult) -> tuple[Estimate, Estimate] | None:
    samples = opening_samples(match.games, match.config)
    if not samples:
        return None
    return score_interval(samples), elo_interval(samples)


def progress_text(match: MatchResult) -> str:
    """One line on the state of a running match."""
    config = match.config
    total = len(config.tasks())
    done = len(match.games)
    width = 20
    filled = width * done // total if total else width
    text = f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games"
    estimates = _estimates(match)
    if estimates is not None:
        score, elo = estimates
        text += f", A {score.mean:.3f} [{score.low:.3f}, {score.high:.3f}], Elo {format_elo(elo)}"
    if match.sprt is not None:
        llr = match.sprt.llr(opening_samples(match.games, config))
        text += f", LLR {llr:+.2f} ({match.sprt.lower_bound:+.2f}, {match.sprt.upper_bound:+.2f})"
    return text


def format_report(match: MatchResult) -> str:
    config = match.config
    games = match.games
    n = len(games)
    lines = [
        f"match: {config.kind.name}, A = {config.a.text}, B = {config.b.text}",
        (
            f"{n} games: {config.openings_needed} openings ({config.openings_from}, seed {config.seed}) x "
            f"{len(config.assignments)} seat assignments ({' '.join(config.assignments)}); ply cap {config.max_plies}"
            + (f"; clock {config.time_control:g}+{config.increment:g} s" if config.time_control is not None else "")
        ),
    ]
    planned = len(config.tasks())
    if planned != config.games:
        lines.append(
            f"note: {config.games} games requested, rounded up to {planned} "
            f"(a multiple of {len(config.assignments)} seat assignments)"
        )
    if match.resumed:
        lines.append(f"resumed: {match.resumed} games read back from the output file")
    if n == 0:
        lines.append("no games played")
        return "\n".join(lines)
    lines.append("")
    width = max(len(s.text) for s in config.specs.values())
    lines.append(
        f"{'config':<{width + 3}}  games  score  95% CI          Elo (95% CI)              place  "
        f"W/D/L       moves  time s  ms/move  knodes  depth"
    )
    estimates = _estimates(match)
    for letter, spec in config.specs.items():
        scores = [g.scores[letter] for g in games]
        mean = sum(scores) / n
        if estimates is None:
            interval, elo_text = "(no whole opening)", "-"
        else:
            score, elo = estimates
            low, high = (score.low, score.high) if letter == "A" else (1 - score.high, 1 - score.low)
            interval = f"[{low:5.3f}, {high:5.3f}]"
            elo_text = format_elo(elo if letter == "A" else Estimate(-elo.mean, -elo.high, -elo.low))
        place = sum(g.place_scores[letter] for g in games) / n
        wins = sum(1 for s in scores if s > 0.5)
        losses = sum(1 for s in scores if s < 0.5)
        moves = sum(g.moves[letter] for g in games)
        seconds = sum(g.seconds[letter] for g in games)
        nodes = sum(g.nodes[letter] for g in games)
        per_move = 1000.0 * seconds / moves if moves else 0.0
        knodes = f"{nodes / 1000:.0f}" if spec.kind in ("engine", "uci") else "-"
        wdl = f"{wins}/{n - wins - losses}/{losses}"
        depths = [d for g in games for d in g.depths.get(letter, ())]
        depth = f"{median(depths):g}" if depths else "-"
        lines.append(
            f"{letter}  {spec.text:<{width}}  {n:5d}  {mean:5.3f}  {interval:<14}  {elo_text:<24}  "
            f"{place:5.3f}  {wdl:<10}  {moves:5d}  {seconds:6.2f}  {per_move:7.2f}  {knodes:>6}  {depth:>5}"
        )
    lines.append("")
    lines.append(
        "score: head-to-head share per game (1 = every seat of the configuration ahead of every seat of the "
        "other); 95% CI and Elo over the openings' mean scores"
    )
    if match.sprt is not None:
        samples = opening_samples(games, config)
        decision = match.decision
        verdict = {"H1": "H1 accepted (A is stronger by elo1)", "H0": "H0 accepted (A is not stronger by elo1)"}
        lines.append(
            f"{match.sprt}: LLR {match.sprt.llr(samples):+.2f}, bounds ({match.sprt.lower_bound:+.2f}, "
            f"{match.sprt.upper_bound:+.2f}) after {len(samples)} openings: "
            f"{verdict.get(decision or '', 'undecided')}"
        )
    by_assignment = []
    for assignment in config.assignments:
        scores = [g.scores["A"] for g in games if g.assignment == assignment]
        if scores:
            by_assignment.append(f"{assignment} {sum(scores) / len(scores):.3f}")
    lines.append(f"A's score by seat assignment: {', '.join(by_assignment)}")
    terminations = Counter(g.termination for g in games)
    lines.append("terminations: " + ", ".join(f"{t} {c}" for t, c in terminations.most_common()))
    left = Counter(tuple(e) for g in games for e in g.eliminations)
    lines.append(
        "players out (config <- credited to, reason): "
        + (", ".join(f"{out} <- {by} {reason} {c}" for (out, by, reason), c in left.most_common()) or "none")
    )
    plies = [g.plies for g in games]
    lines.append(f"game length: mean {sum(plies) / n:.0f} plies, min {min(plies)}, max {max(plies)}")
    capped = terminations.get(PLY_CAP, 0) + terminations.get(Termination.MOVE_LIMIT.value, 0)
    how = (
        "end at the move limit (teams draw, free-for-all ranks by points)"
        if config.kind.variant in option("move_limit").variants
        else "count as a draw among the players still in"
    )
    lines.append(f"ply cap: {capped} of {n} games reached {config.max_plies} plies and {how}")
    incidents = [f"game {g.key}: {text}" for g in games for text in g.illegal]
    lines.append(f"illegal moves or player errors: {len(incidents)}")
    lines.extend(f"  {text}" for text in incidents)
    lines.append(f"wall time: {match.wall_seconds:.2f} s; {match.build}")
    return "\n".join(lines)
