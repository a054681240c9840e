"""What the page shows of a session, as JSON: the board drawn by :mod:`polychess.svg`, the
seats with their clocks, points and places, the move list, the message log, and the legal
moves of a human to move (so that the page can tell a target from a miss without asking)."""

from __future__ import annotations

from typing import Literal

from polychess.board import Board, Colour, Status
from polychess.formats.any_format import export_label, exports_of
from polychess.game import Elimination, Game, Outcome, Reason
from polychess.web.fairplay import analysis_refusal
from polychess.web.session import Session

__all__ = ["state", "render_board", "legal_moves_json", "orientation_of", "BOARD_SIZE"]

BOARD_SIZE = 640
_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


def state(
    session: Session, selected: str | None = None, orientation: str | None = None, viewer: str | None = None
) -> dict[str, object]:
    """The whole page state; ``selected`` (a cell) adds dots on its piece's targets. In a game
    played by invitation ``viewer`` is the role of the page's secret (a seat, or "spectator"):
    only the page of the seat to move gets its legal moves."""
    with session.lock:
        session.check_clock()
        game = session.game
        board = game.board
        human = session.human_to_move()
        mine = human and (session.invitations is None or viewer == game.turn.value)
        legal = legal_moves_json(board) if mine else {}
        if selected is not None and selected not in legal:
            selected = None
        return {
            "id": session.id,
            "version": session.version,
            "invited": session.invitations is not None,
            "viewer": viewer,
            # what the players agreed on (shown to all), and why this page may not analyse now
            "open_analysis": session.invitations is not None and session.invitations.open_analysis,
            "analysis_refused": analysis_refusal(session, viewer),
            "offer": _offer(session),
            "variant": game.variant,
            "mode": game.mode,
            "setup": game.setup,
            "options": _options(game),
            "turn": None if game.is_over() else game.turn.value,
            "engine_to_move": session.engine_to_move(),
            "human_to_move": human,
            "check": board.is_check() and not game.is_over(),
            "seats": [_seat(session, board, player) for player in game.seats],
            "clock": _clock(game),
            "moves": [
                {"number": e.number, "player": e.player and e.player.value, "text": e.text, "notation": e.notation}
                for e in session.entries
            ],
            "log": _log(game),
            # what Save record offers: the game's own format first (PGN, PGN4), then the others
            "exports": [{"name": name, "label": export_label(game, name)} for name in exports_of(game)],
            "legal": legal,
            "selected": selected,
            "outcome": _outcome(game.outcome()),
            "svg": render_board(session, board, selected, legal.get(selected or "", []), orientation),
        }


def render_board(
    session: Session, board: Board, selected: str | None, targets: list[dict[str, str | None]], orientation: str | None
) -> str:
    from polychess import svg  # imported here: the page works out its own layout first

    game = session.game
    check: Literal[False] | None = False if game.is_over() else None  # None: the king to move, if in check
    lastmove = board.move_stack[-1] if board.move_stack else None
    dots = sorted({str(t["to"]) for t in targets}) if selected else None
    return svg.board(
        board,
        size=BOARD_SIZE,
        orientation=orientation_of(session, orientation),
        lastmove=lastmove,
        check=check,
        dots=dots,
    )


def orientation_of(session: Session, requested: str | None) -> Colour:
    """The seat at the bottom: as asked, else the human to move (hot-seat turns the board to
    each player), else the first human seat, else the first seat."""
    game = session.game
    if requested in [c.value for c in game.seats]:
        return Colour(requested)
    if session.human_to_move():
        return game.turn
    humans = [c for c in game.seats if not session.is_engine(c)]
    return humans[0] if humans else game.seats[0]


def legal_moves_json(board: Board) -> dict[str, list[dict[str, str | None]]]:
    moves: dict[str, list[dict[str, str | None]]] = {}
    for move in board.legal_moves:
        moves.setdefault(move.from_cell, []).append(
            {"to": move.to_cell, "promotion": move.promotion, "move": str(move)}
        )
    return moves


def _offer(session: Session) -> dict[str, object] | None:
    offer = session.offer
    if offer is None:
        return None
    return {"kind": offer.kind, "by": offer.by.value, "waiting_for": sorted(c.value for c in offer.waiting_for)}


