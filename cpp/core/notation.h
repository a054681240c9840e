// Move text (docs/rules.md §4): from-cell, to-cell and an optional promotion letter, e.g. "E2E4",
// "A11A12Q", "e7e8q". Castling is the king's move, en passant the pawn's move to the skipped
// cell.
#pragma once

#include <string>

#include "games/variant.h"

namespace polychess {

struct MoveText {
  int from, to;
  Kind promotion;  // NO_KIND if none was written
};

std::string move_text(const Variant& variant, Move move);
char kind_letter(Kind kind);       // upper case, as on boards (D: the one-point queen)
char promotion_letter(Kind kind);  // upper case (Q for either queen)
// The promotion letter as this variant's move text writes it (upper or lower case).
char written_promotion(const Variant& variant, Kind kind);
// Case-insensitive; a '-', 'x' or ':' between the cells, an '=' before the promotion letter
// and spaces around the parts are allowed. Throws InvalidMove, saying what was expected.
MoveText parse_move_text(const Variant& variant, const std::string& text);
// What move text looks like in this variant, with examples from its board (for messages).
std::string expected_move_text(const Variant& variant);
// The move among `moves` (n of them, a position's legal moves) that `m` names; MOVE_NONE if none.
Move matching_move(const Move* moves, int n, const MoveText& m);
// The same, or IllegalMove naming `text` (the move as written) and the player to move `turn`: a
// move that needs a promotion letter says so.
Move find_move(const Variant& variant, const Move* moves, int n, const MoveText& m, const std::string& text, int turn);
// The same for a move `m` of the game `of`, which may be another mode or setup of this game: that
// is read by its text (its promotion letter names the piece in this mode). A move of another
// game is an IllegalMove.
Move find_move_of(const Variant& variant, const Move* moves, int n, int turn, const Variant& of, const MoveText& m);

}  // namespace polychess
