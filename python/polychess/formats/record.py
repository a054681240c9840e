"""Game records: a PGN-like text for games of every variant (docs/game-records.md).

``write_record(game)`` gives the text and ``read_record(text)`` replays it into a
:class:`~polychess.Game`; reading what was written gives the identical game. A malformed
record raises :class:`RecordError`, which names the line and the problem.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from polychess.board import Board, Colour
from polychess.game import Game, Reason

__all__ = ["RecordError", "read_record", "write_record"]

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$')
_EVENT = re.compile(r"^(mate|capture|stalemate|resign|timeout)\(([a-z]+)(?:,([a-z]+))?\)$")
_MOVE_NUMBER = re.compile(r"^[0-9]+\.$")
_RESULT = re.compile(r"^(\*|[0-9-]+)$")
_KNOWN_OPTIONS = ("first_mate_wins", "neutrality", "players=2", "hourglass", "mode=teams", "mode=ffa",
                  "setup=modern", "setup=classic", "move_limit=N")
_OPTION = re.compile(r"^(first_mate_wins|neutrality|players=2|hourglass|mode=(?:teams|ffa)|setup=(?:modern|classic)"
                     r"|move_limit=[1-9][0-9]*)$")

_AUTOMATIC = {Reason.CHECKMATE: "mate", Reason.KING_CAPTURE: "capture", Reason.STALEMATE: "stalemate"}


class RecordError(ValueError):
    """A game record that cannot be read; the message names the line and the problem."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _result(game: Game) -> str:
    outcome = game.outcome()
    if outcome is None:
        return "*"
    return "-".join(str(outcome.places[p]) for p in game.seats)


def _options(game: Game) -> list[str]:
    options = []
    if game.first_mate_wins and game.players != 2:
        options.append("first_mate_wins")
    if game.neutrality:
        options.append("neutrality")
    if game.players == 2 and game.variant == "three-player":
        options.append("players=2")
    if game.clock is not None and game.clock.hourglass:
        options.append("hourglass")
    if game.mode is not None:
        options += [f"mode={game.mode}", f"setup={game.setup}"]
    if game.move_limit is not None:
        options.append(f"move_limit={game.move_limit}")
    return options


def write_record(game: Game, tags: Mapping[str, str] | None = None) -> str:
    """The record of a game, with optional extra tags (Event, Site, Date, player names...)."""
    lines = []
    all_tags: dict[str, str] = {"Variant": game.variant}
    all_tags.update(tags or {})
    options = _options(game)
    if options:
        all_tags["Options"] = " ".join(options)
    if game.clock is not None:
        all_tags["TimeControl"] = f"{_number(game.time_control)}+{_number(game.clock.increment)}"
    default_start = Board(game.variant, neutrality=game.neutrality, mode=game.mode, setup=game.setup).fen()
    if game.players != 2 and game.start_position != default_start:
        all_tags["StartPosition"] = game.start_position
    all_tags["Result"] = _result(game)
    outcome = game.outcome()
    if outcome is not None:
        all_tags["Termination"] = outcome.termination.value
    for name, value in all_tags.items():
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
            raise ValueError(f"bad tag name {name!r}")
        lines.append(f'[{name} "{_escape(str(value))}"]')
    lines.append("")
    lines.append(_movetext(game))
    return "\n".join(lines) + "\n"


def _number(value: float | None) -> str:
    assert value is not None
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _movetext(game: Game) -> str:
    """Move numbers, moves and events, wrapped at about 80 characters. The game is replayed
    alongside so that every move is numbered by the round it was played in."""
    automatic: dict[int, list[str]] = {}
    for e in game.eliminations:
        if e.reason in _AUTOMATIC:
            automatic.setdefault(e.ply, []).append(_event_token(e.reason, e.player, e.by))
    replay = _new_game(game.variant, _options(game), None, None, game.start_position)
    tokens: list[str] = list(automatic.get(0, []))
    last_number = 0
    for token in game.history:
        if token == "draw" or _EVENT.match(token):
            tokens.append(token)
            _apply(replay, token)
            continue
        if replay.fullmove_number != last_number:
            last_number = replay.fullmove_number
            tokens.append(f"{last_number}.")
        _apply(replay, token)
        tokens.append(token)
        tokens.extend(automatic.get(replay.ply, []))
    tokens.append(_result(game))
    lines, line = [], ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > 80:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return "\n".join(lines)


def _event_token(reason: Reason, player: Colour, by: Colour | None) -> str:
    return f"{_AUTOMATIC[reason]}({player.value}{',' + by.value if by is not None else ''})"


def _apply(game: Game, token: str) -> None:
    """Plays one movetext token that is a move or a non-automatic event."""
    event = _EVENT.match(token)
    if token == "draw":
        game.agree_draw()
    elif event and event.group(1) == "resign":
        game.resign(event.group(2))
    elif event and event.group(1) == "timeout":
        game.time_forfeit(event.group(2))
    else:
        game.push(token)


