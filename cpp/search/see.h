// Static exchange evaluation: what a capture wins once every piece that bears on its target
// has taken in turn, cheapest first, each side free to stop. The mover's side is every active
// player not his enemy (a partner recaptures in his turn); the other side every active enemy.
// With more than two sides the enemies are taken as one side, as the paranoid search takes
// them. Sliders behind the first attackers (x-rays) are not counted: the estimate is for
// ordering and pruning, where speed counts more than the rare battery.
#pragma once

#include <algorithm>

#include "core/placement.h"
#include "core/position.h"

namespace polychess {

constexpr int SEE_KING_VALUE = 20000;  // a king takes last: nobody can take him back

template <int W>
int see_value(const Position<W>& pos, int cell) {
  const Kind k = kind_of(pos.piece_at(cell));
  return k == KING ? SEE_KING_VALUE : PIECE_VALUE[k];
}

// The material the mover's move `m` wins by the exchange it starts on its target, in
// centipawns (0 for a quiet move that no enemy can take).
template <int W>
int static_exchange(const Position<W>& pos, Move m) {
  const int from = move_from(m), to = move_to(m);
  const int me = pos.turn();
  Bitboard<W> friends = Bitboard<W>::empty();
  for (int p = 0; p < pos.players(); ++p)
    if (!pos.is_enemy(me, p) && pos.meta().status[p] == ACTIVE) friends |= pos.pieces_of(p);
  const Bitboard<W> enemies = pos.attacking_enemies_of(me);
  Bitboard<W> side[2] = {pos.attackers_to(to, friends).minus(Bitboard<W>::cell(from)), pos.attackers_to(to, enemies)};
  if (!side[1]) return move_type(m) == EN_PASSANT ? PIECE_VALUE[PAWN] : PIECE_VALUE[kind_of(pos.piece_at(to))];

  int gain[64];
  gain[0] = move_type(m) == EN_PASSANT ? PIECE_VALUE[PAWN] : PIECE_VALUE[kind_of(pos.piece_at(to))];
  int on_target = move_promotion(m) ? PIECE_VALUE[move_promotion(m)] : see_value(pos, from);
  if (move_promotion(m)) gain[0] += PIECE_VALUE[move_promotion(m)] - PIECE_VALUE[PAWN];
  int d = 0;
  for (int s = 1; d < 63; s ^= 1) {
    int cell = NO_CELL, value = 0;
    for (const Kind k : {PAWN, KNIGHT, BISHOP, ROOK, QUEEN, ONE_POINT_QUEEN, KING}) {
      const Bitboard<W> of_kind = side[s] & pos.kind_bb(k);
      if (of_kind) {
        cell = of_kind.first();
        value = k == KING ? SEE_KING_VALUE : PIECE_VALUE[k];
        break;
      }
    }
    if (cell == NO_CELL) break;
    ++d;
    gain[d] = on_target - gain[d - 1];
    on_target = value;
    side[s] = side[s].minus(Bitboard<W>::cell(cell));
    if (value == SEE_KING_VALUE && side[s ^ 1]) {  // a king may not take into an attack
      --d;
      break;
    }
  }
  while (d > 0) {
    gain[d - 1] = -std::max(-gain[d - 1], gain[d]);
    --d;
  }
  return gain[0];
}

}  // namespace polychess
