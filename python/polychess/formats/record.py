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
from polychess.formats.tags import TagPairError, Token, read_tag_pair_text, wrap, write_tag_pair_text
from polychess.game import Game, Reason
from polychess.options import CLOCK_OPTIONS, OPTIONS, Option, OptionError, option

__all__ = ["RecordError", "read_record", "write_record"]

_EVENT = re.compile(r"^(mate|capture|stalemate|resign|timeout)\(([a-z]+)(?:,([a-z]+))?\)$")
_RESULT = re.compile(r"\*|[0-9]+(?:-[0-9]+)+")  # a place per seat
# The options a record gives in tags of their own; every other option of the game is a word of
# the Options tag: its name for a flag, name=value for the others (polychess.options declares them).
_TAG_OF_OPTION = {
    "variant": "Variant",
    "start": "StartPosition",
    "time_control": "TimeControl",
    "increment": "TimeControl",
}

_AUTOMATIC = {Reason.CHECKMATE: "mate", Reason.KING_CAPTURE: "capture", Reason.STALEMATE: "stalemate"}


class RecordError(TagPairError):
    """A game record that cannot be read; the message names the line and the problem."""


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
    all_tags: dict[str, str] = {"Variant": game.variant}
    all_tags.update(tags or {})
    options = _options(game)
    if options:
        all_tags["Options"] = " ".join(options)
    if game.options.time_control is not None:
        all_tags["TimeControl"] = "+".join(
            option(name).to_text(getattr(game.options, name)) for name in ("time_control", "increment")
        )
    if game.options.start is not None:
        all_tags["StartPosition"] = game.start_fen
    all_tags["Result"] = _result(game)
    outcome = game.outcome()
    if outcome is not None:
        all_tags["Termination"] = outcome.termination.value
    return write_tag_pair_text(all_tags, _movetext(game))


def _movetext(game: Game) -> list[str]:
    """Move numbers, moves and events, wrapped at about 80 characters. The game is replayed
    alongside so that every move is numbered by the round it was played in."""
    automatic: dict[int, list[str]] = {}
    for e in game.eliminations:
        if e.reason in _AUTOMATIC:
            automatic.setdefault(e.ply, []).append(_event_token(e.reason, e.player, e.by))
    # the replay has no clock: the game's own clock readings decided its time forfeits
    arguments = {name: value for name, value in game.options.arguments().items() if name not in CLOCK_OPTIONS}
    replay = Game(game.variant, **arguments)  # type: ignore[arg-type]
    tokens: list[str] = list(automatic.get(0, []))
    last_number = 0
    for step in game.steps:
        if step.move is not None and replay.fullmove_number != last_number:
            last_number = replay.fullmove_number
            tokens.append(f"{last_number}.")
        _apply(replay, step.token)
        tokens.append(step.token)
        if step.move is not None:
            tokens.extend(automatic.get(replay.ply, []))
    tokens.append(_result(game))
    return wrap(tokens)


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
    # A record has no variations: its events are written with parentheses.
    read = read_tag_pair_text(text, RecordError, results=_RESULT, variations=False)
    tags, tag_lines = read.tags, read.tag_lines
    game = _game_from_tags(tags, tag_lines)
    _replay(game, [token for token in read.tokens if token.kind == "word"], read.last_line)
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
            raise RecordError(
                lines["TimeControl"],
                f"bad TimeControl {tags['TimeControl']!r} (expected seconds+increment, e.g. 300+5)",
            ) from None
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


def _replay(game: Game, words: list[Token], last_line: int) -> None:
    # automatic events (mates, king captures, stalemates) the game produced, which the record
    # must list right after the move that caused them
    pending = [_event_token(e.reason, e.player, e.by) for e in game.eliminations if e.reason in _AUTOMATIC]
    for word in words:
        event = _EVENT.match(word.text)
        if event and event.group(1) in ("mate", "capture", "stalemate"):
            if not pending:
                raise RecordError(word.line, f"{word.text} does not happen here")
            if pending[0] != word.text:
                raise RecordError(word.line, f"the record says {word.text} but the game gives {pending[0]}")
            pending.pop(0)
            continue
        if pending:
            raise RecordError(word.line, f"{pending[0]} happens before {word.text!r} but the record does not say so")
        if event and event.group(2) not in [c.value for c in game.seats]:
            raise RecordError(word.line, f"no player {event.group(2)!r} in this game")
        before = len(game.eliminations)
        try:
            _apply(game, word.text)
        except (InvalidMoveError, IllegalMoveError) as error:  # these quote the move themselves
            raise RecordError(word.line, str(error)) from None
        except ValueError as error:
            raise RecordError(word.line, f"{word.text!r}: {error}") from None
        pending.extend(
            _event_token(e.reason, e.player, e.by) for e in game.eliminations[before:] if e.reason in _AUTOMATIC
        )
    if pending:
        raise RecordError(last_line, f"the record ends before {pending[0]}")
