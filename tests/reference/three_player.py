"""Slow, independent reference implementation of three-player chess (docs/rules.md §1).

Pure Python, standard library only. Written for clarity, not speed: every rule is applied
literally, and legality is decided by make-and-test (apply the move, including any king
capture and transfer, then look for an active enemy attacking a king of the mover).

Coordinates: a cell is (s, r, c) -- sector s (0 White, 1 Red, 2 Black), local row r
(0 = the sector owner's back rank, 3 = the row at the centre), local column c (0..7 from
the owner's left).  Every geometric relation is derived from the step function of docs/rules.md
§1.2.  Public functions take and return cell names ("E4"); position strings follow
docs/position-strings.md.
"""

from __future__ import annotations

from dataclasses import dataclass

COLOURS = "wrb"  # seat order; colour index == sector index == seat index
PROMOTION_KINDS = "QRBN"

_FILES = ("ABCDEFGH", "NMLKDCBA", "HGFEKLMN")
_OPPOSITE = {"F": "B", "B": "F", "L": "R", "R": "L"}
_FILE_STEPS = "FB"
_RANK_STEPS = "LR"


# --------------------------------------------------------------------------- cells


def _rank_of(s: int, r: int) -> int:
    return (r + 1, 12 - r, 8 - r)[s]


def _name(t: tuple[int, int, int]) -> str:
    s, r, c = t
    return f"{_FILES[s][c]}{_rank_of(s, r)}"


_TUPLES: list[tuple[int, int, int]] = [(s, r, c) for s in range(3) for r in range(4) for c in range(8)]
CELLS: list[str] = [_name(t) for t in _TUPLES]
_BY_NAME: dict[str, tuple[int, int, int]] = {_name(t): t for t in _TUPLES}
assert len(_BY_NAME) == 96


def _cell(name: str) -> tuple[int, int, int]:
    try:
        return _BY_NAME[name.upper()]
    except KeyError:
        raise ValueError(f"no such cell: {name!r}") from None


def is_dark(cell: str) -> bool:
    """rules §1.1: (s, r, c) is dark iff r + c is even."""
    _, r, c = _cell(cell)
    return (r + c) % 2 == 0


# --------------------------------------------------------------------------- step function


def _step(t: tuple[int, int, int], d: str, flip: bool):
    """rules §1.2, on tuples.  Returns ((s, r, c), flip) or None when off board."""
    s, r, c = t
    if flip:
        d = _OPPOSITE[d]
    if d == "F":
        if r < 3:
            return (s, r + 1, c), flip
        if c <= 3:
            return ((s + 1) % 3, 3, 7 - c), not flip
        return ((s + 2) % 3, 3, 7 - c), not flip
    if d == "B":
        return ((s, r - 1, c), flip) if r > 0 else None
    if d == "L":
        return ((s, r, c - 1), flip) if c > 0 else None
    if d == "R":
        return ((s, r, c + 1), flip) if c < 7 else None
    raise ValueError(f"bad direction {d!r}")


def step(cell: str, d: str, flip: bool) -> tuple[str, bool] | None:
    """rules §1.2 step function on a cell name; d is one of 'F', 'B', 'L', 'R'."""
    res = _step(_cell(cell), d, flip)
    if res is None:
        return None
    return _name(res[0]), res[1]


def _walk(t, dirs):
    """Follow a path of directions from t, starting with flip = False; None if it leaves the board."""
    flip = False
    for d in dirs:
        res = _step(t, d, flip)
        if res is None:
            return None
        t, flip = res
    return t


def _ray(t, pattern):
    """Repeat the direction pattern from t (flip carried through); the cells after each repetition."""
    out = []
    seen = {t}
    flip = False
    while True:
        for d in pattern:
            res = _step(t, d, flip)
            if res is None:
                return out
            t, flip = res
        if t in seen:  # defensive: a ray never revisits a cell
            return out
        seen.add(t)
        out.append(t)


_DIAGONAL_PAIRS = [("F", "L"), ("L", "F"), ("F", "R"), ("R", "F"), ("B", "L"), ("L", "B"), ("B", "R"), ("R", "B")]


def _rook_rays(t):
    return [ray for ray in (_ray(t, d) for d in "FBLR") if ray]


def _bishop_rays(t):
    rays = []
    for pair in _DIAGONAL_PAIRS:
        ray = _ray(t, pair)
        if ray and ray not in rays:
            rays.append(ray)
    return rays


