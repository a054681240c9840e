"""Game records: a PGN-like text for games of every variant (docs/game-records.md).

``write_record(game)`` gives the text and ``read_record(text)`` replays it into a
:class:`~polychess.Game`; reading what was written gives the identical game. A malformed
record raises :class:`RecordError`, which names the line and the problem.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from polychess.board import Colour
from polychess.errors import IllegalMoveError, InvalidMoveError
from polychess.game import Game, Reason
from polychess.options import OPTIONS, Option, OptionError, option

__all__ = ["RecordError", "read_record", "write_record"]

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$')
_EVENT = re.compile(r"^(mate|capture|stalemate|resign|timeout)\(([a-z]+)(?:,([a-z]+))?\)$")
_MOVE_NUMBER = re.compile(r"^[0-9]+\.$")
_RESULT = re.compile(r"^(\*|[0-9-]+)$")
# The options a record gives in tags of their own; every other option of the game is a word of
# the Options tag: its name for a flag, name=value for the others (polychess.options declares them).
_TAG_OF_OPTION = {"variant": "Variant", "start": "StartPosition", "time_control": "TimeControl",
                  "increment": "TimeControl"}
_CLOCK_OPTIONS = ("time_control", "increment", "hourglass")

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
    """The words of the Options tag: every option the game was given that has no tag of its own."""
    words = []
    for name, value in game.options.arguments().items():
        if name not in _TAG_OF_OPTION:
            spec = option(name)
            words.append(name if spec.kind == "flag" else f"{name}={spec.to_text(value)}")
    return words


def _option_word_forms() -> list[str]:
    """How each option is written in the Options tag, for the message about an unknown one."""
    forms = []
    for spec in OPTIONS:
        if spec.name in _TAG_OF_OPTION:
            continue
        if spec.kind == "flag":
            forms.append(spec.name)
        elif spec.kind == "choice":
            forms.append(f"{spec.name}={'|'.join(map(str, spec.choices))}")
        else:
            forms.append(f"{spec.name}={'N' if spec.kind == 'whole number' else spec.kind.upper()}")
    return forms


def write_record(game: Game, tags: Mapping[str, str] | None = None) -> str:
    """The record of a game, with optional extra tags (Event, Site, Date, player names...)."""
    lines = []
    all_tags: dict[str, str] = {"Variant": game.variant}
    all_tags.update(tags or {})
    options = _options(game)
    if options:
        all_tags["Options"] = " ".join(options)
    if game.options.time_control is not None:
        all_tags["TimeControl"] = "+".join(option(name).to_text(getattr(game.options, name))
                                           for name in ("time_control", "increment"))
    if game.options.start is not None:
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


def _movetext(game: Game) -> str:
    """Move numbers, moves and events, wrapped at about 80 characters. The game is replayed
    alongside so that every move is numbered by the round it was played in."""
    automatic: dict[int, list[str]] = {}
    for e in game.eliminations:
        if e.reason in _AUTOMATIC:
            automatic.setdefault(e.ply, []).append(_event_token(e.reason, e.player, e.by))
    # the replay has no clock: the game's own clock readings decided its time forfeits
    arguments = {name: value for name, value in game.options.arguments().items() if name not in _CLOCK_OPTIONS}
    replay = Game(game.variant, **arguments)  # type: ignore[arg-type]
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
    values: dict[str, object] = {"variant": tags.get("Variant"), "start": tags.get("StartPosition")}
    options_line = lines.get("Options", 1)
    for word in tags.get("Options", "").split():
        name, has_value, text = word.partition("=")
        spec = _option_of_word(name)
        if spec is None:
            raise RecordError(options_line, f"unknown option {word!r} (known: {', '.join(_option_word_forms())})")
        if name in values:
            raise RecordError(options_line, f"option {name} given twice")
        if not has_value and spec.kind != "flag":
            raise RecordError(options_line, f"option {name} needs a value ({name}=...)")
        try:
            values[name] = spec.from_text(text) if has_value else True
        except OptionError as error:
            raise RecordError(options_line, error.spelled(_TAG_OF_OPTION)) from None
    if tags.get("TimeControl", "") not in ("", "-"):
        seconds, _, increment = tags["TimeControl"].partition("+")
        try:
            values["time_control"] = option("time_control").from_text(seconds)
            values["increment"] = option("increment").from_text(increment)
        except OptionError:
            raise RecordError(lines["TimeControl"], f"bad TimeControl {tags['TimeControl']!r} "
                                                    "(expected seconds+increment, e.g. 300+5)") from None
    try:
        return Game(**values)  # type: ignore[arg-type]
    except OptionError as error:
        tag = _TAG_OF_OPTION.get(error.option, "Options")
        raise RecordError(lines.get(tag, 1), error.spelled(_TAG_OF_OPTION)) from None
    except ValueError as error:  # the start position, read by the board
        line = lines.get("StartPosition", lines.get("Variant", lines.get("Options", 1)))
        raise RecordError(line, str(error)) from None


def _option_of_word(name: str) -> Option | None:
    """The option a word of the Options tag names (None if it names none, or one with a tag)."""
    if name in _TAG_OF_OPTION:
        return None
    try:
        return option(name)
    except OptionError:
        return None


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
        except (InvalidMoveError, IllegalMoveError) as error:  # these quote the move themselves
            raise RecordError(number, str(error)) from None
        except ValueError as error:
            raise RecordError(number, f"{token!r}: {error}") from None
        pending.extend(_event_token(e.reason, e.player, e.by) for e in game.eliminations[before:]
                       if e.reason in _AUTOMATIC)
    if pending:
        raise RecordError(last, f"the record ends before {pending[0]}")

