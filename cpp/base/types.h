// The vocabulary shared by every unit of the core: cells, colours, players, piece kinds and
// the packed move.
//
// Cells are dense indices 0..cell_count-1 of one board (see layout.h for how each board numbers
// them). A colour is a set of pieces that never changes; a player is a seat in the turn order
// that controls one or more colours (three-player chess transfers a mated army to its mater).
// At the start player i controls colour i.
#pragma once

#include <cstdint>

namespace polychess {

constexpr int MAX_CELLS = 192;  // three 64-bit words; the largest board has 160 cells
constexpr int MAX_COLOURS = 4;
constexpr int MAX_PLAYERS = 4;
// Room for the legal moves of any valid position: topology.cpp checks, for every board, that
// MAX_PIECES_PER_COLOUR pieces of every colour cannot have more moves than this.
constexpr int MAX_MOVES = 4096;
constexpr int MAX_PIECES_PER_COLOUR = 16;
constexpr int MAX_LINES = 160;  // straight lines of the largest board
constexpr int MAX_LINE_LENGTH = 16;

// ONE_POINT_QUEEN is four-player free-for-all's promoted queen: it moves as a queen but is
// worth one point (docs/rules.md §2.2).
enum Kind : uint8_t { NO_KIND = 0, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, ONE_POINT_QUEEN, KIND_NB };

// A piece packs its colour and kind; 0 is the empty cell.
using Piece = uint8_t;
constexpr Piece NO_PIECE = 0;
constexpr Piece make_piece(int colour, Kind kind) { return Piece(colour << 3 | kind); }
constexpr int colour_of(Piece p) { return p >> 3; }
constexpr Kind kind_of(Piece p) { return Kind(p & 7); }

enum Status : uint8_t { ACTIVE = 0, FROZEN = 1, OUT = 2 };

// Controller value of a colour whose pieces belong to nobody (a resigned player's army).
constexpr uint8_t NOBODY = 0xF;
constexpr int NO_CELL = -1;

// A move in 32 bits: from, to, type, promotion kind and an auxiliary field.
// Castling is written as the king's move and en passant as the pawn's move to the skipped
// cell, so (from, to, promotion) identifies a move among the legal moves of a position.
enum MoveType : uint32_t { NORMAL = 0, PROMOTION = 1, EN_PASSANT = 2, CASTLING = 3 };

using Move = uint32_t;
constexpr Move MOVE_NONE = 0xFFFFFFFFu;

constexpr Move make_move(int from, int to) { return Move(from) | Move(to) << 8; }
constexpr Move make_promotion(int from, int to, Kind k) {
  return make_move(from, to) | PROMOTION << 16 | Move(k) << 18;
}
constexpr Move make_en_passant(int from, int to, int victim_colour) {
  return make_move(from, to) | EN_PASSANT << 16 | Move(victim_colour) << 21;
}
constexpr Move make_castling(int from, int to, int colour, int side) {
  return make_move(from, to) | CASTLING << 16 | Move(colour * 2 + side) << 21;
}
// An en-passant capture that lands on a promotion cell also promotes (four-player FFA).
constexpr Move with_promotion(Move m, Kind k) { return m | Move(k) << 18; }
constexpr int move_from(Move m) { return int(m & 0xFF); }
constexpr int move_to(Move m) { return int(m >> 8 & 0xFF); }
constexpr MoveType move_type(Move m) { return MoveType(m >> 16 & 3); }
constexpr Kind move_promotion(Move m) { return Kind(m >> 18 & 7); }  // NO_KIND if none
constexpr int move_aux(Move m) { return int(m >> 21 & 7); }

}  // namespace polychess