def _king_targets(t):
    out = set()
    for d in "FBLR":
        u = _walk(t, d)
        if u is not None:
            out.add(u)
    for pair in _DIAGONAL_PAIRS:
        u = _walk(t, pair)
        if u is not None:
            out.add(u)
    return out


def _knight_targets(t):
    out = set()
    for x in "FBLR":
        for y in "FBLR":
            if (x in _FILE_STEPS) == (y in _FILE_STEPS):
                continue  # same axis
            for path in ((x, x, y), (x, y, y)):
                u = _walk(t, path)
                if u is not None:
                    out.add(u)
    return out


def rook_rays(cell: str) -> list[list[str]]:
    """Orthogonal rays from cell on an empty board, each ordered outward."""
    return [[_name(u) for u in ray] for ray in _rook_rays(_cell(cell))]


def bishop_rays(cell: str) -> list[list[str]]:
    """Diagonal rays (one per ordered step pair, duplicates removed) on an empty board."""
    return [[_name(u) for u in ray] for ray in _bishop_rays(_cell(cell))]


def king_targets(cell: str) -> set[str]:
    return {_name(u) for u in _king_targets(_cell(cell))}


def knight_targets(cell: str) -> set[str]:
    return {_name(u) for u in _knight_targets(_cell(cell))}


# --------------------------------------------------------------------------- pawns


def _pawn_forward(colour: int, t) -> str:
    return "F" if t[0] == colour else "B"


def _pawn_push(colour: int, t):
    return _walk(t, _pawn_forward(colour, t))


def _pawn_double(colour: int, t):
    if t[0] != colour or t[1] != 1:
        return None
    return _walk(t, "FF")


def _pawn_captures(colour: int, t):
    f = _pawn_forward(colour, t)
    out = set()
    for pair in ((f, "L"), ("L", f), (f, "R"), ("R", f)):
        u = _walk(t, pair)
        if u is not None:
            out.add(u)
    return out


def _promotion_cells(colour: int):
    return {(s, 0, c) for s in range(3) if s != colour for c in range(8)}


def _colour_index(colour: str) -> int:
    i = COLOURS.find(colour.lower()) if len(colour) == 1 else -1
    if i < 0:
        raise ValueError(f"bad colour {colour!r}")
    return i


def pawn_push(colour: str, cell: str) -> str | None:
    u = _pawn_push(_colour_index(colour), _cell(cell))
    return None if u is None else _name(u)


def pawn_double_step(colour: str, cell: str) -> str | None:
    u = _pawn_double(_colour_index(colour), _cell(cell))
    return None if u is None else _name(u)


def pawn_captures(colour: str, cell: str) -> set[str]:
    return {_name(u) for u in _pawn_captures(_colour_index(colour), _cell(cell))}


def promotion_cells(colour: str) -> set[str]:
    return {_name(u) for u in _promotion_cells(_colour_index(colour))}


# --------------------------------------------------------------------------- position

_RANK_FILES = {}
for _rank in range(1, 13):
    _RANK_FILES[_rank] = "ABCDEFGH" if _rank <= 4 else "EFGHKLMN" if _rank <= 8 else "ABCDKLMN"


@dataclass
class _State:
    board: dict  # (s, r, c) -> (colour index, kind letter)
    turn: int
    castling: list  # per colour: set of "K"/"Q"
    ep: list  # per colour: skipped cell tuple or None
    halfmove: int
    fullmove: int
    controllers: list  # per colour: player index or None (inert)
    statuses: list  # per player: "a" / "f" / "x"

    def copy(self) -> _State:
        return _State(
            dict(self.board),
            self.turn,
            [set(x) for x in self.castling],
            list(self.ep),
            self.halfmove,
            self.fullmove,
            list(self.controllers),
            list(self.statuses),
        )


