// Which kings a move puts in check, as chess.com marks checks (one '+' a king in PGN4) and
// scores them (free-for-all's bonus for two or three kings at once, docs/rules.md §2.4): the
// one definition, which the resolver's bonus (game_state.h) and the records' marks both use.
//
// A move puts a king in check when, after it, an enemy piece attacks the king that did not
// before: the moved piece, one it uncovered, a pawn that became a queen. A king already in check
// and still attacked only by the same pieces is not put in check again; a captured king is not
// counted. The attackers are the pieces of the king's enemies that are still in the game.
#pragma once

#include <bit>
#include <cstdint>

#include "core/position.h"

namespace polychess {

struct KingsChecked {
  uint32_t players = 0;        // a bit per player whose king the move puts in check
  bool by_queens_only = true;  // every piece newly checking is a queen (the bonus's own table)
  int count() const { return std::popcount(players); }
};

// The kings the legal move `move` of `pos` puts in check, among those of `looked_at` (a bit per
// player; by default every active player but the mover). The king of a player is his colour's.
// The move is made and taken back.
template <int W>
KingsChecked kings_checked(Position<W>& pos, Move move, uint32_t looked_at = ~0u) {
  const int mover = pos.turn();
  int king[MAX_PLAYERS];
  Bitboard<W> attacked_before[MAX_PLAYERS];
  for (int p = 0; p < pos.players(); ++p) {
    king[p] = NO_CELL;
    const bool looked = looked_at == ~0u ? pos.meta().status[p] == ACTIVE : (looked_at >> p & 1) != 0;
    if (p == mover || !looked) continue;
    const Bitboard<W> own = pos.colour_bb(p) & pos.kind_bb(KING);
    if (!own) continue;
    king[p] = own.first();
    attacked_before[p] = pos.attackers_to(king[p], pos.attacking_enemies_of(p));
  }
  pos.make(move);
  Bitboard<W> target = Bitboard<W>::empty();
  target.set(move_to(move));  // a piece taken there attacked before; the one that took it is new
  KingsChecked checked;
  for (int p = 0; p < pos.players(); ++p) {
    if (king[p] == NO_CELL || pos.piece_at(king[p]) != make_piece(p, KING)) continue;  // none, or captured
    const Bitboard<W> fresh =
        pos.attackers_to(king[p], pos.attacking_enemies_of(p)).minus(attacked_before[p].minus(target));
    if (!fresh) continue;
    checked.players |= 1u << p;
    for_each_cell(fresh, [&](int cell) {
      const Kind k = kind_of(pos.piece_at(cell));
      checked.by_queens_only &= k == QUEEN || k == ONE_POINT_QUEEN;
    });
  }
  pos.unmake();
  return checked;
}

}  // namespace polychess
