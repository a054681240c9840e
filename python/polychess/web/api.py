"""The JSON API, apart from HTTP: each function takes the store, the game id from the path
and the request's JSON object, and returns (status, JSON object). Every refusal is an
:class:`ApiError`; the HTTP layer (server.py) turns it into a status and {"error": ...}.

A game created with ``"invite": true`` is played by invitation: its creation answer carries
one link per human seat and one for spectators, and every later request about it must carry
one of its secrets (``token``). Only a seat's secret moves, resigns, offers or answers for
that seat; a spectator's only watches. A hot-seat game (no invitations) takes no token.

Each request works on the game's live session within ``store.using``, which keeps it in
memory meanwhile (store.py: one live copy per game)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from polychess.board import VARIANTS, Board, Colour
from polychess.formats.any_format import exports_of, read_game
from polychess.game import Game
from polychess.strength import LEVELS
from polychess.web.analysis import (
    DEFAULT_REVIEW_NODES,
    MAX_REVIEW_NODES,
    Cancellation,
    analyse,
    check_analysis,
    parse_analysis_request,
    position_of,
)
from polychess.web.analysis import review as review_moves
from polychess.web.errors import ApiError
from polychess.web.invitations import SPECTATOR, Invitations
from polychess.web.options import (
    MAX_ENGINE_NODES,
    MAX_ENGINE_TIME,
    SEAT_FIELDS,
    SeatOptions,
    parse_game_options,
    parse_seat_options,
)
from polychess.web.session import OFFER_KINDS, EnginePool, Session
from polychess.web.store import Store
from polychess.web.view import state

__all__ = [
    "meta",
    "new_game",
    "load_record",
    "get_game",
    "move",
    "engine",
    "analysis",
    "review",
    "set_seats",
    "resign",
    "record",
    "offer",
    "answer",
    "authorize",
]

Json = dict[str, object]
MAX_RECORD_CHARS = 500_000
_CELL_CHARS = 8  # longer than any cell name ("n14", "H12")


def meta() -> Json:
    """What the "new game" form offers: each variant's seats, the engine's limits and its
    strength levels (with their measured Elo, or null)."""
    variants: Json = {}
    for variant in VARIANTS:
        variants[variant] = {"colours": [c.value for c in Board(variant).colours]}
    levels = [{"level": level.number, "elo": level.elo} for level in LEVELS]
    return {
        "variants": variants,
        "max_engine_nodes": MAX_ENGINE_NODES,
        "max_engine_time": MAX_ENGINE_TIME,
        "levels": levels,
    }


def new_game(store: Store, data: Mapping[str, object], base_url: str = "/") -> tuple[int, Json]:
    """A new game; with ``"invite": true`` one played by invitation, whose answer lists the
    invitation links (``base_url`` followed by ``#game=<id>&token=<secret>``) for every human
    seat and for spectators. The links are shown this once: the server keeps only digests."""
    invite, open_analysis = _invite(data), _open_analysis(data)
    options = parse_game_options({k: v for k, v in data.items() if k not in ("invite", "analysis")})
    try:
        game = Game(options.variant, **options.game_kwargs)  # type: ignore[arg-type]
    except ValueError as error:
        raise ApiError(400, str(error)) from None
    return _start(
        store,
        game,
        options.seats,
        invite,
        base_url,
        lambda invitations: Session(game, options.seats, invitations=invitations),
        open_analysis,
    )


def _invite(data: Mapping[str, object]) -> bool:
    invite = data.get("invite", False)
    if not isinstance(invite, bool):
        raise ApiError(400, f"invite must be true or false, got {invite!r}"[:200])
    return invite


def _open_analysis(data: Mapping[str, object]) -> bool:
    """``"analysis": true``: a game by invitation whose players may all use the engine's analysis
    while it runs (the invitations say so); without it, analysis opens when the game ends."""
    value = data.get("analysis", False)
    if not isinstance(value, bool):
        raise ApiError(400, f"analysis must be true or false, got {value!r}"[:200])
    if value and not data.get("invite", False):
        raise ApiError(400, "analysis is an option of a game played by invitation (at one screen it is always open)")
    return value


def _start(
    store: Store,
    game: Game,
    seats: SeatOptions,
    invite: bool,
    base_url: str,
    make: Callable[[Invitations | None], Session],
    open_analysis: bool = False,
) -> tuple[int, Json]:
    """Stores a new session (by invitation: with a secret per human seat and spectators) and
    answers its state, with the invitation links."""
    tokens: dict[str, str] = {}
    invitations = None
    if invite:
        humans = [c.value for c in game.seats if c not in seats.engines]
        if not humans:
            raise ApiError(400, "invite: every seat is an engine's; nobody to invite")
        invitations, tokens = Invitations.create(humans, open_analysis)
    session = make(invitations)
    store.add(session)
    with store.using(session.id) as live:
        answer = state(live)
    if invite:
        answer["invitations"] = {role: f"{base_url}#game={session.id}&token={token}" for role, token in tokens.items()}
    return 201, answer


def load_record(store: Store, data: Mapping[str, object], base_url: str = "/") -> tuple[int, Json]:
    """A game from a record or a position in any format polychess reads (PGN, FEN, chess.com's
    PGN4 and FEN4, polychess's record and position strings), to go on with at one screen or,
    with ``"invite": true``, by invitation (as new_game)."""
    text = data.get("record")
    if not isinstance(text, str) or not text.strip():
        raise ApiError(400, "record must be the text of a game record")
    if len(text) > MAX_RECORD_CHARS:
        raise ApiError(413, f"the record is longer than {MAX_RECORD_CHARS} characters")
    invite, open_analysis = _invite(data), _open_analysis(data)
    seat_data = {k: v for k, v in data.items() if k not in ("record", "invite", "analysis")}
    try:
        game = read_game(text)
    except ValueError as error:
        raise ApiError(400, f"cannot read the record: {error}"[:2000]) from None
    seats = parse_seat_options(seat_data, game.colours)

    def make(invitations: Invitations | None) -> Session:
        try:
            return Session.from_game(game, seats, invitations)
        except ValueError as error:  # a game polychess reads but cannot write back
            raise ApiError(400, f"cannot replay the record: {error}") from None

    return _start(store, game, seats, invite, base_url, make, open_analysis)


def authorize(session: Session, token: str | None) -> str | None:
    """The role a request's secret gives in the game: a seat's colour name or "spectator";
    None in a hot-seat game, where nobody needs one. A missing or wrong secret is a 403."""
    if session.invitations is None:
        return None
    role = session.invitations.role_of(token)
    if role is None:
        raise ApiError(
            403,
            "this game is played by invitation: open it with your invitation link"
            if not token
            else "this secret is not one of this game's invitations",
        )
    return role


def _seat_of(session: Session, role: str | None, acting: str) -> Colour | None:
    """The seat a request acts for: its role's, which must be a seat (a spectator only
    watches); None in a hot-seat game."""
    if role is None:
        return None
    if role == SPECTATOR:
        raise ApiError(403, f"a spectator cannot {acting}")
    return Colour(role)


def get_game(store: Store, game_id: str, query: Mapping[str, str], token: str | None = None) -> tuple[int, Json]:
    with store.using(game_id) as session:
        role = authorize(session, token)
        return 200, state(session, _cell_param(query, "selected"), _orientation(query, role), role)


def move(
    store: Store, game_id: str, data: Mapping[str, object], query: Mapping[str, str], token: str | None = None
) -> tuple[int, Json]:
    """A human's move: {"move": "E2E4"} or {"from": "E2", "to": "E4", "promotion": "Q"}."""
    with store.using(game_id) as session:
        role = authorize(session, token)
        seat = _seat_of(session, role, "move")
        _refuse_unknown(data, ("move", "from", "to", "promotion"))
        text, origin, target, promotion = (_short_string(data, key) for key in ("move", "from", "to", "promotion"))
        if text is None and (origin is None or target is None):
            raise ApiError(400, "give either move (move text) or from and to (cell names)")
        session.play(text, origin, target, promotion, seat)
        return 200, state(session, orientation=_orientation(query, role), viewer=role)


def engine(
    store: Store,
    engines: EnginePool,
    game_id: str,
    data: Mapping[str, object],
    query: Mapping[str, str],
    token: str | None = None,
) -> tuple[int, Json]:
    """An engine from the server's pool plays the seat to move (any seat's page may ask)."""
    with store.using(game_id) as session:
        role = authorize(session, token)
        _seat_of(session, role, "start the engine")
        _refuse_unknown(data, ())
        session.play_engine(engines)
        return 200, state(session, orientation=_orientation(query, role), viewer=role)


def analysis(
    store: Store,
    engines: EnginePool,
    game_id: str,
    data: Mapping[str, object],
    query: Mapping[str, str],
    token: str | None = None,
    client: str = "",
    cancel: Cancellation | None = None,
) -> tuple[int, Json]:
    """The engine's best lines for a position of the game: {"ply": N (after N moves; default
    the position now), "line": [moves tried from there], "lines": 1-5, "time": seconds}. While
    the game runs, only where nobody is helped against a human opponent (check_analysis)."""
    ply, side_line, lines, seconds = parse_analysis_request(data)
    with store.using(game_id) as session:
        role = authorize(session, token)
        check_analysis(session, role)
        game, line_moves = position_of(session, ply, side_line)
        answer = analyse(engines, session, game, lines, seconds, _orientation(query, role), client, cancel)
        return 200, {"ply": ply, "line": side_line, "line_moves": line_moves, **answer}


def review(
    store: Store,
    engines: EnginePool,
    game_id: str,
    data: Mapping[str, object],
    token: str | None = None,
    client: str = "",
    cancel: Cancellation | None = None,
) -> tuple[int, Json]:
    """Every move of the game judged, each search to {"nodes": N} nodes (default 3000): the
    evaluation graph's data and picture."""
    _refuse_unknown(data, ("nodes",))
    nodes = data.get("nodes", DEFAULT_REVIEW_NODES)
    if isinstance(nodes, bool) or not isinstance(nodes, int) or not 1 <= nodes <= MAX_REVIEW_NODES:
        raise ApiError(400, f"nodes must be a whole number from 1 to {MAX_REVIEW_NODES}")
    with store.using(game_id) as session:
        check_analysis(session, authorize(session, token))
        return 200, review_moves(engines, session, nodes, client, cancel)


def set_seats(
    store: Store, game_id: str, data: Mapping[str, object], query: Mapping[str, str], token: str | None = None
) -> tuple[int, Json]:
    """Changes who plays which seat: {"engines": ["red"], "engine_nodes": ..., "engine_time": ...,
    "engine_level": ...}; a field left out keeps its value. Not in a game played by invitation,
    whose seats are its players'."""
    with store.using(game_id) as session:
        if authorize(session, token) is not None:
            raise ApiError(403, "the seats of a game played by invitation are fixed")
        _refuse_unknown(data, SEAT_FIELDS)
        with session.lock:
            current = session.seats
            merged: dict[str, object] = {
                "engines": sorted(c.value for c in current.engines),
                "engine_nodes": current.engine_nodes,
                "engine_time": current.engine_time,
                "engine_level": current.engine_level,
            }
            merged.update(data)
            session.seats = parse_seat_options(merged, session.game.seats)
            session.touch()
        return 200, state(session, orientation=_cell_param(query, "orientation"))


def resign(
    store: Store, game_id: str, data: Mapping[str, object], query: Mapping[str, str], token: str | None = None
) -> tuple[int, Json]:
    """{"player": "red"} resigns (a human seat); without it, the player to move (in a game
    played by invitation: the seat of the request's secret, which may resign only itself)."""
    with store.using(game_id) as session:
        role = authorize(session, token)
        seat = _seat_of(session, role, "resign")
        _refuse_unknown(data, ("player",))
        name = _short_string(data, "player")
        if name is None:
            player = seat or session.game.turn
        elif name in [c.value for c in session.game.colours]:
            player = Colour(name)
        else:
            raise ApiError(400, f"player: no seat {name!r} in this game")
        if seat is not None and player != seat:
            raise ApiError(403, f"{seat}'s invitation cannot resign for {player}")
        session.resign(player)
        return 200, state(session, orientation=_orientation(query, role), viewer=role)


def offer(
    store: Store, game_id: str, data: Mapping[str, object], query: Mapping[str, str], token: str | None = None
) -> tuple[int, Json]:
    """{"kind": "draw"} offers a draw, {"kind": "takeback"} asks to take back one's last move
    (and every move after it); every other human still in the game must accept."""
    with store.using(game_id) as session:
        role = authorize(session, token)
        seat = _seat_of(session, role, "make offers")
        _refuse_unknown(data, ("kind",))
        kind = data.get("kind")
        if kind not in OFFER_KINDS:
            raise ApiError(400, f"kind must be one of {', '.join(OFFER_KINDS)}, got {kind!r}"[:200])
        if seat is None:
            raise ApiError(409, "offers are for games played by invitation; at one screen, just agree")
        session.make_offer(str(kind), seat)
        return 200, state(session, orientation=_orientation(query, role), viewer=role)


def answer(
    store: Store, game_id: str, data: Mapping[str, object], query: Mapping[str, str], token: str | None = None
) -> tuple[int, Json]:
    """{"accept": true} or {"accept": false}: the answer of the request's seat to the offer."""
    with store.using(game_id) as session:
        role = authorize(session, token)
        seat = _seat_of(session, role, "answer offers")
        _refuse_unknown(data, ("accept",))
        accept = data.get("accept")
        if not isinstance(accept, bool):
            raise ApiError(400, f"accept must be true or false, got {accept!r}"[:200])
        if seat is None:
            raise ApiError(409, "offers are for games played by invitation")
        session.answer_offer(seat, accept)
        return 200, state(session, orientation=_orientation(query, role), viewer=role)


def record(
    store: Store, game_id: str, token: str | None = None, query: Mapping[str, str] | None = None
) -> tuple[str, str]:
    """The game written as the query's ``format`` (polychess.formats.any_format.EXPORTS; by
    default the first that applies: the game's own record format) and a file name for it.
    With ``ply`` (and ``line``, moves separated by commas), the game up to that many moves and
    then the line: a line of the analysis."""
    query = query or {}
    ply, side_line = _line_query(query)
    with store.using(game_id) as session:
        authorize(session, token)
        applies = exports_of(session.game)
        name = query.get("format", applies[0])
        if name not in applies:
            raise ApiError(400, f"format must be one of {', '.join(applies)} for this game"[:200])
        if ply is None and not side_line:
            text, suffix = session.record(name)
            return text, f"polychess-{session.game.variant}-{session.id}{suffix}"
        line_game, _ = position_of(session, ply, side_line)
        text, suffix = session.record(name, line_game)
        return text, f"polychess-{session.game.variant}-{session.id}-line{suffix}"


def _line_query(query: Mapping[str, str]) -> tuple[int | None, list[str]]:
    """The ``ply`` and ``line`` of a record request, checked as an analysis request's are."""
    data: dict[str, object] = {}
    if "ply" in query:
        if not query["ply"].isdigit() or len(query["ply"]) > 6:
            raise ApiError(400, f"ply must be a whole number, got {query['ply'][:20]!r}")
        data["ply"] = int(query["ply"])
    if query.get("line"):
        data["line"] = query["line"].split(",")
    ply, side_line, _, _ = parse_analysis_request(data)
    return ply, side_line


def _orientation(query: Mapping[str, str], role: str | None) -> str | None:
    """The seat at the bottom of the board: as asked, else the seat of the request's secret."""
    asked = _cell_param(query, "orientation")
    return asked or (role if role not in (None, SPECTATOR) else None)


def _refuse_unknown(data: Mapping[str, object], known: tuple[str, ...]) -> None:
    for key in data:
        if key not in known:
            raise ApiError(400, f"unknown field {key!r} (known: {', '.join(known) or 'none'})"[:300])


def _short_string(data: Mapping[str, object], key: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= 16:
        raise ApiError(400, f"{key} must be a short string, got {value!r}"[:200])
    return value


def _cell_param(query: Mapping[str, str], key: str) -> str | None:
    value = query.get(key)
    if value is None or value == "":
        return None
    if len(value) > _CELL_CHARS or not value.isalnum():
        raise ApiError(400, f"{key} must be a cell or colour name, got {value[:20]!r}")
    return value