def _parse(position: str) -> _State:
    fields = position.split(" ")
    if len(fields) != 8:
        raise ValueError(f"expected 8 fields: {position!r}")
    placement, turn, castling, ep, halfmove, fullmove, controllers, statuses = fields
    ranks = placement.split("/")
    if len(ranks) != 12:
        raise ValueError("expected 12 ranks")
    board = {}
    for rank, text in zip(range(12, 0, -1), ranks, strict=True):
        files = _RANK_FILES[rank]
        i = 0
        j = 0
        while j < len(text):
            ch = text[j]
            if ch.isdigit():
                i += int(ch)
                j += 1
            else:
                colour, kind = text[j], text[j + 1]
                if colour not in COLOURS or kind not in "PNBRQK":
                    raise ValueError(f"bad piece {text[j : j + 2]!r}")
                board[_cell(f"{files[i]}{rank}")] = (COLOURS.index(colour), kind)
                i += 1
                j += 2
        if i != 8:
            raise ValueError(f"rank {rank} does not have 8 cells")
    rights = [set(), set(), set()]
    if castling != "-":
        current = None
        for ch in castling:
            if ch in COLOURS:
                current = COLOURS.index(ch)
            elif ch in "KQ" and current is not None:
                rights[current].add(ch)
            else:
                raise ValueError(f"bad castling field {castling!r}")
    slots = [None, None, None]
    if ep != "-":
        for name in ep.split(","):
            t = _cell(name)
            slots[t[0]] = t
    ctrl = [None if ch == "-" else COLOURS.index(ch) for ch in controllers]
    if len(ctrl) != 3 or len(statuses) != 3:
        raise ValueError("bad controllers/statuses")
    return _State(board, COLOURS.index(turn), rights, slots, int(halfmove), int(fullmove), ctrl, list(statuses))


def _write(st: _State) -> str:
    rows = []
    for rank in range(12, 0, -1):
        text = ""
        run = 0
        for f in _RANK_FILES[rank]:
            piece = st.board.get(_cell(f"{f}{rank}"))
            if piece is None:
                run += 1
            else:
                if run:
                    text += str(run)
                    run = 0
                text += COLOURS[piece[0]] + piece[1]
        if run:
            text += str(run)
        rows.append(text)
    castling = (
        "".join(COLOURS[k] + "".join(x for x in "KQ" if x in st.castling[k]) for k in range(3) if st.castling[k]) or "-"
    )
    ep = ",".join(_name(st.ep[k]) for k in range(3) if st.ep[k] is not None) or "-"
    controllers = "".join("-" if p is None else COLOURS[p] for p in st.controllers)
    return " ".join(
        [
            "/".join(rows),
            COLOURS[st.turn],
            castling,
            ep,
            str(st.halfmove),
            str(st.fullmove),
            controllers,
            "".join(st.statuses),
        ]
    )


START = (
    "rRrNrBrKrQrBrNrR/rPrPrPrPrPrPrPrP/8/8/bQbBbNbRbKbBbNbR/bPbPbPbPbPbPbPbP/8/8/8/8/"
    "wPwPwPwPwPwPwPwP/wRwNwBwQwKwBwNwR w wKQrKQbKQ - 0 1 wrb aaa"
)


# --------------------------------------------------------------------------- attacks


def _is_active(st: _State, player) -> bool:
    return player is not None and st.statuses[player] == "a"


def _piece_attacks(st: _State, t, piece):
    """Cells attacked by the piece at t (ignores whether its controller is active)."""
    colour, kind = piece
    if kind == "P":
        return _pawn_captures(colour, t)
    if kind == "N":
        return _knight_targets(t)
    if kind == "K":
        return _king_targets(t)
    rays = []
    if kind in "RQ":
        rays += _rook_rays(t)
    if kind in "BQ":
        rays += _bishop_rays(t)
    out = set()
    for ray in rays:
        for u in ray:
            out.add(u)
            if u in st.board:
                break
    return out


def _attackers_of(st: _State, target, players) -> set:
    """The players (from `players`, only active ones count) whose pieces attack target."""
    found = set()
    for t, piece in st.board.items():
        p = st.controllers[piece[0]]
        if p in players and _is_active(st, p) and p not in found:
            if target in _piece_attacks(st, t, piece):
                found.add(p)
    return found


def _enemies(st: _State, player) -> set:
    return {p for p in range(3) if p != player and _is_active(st, p)}


def _attacked(st: _State, target, player) -> bool:
    """Is target attacked by an active enemy of player?"""
    return bool(_attackers_of(st, target, _enemies(st, player)))


def _kings_of(st: _State, player):
    return [t for t, (colour, kind) in st.board.items() if kind == "K" and st.controllers[colour] == player]


