// Static evaluation, derived from the board's topology rather than from board-specific
// constants: material and placement (placement.h's piece-square values, which the position
// sums as pieces move), then the position's own terms: mobility (cells each piece attacks
// that its owner does not occupy) and king safety (enemy pieces within two king steps of the
// king, own pawns beside it).
//
// The result is one value per player (the pieces of the colours he controls); the search
// turns that vector into a score for the side it plays for.
#pragma once

#include <algorithm>
#include <array>

#include "position.h"

namespace polychess {

// Centipawns per attacked cell, by kind: the short-range pieces gain most from each cell.
constexpr int MOBILITY_WEIGHT[KIND_NB] = {0, 0, 4, 3, 2, 1, 0, 1};
constexpr int KING_ATTACKER_PENALTY = 15;  // per enemy piece near the king
constexpr int KING_SHIELD_BONUS = 8;       // per own pawn beside the king
constexpr int MAX_SHIELD_PAWNS = 3;

template <int W>
struct EvalTables {
  Bitboard<W> king_zone[MAX_CELLS];  // cells within two king steps
};

template <int W>
const EvalTables<W>& eval_tables(const Topology<W>& topology);

// Each player's material and placement, in centipawns; 0 for a player who is out. A quick
// estimate: the search settles positions far outside its window on it alone (mobility
// costs most of the evaluation's time).
template <int W>
std::array<int, MAX_PLAYERS> placement_values(const Position<W>& pos) {
  std::array<int, MAX_PLAYERS> value{};
  for (int c = 0; c < pos.colours(); ++c) {
    const int owner = pos.meta().controller[c];
    if (owner != NOBODY && pos.meta().status[owner] != OUT) value[owner] += pos.placement(c);
  }
  return value;
}

// Each player's mobility and king safety, in centipawns; 0 for a player who is out.
template <int W>
std::array<int, MAX_PLAYERS> positional_values(const Position<W>& pos, const EvalTables<W>& e) {
  const Topology<W>& t = pos.topo();
  const uint16_t* occ = pos.line_occupancy();
  const Bitboard<W> pawns = pos.kind_bb(PAWN);
  const Bitboard<W> queens = pos.kind_bb(QUEEN) | pos.kind_bb(ONE_POINT_QUEEN);
  std::array<int, MAX_PLAYERS> value{};
  for (int c = 0; c < pos.colours(); ++c) {
    const int owner = pos.meta().controller[c];
    if (owner == NOBODY || pos.meta().status[owner] == OUT) continue;
    const Bitboard<W> own = pos.pieces_of(owner);
    const Bitboard<W> mine = pos.colour_bb(c);
    int v = 0;
    for_each_cell(mine & pos.kind_bb(KNIGHT),
                  [&](int cell) { v += MOBILITY_WEIGHT[KNIGHT] * t.knight[cell].minus(own).count(); });
    for_each_cell(mine & (pos.kind_bb(BISHOP) | queens), [&](int cell) {
      v += MOBILITY_WEIGHT[kind_of(pos.piece_at(cell))] * t.bishop_attacks(cell, occ).minus(own).count();
    });
    for_each_cell(mine & (pos.kind_bb(ROOK) | queens), [&](int cell) {
      v += MOBILITY_WEIGHT[kind_of(pos.piece_at(cell))] * t.rook_attacks(cell, occ).minus(own).count();
    });
    for_each_cell(mine & pos.kind_bb(KING), [&](int cell) {
      const Bitboard<W> near_enemies = (e.king_zone[cell] & pos.attacking_enemies_of(owner)).minus(pawns);
      v -= KING_ATTACKER_PENALTY * near_enemies.count();
      v += KING_SHIELD_BONUS * std::min(MAX_SHIELD_PAWNS, (t.king[cell] & mine & pawns).count());
    });
    value[owner] += v;
  }
  return value;
}

// Each player's whole evaluation: placement plus positional terms.
template <int W>
std::array<int, MAX_PLAYERS> evaluate_players(const Position<W>& pos, const EvalTables<W>& e) {
  std::array<int, MAX_PLAYERS> value = placement_values(pos);
  const std::array<int, MAX_PLAYERS> positional = positional_values(pos, e);
  for (int p = 0; p < MAX_PLAYERS; ++p) value[p] += positional[p];
  return value;
}

}  // namespace polychess
