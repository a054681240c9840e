"""Fair play: who may see the engine's analysis of a game while it runs. As on lichess, nobody
gets the engine's help against a human opponent: the analysis and the review of a game in
progress are open at one screen, to a seat whose opponents are all engines, and to everyone
where the players agreed when the game was made; to the others, and to spectators, once the
game has ended."""

from __future__ import annotations

from polychess.web.errors import ApiError
from polychess.web.invitations import SPECTATOR
from polychess.web.session import Session

__all__ = ["analysis_refusal", "check_analysis"]


def analysis_refusal(session: Session, role: str | None) -> str | None:
    """Why the request's role may not see the engine's analysis of the game now, or None."""
    invitations = session.invitations
    with session.lock:
        over = session.game.is_over()
        sides = session.game.board.kind.sides
    if over or invitations is None:
        return None
    if role == SPECTATOR or role is None:
        return "spectators see the engine's analysis once the game has ended"
    if invitations.open_analysis:
        return None
    own_side = next(side for side in sides if any(colour.value == role for colour in side))
    if any(all(colour.value != seat for colour in own_side) for seat in invitations.seats):
        return (
            "the engine's analysis of a game in progress against human opponents opens when it ends "
            "(unless every player agreed to it when the game was made: the analysis option)"
        )
    return None


def check_analysis(session: Session, role: str | None) -> None:
    """Refuses (403) what :func:`analysis_refusal` refuses."""
    refusal = analysis_refusal(session, role)
    if refusal is not None:
        raise ApiError(403, refusal)