def _frozen_kings(st: _State):
    return [
        t
        for t, (colour, kind) in st.board.items()
        if kind == "K" and st.controllers[colour] is not None and st.statuses[st.controllers[colour]] == "f"
    ]


def _next_to_frozen_king(st: _State, t) -> bool:
    return any(t in _king_targets(k) for k in _frozen_kings(st))


# --------------------------------------------------------------------------- moves


def _capturable(st: _State, mover: int, piece) -> bool:
    colour, kind = piece
    ctrl = st.controllers[colour]
    if ctrl == mover:
        return False
    if kind == "K" and ctrl is not None and st.statuses[ctrl] == "f":
        return False
    return True


def _ep_owner(st: _State, t):
    """The colour whose open en-passant slot is t (with its pawn still on the landing cell), or None."""
    for k in range(3):
        if st.ep[k] == t:
            landing = (t[0], 3, t[2])
            if st.board.get(landing) == (k, "P") and t not in st.board:
                return k
    return None


def _home(colour: int, c: int):
    return (colour, 0, c)


def _pseudo_moves(st: _State):
    """(from, to, promo) triples for the player to move, before the king-safety filter."""
    mover = st.turn
    out = []
    for t, piece in list(st.board.items()):
        colour, kind = piece
        if st.controllers[colour] != mover:
            continue

        def add(u, pawn=False, t=t, colour=colour):  # this piece's t and colour, bound here
            if pawn and u in _promotion_cells(colour):
                for promo in PROMOTION_KINDS:
                    out.append((t, u, promo))
            else:
                out.append((t, u, ""))

        if kind == "P":
            u = _pawn_push(colour, t)
            if u is not None and u not in st.board:
                add(u, pawn=True)
                v = _pawn_double(colour, t)
                if v is not None and v not in st.board:
                    add(v, pawn=True)
            for u in _pawn_captures(colour, t):
                target = st.board.get(u)
                if target is not None:
                    if _capturable(st, mover, target):
                        add(u, pawn=True)
                else:
                    k = _ep_owner(st, u)
                    if k is not None and st.controllers[k] != mover:
                        add(u, pawn=True)
            continue

        if kind == "N":
            targets = _knight_targets(t)
        elif kind == "K":
            targets = {u for u in _king_targets(t) if not _next_to_frozen_king(st, u)}
        else:
            targets = _piece_attacks(st, t, piece)
        for u in targets:
            target = st.board.get(u)
            if target is None or _capturable(st, mover, target):
                add(u)

        if kind == "K" and t == _home(colour, 4):
            out.extend(_castling_moves(st, colour))
    return out


def _castling_moves(st: _State, colour: int):
    mover = st.turn
    out = []
    king_home = _home(colour, 4)
    if st.controllers[colour] != mover or st.board.get(king_home) != (colour, "K"):
        return out
    if _attacked(st, king_home, mover):
        return out
    lifted = st.copy()
    del lifted.board[king_home]
    for side, rook_c, empty_cs, pass_c, land_c in (("K", 7, (5, 6), 5, 6), ("Q", 0, (1, 2, 3), 3, 2)):
        if side not in st.castling[colour]:
            continue
        if st.board.get(_home(colour, rook_c)) != (colour, "R"):
            continue
        if any(_home(colour, c) in st.board for c in empty_cs):
            continue
        ok = True
        for c in (pass_c, land_c):
            u = _home(colour, c)
            if _attacked(lifted, u, mover) or _next_to_frozen_king(st, u):
                ok = False
        if ok:
            out.append((king_home, _home(colour, land_c), ""))
    return out


