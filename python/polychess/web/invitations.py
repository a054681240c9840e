"""Invitations to a game played by several people, each in their own browser: one secret per
human seat and one for spectators, carried by the links the host hands out.

Only the secrets' digests are kept (and stored), so a copy of the database or of the memory
moves nobody's pieces. A secret is 32 random bytes (``secrets.token_urlsafe``); a request's
secret is compared with every digest in constant time, so the answer's timing tells nothing
about which seat, if any, it nearly matched.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = ["SPECTATOR", "Invitations"]

SPECTATOR = "spectator"
TOKEN_BYTES = 32
# Longer than any token we hand out; a longer one is refused before it is hashed.
MAX_TOKEN_CHARS = 100


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Invitations:
    """The digests of a game's secrets, by role: a seat's colour name, or ``"spectator"``."""

    digests: Mapping[str, str]
    # Whether the players agreed, by taking up invitations that said so, that each may use the
    # engine's analysis during the game (as lichess's casual games allow); otherwise it opens
    # when the game ends.
    open_analysis: bool = False

    @classmethod
    def create(cls, seats: Iterable[str], open_analysis: bool = False) -> tuple[Invitations, dict[str, str]]:
        """New secrets for the human ``seats`` and the spectators: the invitations (digests only)
        and the secrets themselves, to be handed out once."""
        tokens = {role: secrets.token_urlsafe(TOKEN_BYTES) for role in [*seats, SPECTATOR]}
        return cls({role: _digest(token) for role, token in tokens.items()}, open_analysis), tokens

    def role_of(self, token: str | None) -> str | None:
        """The role whose secret ``token`` is, or None for a missing, forged or foreign one."""
        if not token or len(token) > MAX_TOKEN_CHARS:
            return None
        given = _digest(token)
        found = None
        for role, digest in self.digests.items():  # every digest compared, whatever matches
            if hmac.compare_digest(given, digest):
                found = role
        return found

    @property
    def seats(self) -> list[str]:
        """The human seats invited."""
        return [role for role in self.digests if role != SPECTATOR]
