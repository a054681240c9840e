"""The JSON API, apart from HTTP: each function takes the store, the game id from the path
and the request's JSON object, and returns (status, JSON object). Every refusal is an
:class:`ApiError`; the HTTP layer (server.py) turns it into a status and {"error": ...}."""

from __future__ import annotations

from collections.abc import Mapping

from polychess.board import VARIANTS, Board, Colour
from polychess.formats.pgn4 import read_pgn4
from polychess.formats.record import read_record
from polychess.game import Game
from polychess.strength import LEVELS
from polychess.web.errors import ApiError
from polychess.web.options import MAX_ENGINE_NODES, MAX_ENGINE_TIME, SEAT_FIELDS, parse_game_options, parse_seat_options
from polychess.web.session import EnginePool, Session
from polychess.web.store import Store
from polychess.web.view import state

__all__ = ["meta", "new_game", "load_record", "get_game", "move", "engine", "set_seats", "resign", "record"]

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
    return {"variants": variants, "max_engine_nodes": MAX_ENGINE_NODES, "max_engine_time": MAX_ENGINE_TIME,
            "levels": levels}


def new_game(store: Store, data: Mapping[str, object]) -> tuple[int, Json]:
    options = parse_game_options(data)
    try:
        game = Game(options.variant, **options.game_kwargs)  # type: ignore[arg-type]
    except ValueError as error:
        raise ApiError(400, str(error)) from None
    session = Session(game, options.seats)
    store.add(session)
    return 201, state(session)


def load_record(store: Store, data: Mapping[str, object]) -> tuple[int, Json]:
    """A game from a record (polychess's own format, or chess.com's PGN4 for four-player)."""
    text = data.get("record")
    if not isinstance(text, str) or not text.strip():
        raise ApiError(400, "record must be the text of a game record")
    if len(text) > MAX_RECORD_CHARS:
        raise ApiError(413, f"the record is longer than {MAX_RECORD_CHARS} characters")
    seat_data = {k: v for k, v in data.items() if k != "record"}
    game = _read_any_record(text)
    seats = parse_seat_options(seat_data, game.colours)
    try:
        session = Session.from_game(game, seats)
    except ValueError as error:  # a game polychess reads but cannot write back
        raise ApiError(400, f"cannot replay the record: {error}") from None
    store.add(session)
    return 201, state(session)


def _read_any_record(text: str) -> Game:
    try:
        return read_record(text)
    except ValueError as error:
        first_error = error
    if "StartFen4" in text or "[Variant \"FFA\"]" in text or "[Variant \"Teams\"]" in text:
        try:
            return read_pgn4(text)
        except ValueError as error:
            raise ApiError(400, f"cannot read the PGN4 record: {error}") from None
    raise ApiError(400, f"cannot read the record: {first_error}")


def get_game(store: Store, game_id: str, query: Mapping[str, str]) -> tuple[int, Json]:
    session = store.get(game_id)
    return 200, state(session, _cell_param(query, "selected"), _cell_param(query, "orientation"))


def move(store: Store, game_id: str, data: Mapping[str, object], query: Mapping[str, str]) -> tuple[int, Json]:
    """A human's move: {"move": "E2E4"} or {"from": "E2", "to": "E4", "promotion": "Q"}."""
    session = store.get(game_id)
    _refuse_unknown(data, ("move", "from", "to", "promotion"))
    text, origin, target, promotion = (_short_string(data, key) for key in ("move", "from", "to", "promotion"))
    if text is None and (origin is None or target is None):
        raise ApiError(400, "give either move (move text) or from and to (cell names)")
    session.play(text, origin, target, promotion)
    return 200, state(session, orientation=_cell_param(query, "orientation"))


def engine(store: Store, engines: EnginePool, game_id: str, data: Mapping[str, object],
           query: Mapping[str, str]) -> tuple[int, Json]:
    """An engine from the server's pool plays the seat to move."""
    session = store.get(game_id)
    _refuse_unknown(data, ())
    session.play_engine(engines)
    return 200, state(session, orientation=_cell_param(query, "orientation"))


def set_seats(store: Store, game_id: str, data: Mapping[str, object], query: Mapping[str, str]) -> tuple[int, Json]:
    """Changes who plays which seat: {"engines": ["red"], "engine_nodes": ..., "engine_time": ...,
    "engine_level": ...}; a field left out keeps its value."""
    session = store.get(game_id)
    _refuse_unknown(data, SEAT_FIELDS)
    with session.lock:
        current = session.seats
        merged: dict[str, object] = {"engines": sorted(c.value for c in current.engines),
                                     "engine_nodes": current.engine_nodes, "engine_time": current.engine_time,
                                     "engine_level": current.engine_level}
        merged.update(data)
        session.seats = parse_seat_options(merged, session.game.seats)
    return 200, state(session, orientation=_cell_param(query, "orientation"))


def resign(store: Store, game_id: str, data: Mapping[str, object], query: Mapping[str, str]) -> tuple[int, Json]:
    """{"player": "red"} resigns (a human seat); without it, the player to move."""
    session = store.get(game_id)
    _refuse_unknown(data, ("player",))
    name = _short_string(data, "player")
    if name is None:
        player = session.game.turn
    elif name in [c.value for c in session.game.colours]:
        player = Colour(name)
    else:
        raise ApiError(400, f"player: no seat {name!r} in this game")
    session.resign(player)
    return 200, state(session, orientation=_cell_param(query, "orientation"))


def record(store: Store, game_id: str) -> tuple[str, str]:
    """The game record and a file name for it."""
    session = store.get(game_id)
    return session.record(), f"polychess-{session.game.variant}-{session.id}.txt"


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