def _apply(st: _State, frm, to, promo: str) -> _State:
    """The state after the move (assumed pseudo-legal); includes king capture and transfer."""
    st = st.copy()
    mover = st.turn
    piece = st.board[frm]
    colour, kind = piece
    captured = st.board.get(to)
    capture = captured is not None
    if kind == "P" and captured is None and to in _pawn_captures(colour, frm):
        k = _ep_owner(st, to)
        assert k is not None, "pawn capture onto an empty cell that is no en-passant slot"
        del st.board[(to[0], 3, to[2])]
        capture = True
    if kind == "K" and frm == _home(colour, 4) and to in (_home(colour, 6), _home(colour, 2)):
        rook_from, rook_to = (
            (_home(colour, 7), _home(colour, 5)) if to == _home(colour, 6) else (_home(colour, 0), _home(colour, 3))
        )
        st.board[rook_to] = st.board.pop(rook_from)
    del st.board[frm]
    new_piece = (colour, promo) if promo else piece
    st.board[to] = new_piece
    if kind == "P" and _pawn_double(colour, frm) == to:
        st.ep[colour] = (frm[0], 2, frm[2])
    # Castling rights.
    for k in range(3):
        for t in (frm, to):
            if t == _home(k, 4):
                st.castling[k].clear()
            if t == _home(k, 7):
                st.castling[k].discard("K")
            if t == _home(k, 0):
                st.castling[k].discard("Q")
    # King capture: elimination and transfer.
    if captured is not None and captured[1] == "K":
        victim = st.controllers[captured[0]]
        if victim is not None:
            st.statuses[victim] = "x"
            for k in range(3):
                if st.controllers[k] == victim:
                    st.controllers[k] = mover
                    st.castling[k].clear()
                    st.ep[k] = None
    # Stale en-passant slots.
    for k in range(3):
        t = st.ep[k]
        if t is not None and (t in st.board or st.board.get((t[0], 3, t[2])) != (k, "P")):
            st.ep[k] = None
    st.halfmove = 0 if capture or kind == "P" else st.halfmove + 1
    nxt = mover
    for i in (1, 2):
        p = (mover + i) % 3
        if st.statuses[p] == "a":
            nxt = p
            break
    if nxt <= mover:
        st.fullmove += 1
    st.turn = nxt
    # En-passant rights last until the double-stepper's controller moves again: once the turn
    # is his, nobody else can use them, so they lapse now.
    for k in range(3):
        if st.controllers[k] == nxt:
            st.ep[k] = None
    return st


def _legal(st: _State, frm, to, promo: str):
    """The state after the move if it is legal (pseudo-legal input), else None."""
    mover = st.turn
    piece = st.board[frm]
    if piece[1] == "K" and _next_to_frozen_king(st, to):
        return None
    after = _apply(st, frm, to, promo)
    for k in _kings_of(after, mover):
        if _attacked(after, k, mover):
            return None
    return after


def _move_text(frm, to, promo: str) -> str:
    return _name(frm) + _name(to) + promo


def _legal_triples(st: _State):
    return [m for m in _pseudo_moves(st) if _legal(st, *m) is not None]


def legal_moves(position: str) -> set[str]:
    """Move texts of every legal move of the player to move."""
    st = _parse(position)
    if st.statuses[st.turn] != "a":
        return set()
    return {_move_text(*m) for m in _legal_triples(st)}


def _parse_move(move: str):
    text = move.upper().replace("-", "").replace("X", "").replace("=", "")
    promo = ""
    if text[-1] in PROMOTION_KINDS:
        promo = text[-1]
        text = text[:-1]
    # from-cell: file letter + 1 or 2 digits; try the split that yields two valid cells.
    for split in (2, 3):
        a, b = text[:split], text[split:]
        if a in _BY_NAME and b in _BY_NAME:
            return _BY_NAME[a], _BY_NAME[b], promo
    raise ValueError(f"bad move text {move!r}")


def apply(position: str, move: str) -> str:
    """The position string after the move. Assumes the move is legal."""
    st = _parse(position)
    frm, to, promo = _parse_move(move)
    return _write(_apply(st, frm, to, promo))


def is_check(position: str) -> bool:
    """Is a king of the player to move attacked by an active enemy?"""
    st = _parse(position)
    return any(_attacked(st, k, st.turn) for k in _kings_of(st, st.turn))


def mater(position: str) -> str | None:
    """If the player to move is checkmated, the colour letter of the player who mated him."""
    st = _parse(position)
    mover = st.turn
    kings = _kings_of(st, mover)
    attackers = set()
    for k in kings:
        attackers |= _attackers_of(st, k, _enemies(st, mover))
    if not attackers or _legal_triples(st):
        return None
    for i in (1, 2):
        p = (mover - i) % 3
        if _is_active(st, p) and p in attackers:
            return COLOURS[p]
    return None


def perft(position: str, depth: int) -> int:
    """Leaf count of the legal move tree (convenience for tests)."""
    if depth == 0:
        return 1
    moves = legal_moves(position)
    if depth == 1:
        return len(moves)
    return sum(perft(apply(position, m), depth - 1) for m in moves)