def _options(game: Game) -> dict[str, object]:
    clock = game.clock
    return {
        "neutrality": game.neutrality,
        "first_mate_wins": game.first_mate_wins,
        "players": game.players,
        "time_control": game.time_control,
        "increment": None if clock is None else clock.increment,
        "hourglass": clock is not None and clock.hourglass,
        "move_limit": game.move_limit,
    }


def _seat(session: Session, board: Board, player: Colour) -> dict[str, object]:
    game = session.game
    outcome = game.outcome()
    status = board.status(player)
    return {
        "colour": player.value,
        "engine": session.is_engine(player),
        "status": {Status.ACTIVE: "active", Status.FROZEN: "frozen", Status.OUT: "out"}.get(status, "out"),
        # the armies this player moves: his own, and any passed to him by a mate
        "controls": [c.value for c in board.colours if board.controller(c) == player],
        "points": game.points.get(player) if game.rules.ranking == "points" else None,
        "place": None if outcome is None else outcome.places.get(player),
    }


def _clock(game: Game) -> dict[str, object] | None:
    clock = game.clock
    if clock is None:
        return None
    running = None if game.is_over() else game.turn
    remaining = {p.value: max(0.0, clock.remaining_now(p) if p == running else clock.remaining[p]) for p in game.seats}
    return {"running": running and running.value, "remaining": remaining}


def _log(game: Game) -> list[dict[str, object]]:
    """The eliminations, transfers and the end, in the order they happened."""
    entries: list[dict[str, object]] = [{"ply": e.ply, "text": _elimination_text(game, e)} for e in game.eliminations]
    outcome = game.outcome()
    if outcome is not None:
        entries.append({"ply": game.ply, "text": _outcome_text(outcome)})
    return entries


def _name(player: Colour) -> str:
    return player.value.capitalize()


def _elimination_text(game: Game, e: Elimination) -> str:
    """What happened, in the words of the game's rules (polychess.rules): where the army goes,
    what a stalemate does, the points."""
    rules = game.rules
    who, by = _name(e.player), e.by and _name(e.by)
    dead = rules.army == "dead"
    if e.reason is Reason.STALEMATE:
        if rules.stalemate == "out":
            return (
                f"{who} is stalemated and out{_points(rules.points.stalemate, who)}; the pieces stay "
                f"{'as dead pieces' if dead else 'on the board, inert'}."
            )
        if rules.stalemate == "freeze" and len(game.seats) > 2:
            return f"{who} is stalemated and frozen: no moves until the game ends."
        return f"{who} is stalemated."
    if e.reason in (Reason.RESIGNATION, Reason.TIME_FORFEIT):
        how = "resigns" if e.reason is Reason.RESIGNATION else "loses on time"
        return f"{who} {how}; the pieces stay on the board, {'dead' if dead else 'inert'}."
    how = "is checkmated by" if e.reason is Reason.CHECKMATE else "loses the king to"
    text = f"{who} {how} {by}" if by else f"{who} {how.removesuffix(' by').removesuffix(' to')}"
    if dead:
        return f"{text}{_points(rules.points.mate, by) if by else ''}; the pieces stay as dead pieces."
    if by and not rules.first_out_decides:  # a mated army passes to the mater (docs/rules.md §1.8)
        return f"{text}; {who}'s army passes to {by}."
    return f"{text}."


def _points(points: int, to: str) -> str:
    return f" (+{points} points to {to})" if points else ""


def _outcome(outcome: Outcome | None) -> dict[str, object] | None:
    if outcome is None:
        return None
    return {
        "termination": outcome.termination.value,
        "places": {p.value: place for p, place in outcome.places.items()},
        "points": None if outcome.points is None else {p.value: n for p, n in outcome.points.items()},
        "text": _outcome_text(outcome),
    }


def _outcome_text(outcome: Outcome) -> str:
    by_place: dict[int, list[str]] = {}
    for player, place in outcome.places.items():
        by_place.setdefault(place, []).append(_name(player))
    if len(by_place) == 1:
        return f"Game over ({outcome.termination.value}): a draw."
    ranking = ", ".join(
        f"{_ORDINALS.get(place, str(place))} {' & '.join(names)}" for place, names in sorted(by_place.items())
    )
    return f"Game over ({outcome.termination.value}): {ranking}."