def _new_game(variant: str, options: list[str], time_control: float | None, increment: float | None,
              start: str | None) -> Game:
    two_players = "players=2" in options
    values = dict(option.split("=", 1) for option in options if "=" in option)
    return Game(
        variant,
        first_mate_wins="first_mate_wins" in options,
        neutrality="neutrality" in options,
        players=2 if two_players else None,
        time_control=time_control,
        increment=increment or 0.0,
        hourglass="hourglass" in options,
        start=None if two_players else start,
        mode=values.get("mode"),
        setup=values.get("setup"),
        move_limit=int(values["move_limit"]) if "move_limit" in values else None,
    )


def read_record(text: str) -> Game:
    """Replays a record into a Game. Raises :class:`RecordError` naming the line and problem."""
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    body: list[tuple[int, str]] = []
    in_body = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not in_body and line.startswith("["):
            match = _TAG.match(line)
            if not match:
                raise RecordError(number, f"malformed tag {line!r} (expected [Name \"value\"])")
            if match.group(1) in tags:
                raise RecordError(number, f"tag {match.group(1)} given twice")
            tags[match.group(1)] = _unescape(match.group(2))
            tag_lines[match.group(1)] = number
            continue
        if line:
            in_body = True
            body.append((number, line))

    game = _game_from_tags(tags, tag_lines)
    _replay(game, body)
    if "Result" in tags:
        expected, got = tags["Result"], _result(game)
        if expected != got:
            raise RecordError(tag_lines["Result"], f"Result tag says {expected} but the game gives {got}")
    outcome = game.outcome()
    if "Termination" in tags and (outcome is None or outcome.termination.value != tags["Termination"]):
        actual = "none (the game is not over)" if outcome is None else outcome.termination.value
        raise RecordError(tag_lines["Termination"], f"Termination tag says {tags['Termination']!r} but it is {actual}")
    return game


def _game_from_tags(tags: dict[str, str], lines: dict[str, int]) -> Game:
    variant = tags.get("Variant", "three-player")
    options = tags.get("Options", "").split()
    for option in options:
        if not _OPTION.match(option):
            raise RecordError(lines["Options"], f"unknown option {option!r} (known: {', '.join(_KNOWN_OPTIONS)})")
    time_control = increment = None
    if "TimeControl" in tags and tags["TimeControl"] not in ("", "-"):
        match = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)\+([0-9]+(?:\.[0-9]+)?)", tags["TimeControl"])
        if not match:
            raise RecordError(lines["TimeControl"], f"bad TimeControl {tags['TimeControl']!r} (expected seconds+increment)")
        time_control, increment = float(match.group(1)), float(match.group(2))
    if "hourglass" in options and time_control is None:
        raise RecordError(lines["Options"], "the hourglass option needs a TimeControl tag")
    try:
        return _new_game(variant, options, time_control, increment, tags.get("StartPosition"))
    except ValueError as error:
        line = lines.get("StartPosition", lines.get("Variant", lines.get("Options", 1)))
        raise RecordError(line, str(error)) from None


def _tokens(body: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Splits the movetext into tokens with their line numbers; {comments} are dropped."""
    tokens: list[tuple[int, str]] = []
    in_comment = False
    for number, line in body:
        for piece in re.split(r"(\{|\})", line):
            if piece == "{":
                if in_comment:
                    raise RecordError(number, "'{' inside a comment")
                in_comment = True
            elif piece == "}":
                if not in_comment:
                    raise RecordError(number, "'}' without '{'")
                in_comment = False
            elif not in_comment:
                tokens.extend((number, t) for t in piece.split())
    if in_comment:
        raise RecordError(body[-1][0], "comment not closed")
    return tokens


def _replay(game: Game, body: list[tuple[int, str]]) -> None:
    tokens = _tokens(body)
    # automatic events (mates, king captures, stalemates) the game produced, which the record
    # must list right after the move that caused them
    pending = [_event_token(e.reason, e.player, e.by) for e in game.eliminations if e.reason in _AUTOMATIC]
    last = tokens[-1][0] if tokens else 1
    for index, (number, token) in enumerate(tokens):
        if _MOVE_NUMBER.match(token):
            continue
        event = _EVENT.match(token)
        if event and event.group(1) in ("mate", "capture", "stalemate"):
            if not pending:
                raise RecordError(number, f"{token} does not happen here")
            if pending[0] != token:
                raise RecordError(number, f"the record says {token} but the game gives {pending[0]}")
            pending.pop(0)
            continue
        if pending:
            raise RecordError(number, f"{pending[0]} happens before {token!r} but the record does not say so")
        if index == len(tokens) - 1 and _RESULT.match(token):
            continue  # the result; checked against the Result tag
        if event and event.group(2) not in [c.value for c in game.seats]:
            raise RecordError(number, f"no player {event.group(2)!r} in this game")
        before = len(game.eliminations)
        try:
            _apply(game, token)
        except ValueError as error:
            raise RecordError(number, f"{token!r}: {error}") from None
        pending.extend(_event_token(e.reason, e.player, e.by) for e in game.eliminations[before:]
                       if e.reason in _AUTOMATIC)
    if pending:
        raise RecordError(last, f"the record ends before {pending[0]}")

