"""A reviewed game's evaluation graph as SVG: one curve per side (a player alone, or partners)
of the expected result after every ply, with the marked moves circled on their mover's curve.

The plies run left to right from the start (ply 0, every side even) to the last move; the
height is the expected result, 0 (lost) at the bottom to 1 (won) at the top, with the even
line dashed. Each point carries a ``<title>`` (ply, player, move, the side's expected result),
so a browser shows it on hover, and a ``data-ply`` attribute, for a page to go to that move
when it is clicked (the points have the class ``point``, the marked moves their mark's). The
marked moves are circled in their mark's colour (:data:`MARK_COLOURS`) with its glyph above,
and a legend names both.
"""

from __future__ import annotations

from html import escape

from polychess.board import Colour
from polychess.review import GLYPHS, MARKS, Review

__all__ = ["MARK_COLOURS", "review_svg"]

# Line colours: the pieces' own, White's darkened to show on white.
_LINE = {
    Colour.WHITE: "#8a8a8a",
    Colour.BLACK: "#1a1a1a",
    Colour.RED: "#d3392c",
    Colour.BLUE: "#3a6fd0",
    Colour.YELLOW: "#d9a400",
    Colour.GREEN: "#3b984c",
}
# The marks' colours: hues no seat has (purple, magenta, cyan), so a mark is never read as a player.
MARK_COLOURS = {"blunder": "#6a1b9a", "mistake": "#d81bb4", "inaccuracy": "#00a5c4"}
_LEFT, _RIGHT, _TOP, _BOTTOM = 44.0, 16.0, 50.0, 30.0


def review_svg(review: Review, width: int = 720, height: int = 300) -> str:
    """The graph of the review (module docstring), ``width`` by ``height`` pixels."""
    kind = review.game.kind
    sides = kind.sides
    plies = max(1, len(review.moves))
    inner_w, inner_h = width - _LEFT - _RIGHT, height - _TOP - _BOTTOM

    def x(ply: int) -> float:
        return _LEFT + inner_w * ply / plies

    def y(expected: float) -> float:
        return _TOP + inner_h * (1.0 - expected)

    start = 1.0 / len(sides) if len(sides) > 2 else 0.5
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        'font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<rect x="{_LEFT}" y="{_TOP}" width="{inner_w:.1f}" height="{inner_h:.1f}" fill="#f6f6f6" stroke="#c8c8c8"/>',
        f'<line x1="{_LEFT}" x2="{width - _RIGHT}" y1="{y(start):.1f}" y2="{y(start):.1f}" stroke="#b0b0b0" '
        'stroke-dasharray="4 3"/>',
    ]
    for value, label in ((1.0, "won"), (start, "even"), (0.0, "lost")):
        parts.append(f'<text x="{_LEFT - 6}" y="{y(value) + 4:.1f}" text-anchor="end" fill="#555">{label}</text>')
    step = max(1, round(plies / 10))
    for ply in range(0, plies + 1, step):
        parts.append(f'<text x="{x(ply):.1f}" y="{height - 10}" text-anchor="middle" fill="#555">{ply}</text>')
    legend_x = _LEFT
    for side in sides:
        colour = side[0]
        name = " & ".join(c.value.capitalize() for c in side)
        points = [(0, start)] + [(m.ply, m.standings[colour]) for m in review.moves]
        path = " ".join(f"{x(p):.1f},{y(e):.1f}" for p, e in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{_LINE[colour]}" stroke-width="2"/>')
        for move in review.moves:
            title = f"ply {move.ply}: {move.player.value} {move.move}; {name} {move.standings[colour]:.2f}"
            parts.append(
                f'<circle cx="{x(move.ply):.1f}" cy="{y(move.standings[colour]):.1f}" r="2.2" '
                f'fill="{_LINE[colour]}" class="point" data-ply="{move.ply}"><title>{escape(title)}</title></circle>'
            )
        parts.append(
            f'<rect x="{legend_x}" y="10" width="12" height="12" fill="{_LINE[colour]}"/>'
            f'<text x="{legend_x + 16}" y="20" fill="#222">{escape(name)}</text>'
        )
        legend_x += 24 + 7 * len(name)
    legend_x = _LEFT  # the marks' legend: a second row
    for mark in MARKS:
        label = f"{GLYPHS[mark]} {mark}"
        parts.append(
            f'<circle cx="{legend_x + 6}" cy="32" r="5" fill="none" stroke="{MARK_COLOURS[mark]}" stroke-width="2.5"/>'
            f'<text x="{legend_x + 16}" y="36" fill="#222">{escape(label)}</text>'
        )
        legend_x += 24 + 7 * len(label)
    for move in review.moves:
        if move.mark is None:
            continue
        title = f"ply {move.ply}: {move.player.value} {move.move} is a {move.mark} (best {move.best_move})"
        cx, cy = x(move.ply), y(move.standings[move.player])
        parts.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="6" fill="none" '
            f'stroke="{MARK_COLOURS[move.mark]}" stroke-width="2.5" class="{move.mark}" data-ply="{move.ply}">'
            f"<title>{escape(title)}</title></circle>"
            f'<text x="{cx:.1f}" y="{cy - 9:.1f}" text-anchor="middle" font-weight="bold" '
            f'fill="{MARK_COLOURS[move.mark]}">{escape(GLYPHS[move.mark])}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts)
