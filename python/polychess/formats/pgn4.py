"""chess.com's PGN4: a whole four-player game as text (docs/fen4-pgn4.md).

``read_pgn4(text)`` replays a record into a :class:`~polychess.Game` and checks it against
what the record states (piece letters, captured pieces, check and mate marks, leave tokens,
move numbers, the Teams result); ``parse_pgn4(text)`` also returns the tags and whatever the
record holds that polychess does not replay. ``write_pgn4(game, tags)`` writes a game the way
chess.com exports it::

    [Variant "FFA"]
    [RuleVariants "EnPassant PromoteTo=D"]
    [StartFen4 "4PC"]
    ...
    1. h2-h3 .. b7-c7 .. i13-i12 .. m8-l8
    2. Qg1xQn8+ .. ...

A malformed or inconsistent record raises :class:`Pgn4Error`, whose message starts with the
line number.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from polychess.board import Board, Colour
from polychess.catalogue import KINDS, GameKind
from polychess.formats.fen4 import COLOURS, Fen4Error, read_fen4, write_fen4
from polychess.formats.tags import PGN_RESULT, TagPairError, TagPairText, Token, read_tag_pair_text, write_tag_pair_text
from polychess.game import Elimination, Game, Reason, Termination
from polychess.notation.long_algebraic import (
    CASTLE,
    DKW_HINT,
    MOVE,
    long_algebraic,
    move_text,
    parse_long_algebraic,
    read_move,
    slot_mark,
)
from polychess.options import OptionError, option

__all__ = ["Pgn4Error", "Pgn4Record", "parse_pgn4", "read_pgn4", "write_pgn4", "long_algebraic", "parse_long_algebraic"]

_LEAVE = re.compile(r"^(?P<leave>[RT])(?P<marks>#*)$")
_EVENT = re.compile(r"^(?:(resign|timeout)\((red|blue|yellow|green)\)|draw)$")
_KNOWN_RULES = {"EnPassant", "DeadKingWalking", "Anonymous", "SemiAnonymous"}
_VARIANT_ALIASES = {"SOLO": "FFA"}  # chess.com's older name of free-for-all
_TERMINATIONS = {
    Termination.CHECKMATE: "Checkmate",
    Termination.KING_CAPTURE: "King captured",
    Termination.STALEMATE: "Stalemate",
    Termination.MOVE_LIMIT: "Move limit",
    Termination.AGREEMENT: "Game drawn by agreement",
    Termination.THREEFOLD_REPETITION: "Threefold repetition",
    Termination.FIFTY_MOVES: "50-move rule",
    Termination.POINTS_LEAD: "Points lead",
    Termination.INSUFFICIENT_MATERIAL: "Insufficient material",
    Termination.DECIDED: "Decided in the start position",
}
# The tag that gives each option of the game a record starts (for messages).
_OPTION_TAGS = {"move_limit": "MoveLimit", "start": "StartFen4", "points": "StartFen4", "mode": "Variant"}


class Pgn4Error(TagPairError):
    """A PGN4 record that cannot be read; the message names the line and the problem."""


@dataclass(frozen=True)
class Pgn4Record:
    """A record as read: the replayed game, the tags as written, the movetext that was not
    replayed because polychess had already ended the game (a free-for-all 21-point lead, which
    chess.com lets the leader claim later), and the points of a free-for-all Result tag by
    colour (chess.com's count, which need not equal ``game.points``; see docs/fen4-pgn4.md)."""

    game: Game
    tags: dict[str, str]
    unplayed: tuple[str, ...]
    reported_points: dict[Colour, int] | None


# -- reading ---------------------------------------------------------------------------------


class _Replay:
    """Replays the movetext of a record into a game, checking what the record states."""

    def __init__(self, game: Game, tokens: list[Token]) -> None:
        self.game = game
        self.tokens = tokens
        self.unplayed: list[str] = []
        self.round = game.fullmove_number
        self.last_seat: int | None = None
        self.number: Token | None = None
        # slot tokens the record owes: (player, '#' or 'S', already given as a mark on the move)
        self.pending: list[tuple[Colour, str, bool]] = [
            (e.player, mark, False)
            for e in game.eliminations
            if (mark := slot_mark(e, game.rules, after_move=False)) is not None
        ]

    def run(self) -> None:
        words = [i for i, t in enumerate(self.tokens) if t.kind == "word"]
        last_word = words[-1] if words else -1
        for index, token in enumerate(self.tokens):
            try:
                self.token(token, index == last_word)
            except Pgn4Error:
                raise
            except ValueError as error:
                # The board or the game refused what the token asks (every bad-input error of
                # polychess is a ValueError): the record is wrong at this token.
                shown = f"{{{token.text}}}" if token.kind == "comment" else repr(token.text)
                raise Pgn4Error(token.line, f"{shown}: {error}") from None

    def token(self, token: Token, last_word: bool) -> None:
        if token.kind == "number":
            self.number = token
        elif token.kind == "comment":
            if _EVENT.match(token.text):
                self.event(token)
        else:
            self.ply(token, last_word)
            self.number = None

    def slot(self, player: Colour, token: Token) -> None:
        """Advances the round count to the slot of ``player`` and checks the move number."""
        seat = COLOURS.index(player)
        if self.last_seat is not None and seat <= self.last_seat:
            self.round += 1
        self.last_seat = seat
        if self.number is not None and int(self.number.text) != self.round:
            raise Pgn4Error(
                self.number.line,
                f"move number {self.number.text} before {token.text!r}, but "
                f"{player.value}'s move there is in round {self.round}",
            )

    def event(self, token: Token) -> None:
        """A polychess event written as a comment: {resign(blue)}, {timeout(blue)}, {draw}."""
        game = self.game
        if self.pending:
            self.pending = [p for p in self.pending if not p[2]]
            if self.pending:
                player, mark, _ = self.pending[0]
                raise Pgn4Error(
                    token.line,
                    f"{player.value} is {'checkmated' if mark == '#' else 'stalemated'} "
                    f"here; the record must say {mark!r} in {player.value}'s slot",
                )
        before = len(game.eliminations)
        if token.text == "draw":
            game.agree_draw()
        else:
            what, name = token.text[:-1].split("(")
            (game.resign if what == "resign" else game.time_forfeit)(name)
        self.expect_slots(game.eliminations[before:], after_move=False)

    def expect_slots(self, eliminations: tuple[Elimination, ...], after_move: bool, marked: int = 0) -> None:
        for e in eliminations:
            mark = slot_mark(e, self.game.rules, after_move)
            if mark is not None:
                given = marked > 0 and mark == "#"
                marked -= given
                self.pending.append((e.player, mark, given))

    def ply(self, token: Token, last: bool) -> None:
        game, word = self.game, token.text
        if self.pending:
            player, mark, _ = self.pending[0]
            if word == mark:
                self.slot(player, token)
                self.pending.pop(0)
                return
            self.pending = [p for p in self.pending if not p[2]]
            if self.pending:
                player, mark, _ = self.pending[0]
                raise Pgn4Error(
                    token.line,
                    f"{player.value} is {'checkmated' if mark == '#' else 'stalemated'} "
                    f"here; the record must say {mark!r} in {player.value}'s slot, "
                    f"not {word!r}",
                )
        if game.is_over():
            outcome = game.outcome()
            assert outcome is not None
            if outcome.termination is Termination.POINTS_LEAD and (
                MOVE.match(word) or CASTLE.match(word) or _LEAVE.match(word) or word in ("#", "S")
            ):
                self.unplayed.append(word)
                return
            raise Pgn4Error(
                token.line, f"the game is over ({outcome.termination.value}) but the record goes on with {word!r}"
            )
        mover = game.turn
        self.slot(mover, token)
        leave = _LEAVE.match(word)
        if leave:
            self.leave(token, mover, leave.group("leave"))
            return
        if word in ("#", "S"):
            what = "checkmated" if word == "#" else "stalemated"
            raise Pgn4Error(token.line, f"{word!r} in {mover.value}'s slot, but {mover.value} is not {what} here")
        if not CASTLE.match(word) and not MOVE.match(word):
            raise Pgn4Error(
                token.line,
                f"{word!r} is not a move in chess.com's notation (e.g. h2-h3, Qg1xQn8+, "
                f"e10-e11=Q, O-O) nor a leave token (R, T, S, #)",
            )
        before = game.board
        try:
            written = read_move(before, word)
        except ValueError as error:
            raise Pgn4Error(token.line, str(error)) from None
        move, marks, leave_letter, castle = written.move, written.marks, written.leave, written.castle
        checked = before.checks(move)
        count = len(game.eliminations)
        walking = before.checks(
            move, [e.player for e in game.eliminations[:count] if e.reason in (Reason.RESIGNATION, Reason.TIME_FORFEIT)]
        )
        game.push(move)
        new = game.eliminations[count:]
        self.check_marks(token, marks, list(checked), new, castle, last, bool(walking))
        if leave_letter in ("R", "T"):
            self.leave(token, mover, leave_letter)
        elif leave_letter == "S":
            if not any(p[1] == "S" for p in self.pending):
                raise Pgn4Error(token.line, f"{word!r} marks a stalemate, but nobody is stalemated here")
            self.pending = [(p, m, given or m == "S") for p, m, given in self.pending]

    def leave(self, token: Token, player: Colour, letter: str) -> None:
        game = self.game
        if game.is_over():
            return  # the move ended the game; nothing is left to leave
        before = len(game.eliminations)
        (game.resign if letter == "R" else game.time_forfeit)(player)
        self.expect_slots(game.eliminations[before:], after_move=False)

    def check_marks(
        self,
        token: Token,
        marks: str,
        checked: list[Colour],
        new: tuple[Elimination, ...],
        castle: bool,
        last: bool,
        walking: bool,
    ) -> None:
        """Checks '+' (one per king the move puts in check) and '#' (one per player the move
        eliminates) against the replay, and notes the slot tokens the record now owes."""
        word, game = token.text, self.game
        pluses, hashes = marks.count("+"), marks.count("#")
        if not castle and pluses != len(checked):
            names = ", ".join(p.value for p in checked) or "none"
            hint = DKW_HINT if walking and pluses > len(checked) else ""
            raise Pgn4Error(
                token.line,
                f"{word!r} marks {pluses} check(s) but the move checks {len(checked)} king(s) ({names}){hint}",
            )
        on_move = [
            e
            for e in new
            if slot_mark(e, game.rules, after_move=True) is None and e.reason in (Reason.CHECKMATE, Reason.KING_CAPTURE)
        ]
        in_slot = [e for e in new if slot_mark(e, game.rules, after_move=True) == "#"]
        names = ", ".join(e.player.value for e in on_move + in_slot) or "nobody"
        if hashes == len(on_move):
            extra = 0
        elif hashes == len(on_move) + len(in_slot) and in_slot:
            extra = len(in_slot)  # an older chess.com style: the next player's mate marked on the move
        elif last and hashes < len(on_move):
            extra = 0  # chess.com may leave the '#' off the game's final move
        else:
            raise Pgn4Error(
                token.line,
                f"{word!r} marks {hashes} mate(s) but the move mates {len(on_move)} player(s) at once ({names})",
            )
        self.expect_slots(new, after_move=True, marked=extra)


def _kind_named(variant: str) -> GameKind | None:
    """The four-player game whose PGN4 ``Variant`` tag this is (any case), in its first setup."""
    wanted = _VARIANT_ALIASES.get(variant.upper(), variant.upper())
    return next((k for k in KINDS if (k.record_variant or "").upper() == wanted), None)


def _check_rules(tags: Mapping[str, str], lines: Mapping[str, int], kind: GameKind) -> None:
    # Promotion as chess.com writes its rule: to a one-point queen (free-for-all, ranked by
    # points), or on the eleventh rank (teams).
    promotion = ("PromoteTo=D", "Prom=8") if kind.rules.ranking == "points" else ("Prom=11",)
    for rule in tags.get("RuleVariants", "").split():
        if rule in _KNOWN_RULES or rule in promotion:
            continue
        raise Pgn4Error(
            lines["RuleVariants"],
            f"rule variant {rule!r} is not played by polychess (chess.com's standard {kind.record_variant} rules)",
        )


def _new_game(tags: Mapping[str, str], lines: Mapping[str, int], setup: str | None) -> Game:
    variant = tags.get("Variant", "Teams")
    kind = _kind_named(variant)
    if kind is None:
        raise Pgn4Error(lines.get("Variant", 1), f"Variant {variant!r} is not four-player Teams or FFA")
    _check_rules(tags, lines, kind)
    mode = kind.mode
    assert mode is not None, "a game PGN4 names is four-player chess, which has modes"
    start: str | None = None
    points: dict[Colour, int] | None = None
    fen = tags.get("StartFen4", "4PC")
    if fen != "4PC":
        try:
            position = read_fen4(fen, mode=mode, setup=setup)
        except Fen4Error as error:
            raise Pgn4Error(lines["StartFen4"], str(error)) from None
        if kind.rules.ranking != "points" and any(position.points.values()):
            given = ",".join(str(position.points[c]) for c in COLOURS)
            raise Pgn4Error(lines["StartFen4"], f"StartFen4 gives points {given}; a Teams game has no points")
        start, setup = position.board.fen(), position.setup
        points = {c: n for c, n in position.points.items() if n} or None
    move_limit = None
    if "MoveLimit" in tags:
        if not re.fullmatch(r"[0-9]+", tags["MoveLimit"]) or int(tags["MoveLimit"]) < 1:
            raise Pgn4Error(lines["MoveLimit"], f"MoveLimit {tags['MoveLimit']!r} is not a positive number of plies")
        move_limit = int(tags["MoveLimit"])
    try:
        return Game("four-player", mode=mode, setup=setup, start=start, move_limit=move_limit, points=points)
    except OptionError as error:  # the value a tag gave (the game's range of move limits, say)
        tag = _OPTION_TAGS.get(error.option, "StartFen4")
        raise Pgn4Error(lines.get(tag, 1), error.spelled(_OPTION_TAGS)) from None
    except ValueError as error:  # the start position
        raise Pgn4Error(lines.get("StartFen4", 1), str(error)) from None


def _teams_result(game: Game) -> str:
    outcome = game.outcome()
    if outcome is None:
        return "*"
    if outcome.places[Colour.RED] == outcome.places[Colour.BLUE]:
        return "1/2-1/2"
    return "1-0" if outcome.places[Colour.RED] < outcome.places[Colour.BLUE] else "0-1"


def _reported_points(tags: Mapping[str, str]) -> dict[Colour, int] | None:
    names = {tags.get(c.value.capitalize(), c.value.capitalize()): c for c in COLOURS}
    points: dict[Colour, int] = {}
    for part in re.split(r"\s+-\s+", tags.get("Result", "").strip()):
        match = re.fullmatch(r"(.*\S)\s*:\s*(-?[0-9]+)", part)
        if not match or match.group(1) not in names or names[match.group(1)] in points:
            return None
        points[names[match.group(1)]] = int(match.group(2))
    return points if len(points) == 4 else None


def parse_pgn4(text: str, *, setup: str | None = None) -> Pgn4Record:
    """Reads a PGN4 record (see :func:`read_pgn4`) and returns the game with the tags, the
    movetext left unplayed and the points a free-for-all Result tag reports."""
    if setup is not None:
        option("setup").check(setup)  # the caller's argument, not the record: an OptionError
    read = read_tag_pair_text(text, Pgn4Error)
    if "StartFen4" not in read.tags and setup is None:
        # Before 2020 chess.com's default was the classic setup and its exports carry no
        # StartFen4: try the modern start, then the classic one.
        try:
            return _parse(read, "modern")
        except Pgn4Error as modern_error:
            try:
                return _parse(read, "classic")
            except Pgn4Error:
                raise modern_error from None
    return _parse(read, setup)


def _parse(read: TagPairText, setup: str | None) -> Pgn4Record:
    tags, lines, final = read.tags, read.tag_lines, read.result
    game = _new_game(tags, lines, setup)
    replay = _Replay(game, read.tokens)
    replay.run()
    result = tags.get("Result")
    if game.kind.partners and result is not None:
        line = lines["Result"]
        if not PGN_RESULT.fullmatch(result):
            raise Pgn4Error(line, f"Teams Result {result!r} is not 1-0, 0-1, 1/2-1/2 or *")
        if not game.is_over() and result == "1/2-1/2":
            game.agree_draw()  # chess.com writes no token for an agreed draw
        got = _teams_result(game)
        if result != "*" and result != got:
            state = "the game is not over" if got == "*" else f"the game gives {got}"
            raise Pgn4Error(line, f"Result tag says {result} but {state}")
    if final is not None and result is not None and final.text != result and final.text != "*":
        raise Pgn4Error(final.line, f"the movetext ends with {final.text} but the Result tag says {result}")
    reported = _reported_points(tags) if game.rules.ranking == "points" else None
    return Pgn4Record(game=game, tags=tags, unplayed=tuple(replay.unplayed), reported_points=reported)


def read_pgn4(text: str, *, setup: str | None = None) -> Game:
    """Replays a chess.com PGN4 record into a :class:`~polychess.Game`.

    Tags: ``Variant`` (Teams, FFA or Solo; default Teams), ``RuleVariants`` (chess.com's
    standard ones only), ``StartFen4`` (``4PC`` or a FEN4; without it the modern start, or the
    classic one when only that replays), ``Result`` (checked in Teams), ``MoveLimit``
    (a polychess extension). Moves are checked against the replay: the piece letters, the
    captured piece, one ``+`` per king put in check, one ``#`` per player eliminated, and the
    leave tokens ``R`` (resign), ``T`` (time out), ``S`` (stalemate) and ``#`` (checkmated at
    his own turn). Raises :class:`Pgn4Error` naming the line and the problem.
    """
    return parse_pgn4(text, setup=setup).game


# -- writing ---------------------------------------------------------------------------------


def _termination(game: Game, result: str) -> str | None:
    outcome = game.outcome()
    if outcome is None:
        return None
    last = outcome.eliminations[-1] if outcome.eliminations else None
    if outcome.termination in (Termination.RESIGNATION, Termination.TIME_FORFEIT) and last is not None:
        what = "resigned" if last.reason is Reason.RESIGNATION else "forfeit on time"
        text = f"{last.player.value.capitalize()} {what}"
    else:
        text = _TERMINATIONS[outcome.termination]
    return f"{text}. {result}" if game.kind.partners else text


def write_pgn4(game: Game, tags: Mapping[str, str] | None = None) -> str:
    """The PGN4 record of a four-player game, as chess.com exports it, with extra tags
    (player names as Red/Blue/Yellow/Green, Site, Date, ...). Variant, RuleVariants,
    StartFen4, Result and Termination are written from the game and override the same tags
    in ``tags``. :func:`read_pgn4` reads it back into the identical game."""
    if game.kind.record_format.name != "pgn4":
        raise ValueError(f"PGN4 is for four-player chess, not {game.variant}")
    extra = dict(tags or {})
    mode = game.mode
    ranked_by_points = game.rules.ranking == "points"
    start = Board("four-player", game.start_fen, mode=mode, setup=game.setup)
    standard = Board("four-player", mode=mode, setup="modern")
    names = {c: extra.get(c.value.capitalize(), c.value.capitalize()) for c in COLOURS}
    head: dict[str, str] = {
        "Variant": game.kind.record_variant or "",
        "RuleVariants": "EnPassant PromoteTo=D" if ranked_by_points else "EnPassant",
        "StartFen4": (
            "4PC" if start.fen() == standard.fen() and not game.start_points else write_fen4(start, game.start_points)
        ),
    }
    if game.move_limit is not None:
        head["MoveLimit"] = str(game.move_limit)
    computed = {"Variant", "RuleVariants", "StartFen4", "MoveLimit", "Result", "Termination"}
    head.update((k, v) for k, v in extra.items() if k not in computed)
    if ranked_by_points:
        result = "*" if not game.is_over() else " - ".join(f"{names[c]}: {game.points.get(c, 0)}" for c in COLOURS)
    else:
        result = _teams_result(game)
    head["Result"] = result
    termination = _termination(game, result)
    if termination is not None:
        head["Termination"] = termination
    return write_tag_pair_text(head, _movetext(game))


def _movetext(game: Game) -> list[str]:
    replay = Game(
        "four-player",
        mode=game.mode,
        setup=game.setup,
        start=game.start_fen,
        move_limit=game.move_limit,
        points=game.start_points,
    )
    mode = game.mode
    items: list[tuple[Colour | None, str]] = []  # (slot player, token) or (None, comment)

    def slot_tokens(eliminations: tuple[Elimination, ...], after_move: bool) -> None:
        for e in eliminations:
            mark = slot_mark(e, game.rules, after_move)
            if mark is not None:
                items.append((e.player, mark))

    slot_tokens(replay.eliminations, after_move=False)
    for step in game.steps:
        count = len(replay.eliminations)
        player, move = step.player, step.move
        if move is None:  # a resignation, a time forfeit or a draw agreed
            resigned = step.reason == Reason.RESIGNATION
            if player is None:
                items.append((None, "{draw}"))
                replay.agree_draw()
            else:
                # in the player's own slot a letter, out of turn a comment in polychess's words
                items.append(
                    (player, "R" if resigned else "T") if player == replay.turn else (None, f"{{{step.token}}}")
                )
                (replay.resign if resigned else replay.time_forfeit)(player)
            slot_tokens(replay.eliminations[count:], after_move=False)
            continue
        before = replay.board
        mover = replay.turn
        text, castle = move_text(before, move)
        checked = before.checks(move)
        replay.push(move)
        new = replay.eliminations[count:]
        mates = [
            e
            for e in new
            if slot_mark(e, game.rules, after_move=True) is None and e.reason in (Reason.CHECKMATE, Reason.KING_CAPTURE)
        ]
        items.append((mover, text + ("" if castle else "+" * len(checked)) + "#" * len(mates)))
        slot_tokens(new, after_move=True)

    lines: list[str] = []
    line = ""
    number = Board("four-player", game.start_fen, mode=mode, setup=game.setup).fullmove_number
    last_seat: int | None = None
    for slot, token in items:
        if slot is None:
            line = f"{line} {token}" if line else token
            continue
        seat = COLOURS.index(slot)
        if last_seat is not None and seat <= last_seat:
            number += 1
        if last_seat is None or seat <= last_seat:
            if line:
                lines.append(line)
            line = f"{number}. {token}"
        else:
            line = f"{line} .. {token}"
        last_seat = seat
    if line:
        lines.append(line)
    return lines
