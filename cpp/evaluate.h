// Static evaluation, derived from the board's topology rather than from board-specific
// constants: material, plus piece-square values computed from each layout's geometry —
// centrality (distance to the graph centre of the king-step graph, i.e. the centre or the
// hexagon's rosette), how many cells a piece reaches from a cell on an empty board, and for
// pawns the distance to their promotion cells — then the position's own terms: mobility
// (cells each piece attacks that its owner does not occupy) and king safety (enemy pieces
// within two king steps of the king, own pawns beside it).
//
// The result is one value per player (the pieces of the colours he controls); the search
// turns that vector into a score for the side it plays for.
#pragma once

#include <algorithm>
#include <array>

#include "position.h"

namespace polychess {

constexpr int PIECE_VALUE[KIND_NB] = {0, 100, 300, 330, 500, 900, 0, 900};

// Centipawns per attacked cell, by kind: the short-range pieces gain most from each cell.
constexpr int MOBILITY_WEIGHT[KIND_NB] = {0, 0, 4, 3, 2, 1, 0, 1};
constexpr int KING_ATTACKER_PENALTY = 15;  // per enemy piece near the king
constexpr int KING_SHIELD_BONUS = 8;       // per own pawn beside the king
constexpr int MAX_SHIELD_PAWNS = 3;

template <int W>
struct EvalTables {
  int16_t square[MAX_COLOURS][KIND_NB][MAX_CELLS];  // material + piece-square value
  Bitboard<W> king_zone[MAX_CELLS];                 // cells within two king steps
};

template <int W>
const EvalTables<W>& eval_tables(const Topology<W>& topology);

// Each player's material, placement, mobility and king safety, in centipawns; 0 for a player
// who is out. Without `positional`, material and placement only: a quick estimate the search
// uses where a position is far outside the window (mobility costs most of the time).
template <int W>
std::array<int, MAX_PLAYERS> evaluate_players(const Position<W>& pos, const EvalTables<W>& e, bool positional = true) {
  const Topology<W>& t = pos.topo();
  const uint16_t* occ = pos.line_occupancy();
  std::array<int, MAX_PLAYERS> value{};
  for (int c = 0; c < pos.colours(); ++c) {
    const int owner = pos.meta().controller[c];
    if (owner == NOBODY || pos.meta().status[owner] == OUT) continue;
    const Bitboard<W> own = pos.pieces_of(owner);
    const Bitboard<W> mine = pos.colour_bb(c);
    int v = 0;
    for (int k = PAWN; k < KIND_NB; ++k)
      for_each_cell(mine & pos.kind_bb(Kind(k)), [&](int cell) { v += e.square[c][k][cell]; });
    if (!positional) {
      value[owner] += v;
      continue;
    }
    for_each_cell(mine & pos.kind_bb(KNIGHT), [&](int cell) {
      v += MOBILITY_WEIGHT[KNIGHT] * t.knight[cell].minus(own).count();
    });
    for_each_cell(mine & (pos.kind_bb(BISHOP) | pos.kind_bb(QUEEN) | pos.kind_bb(ONE_POINT_QUEEN)), [&](int cell) {
      v += MOBILITY_WEIGHT[kind_of(pos.piece_at(cell))] * t.bishop_attacks(cell, occ).minus(own).count();
    });
    for_each_cell(mine & (pos.kind_bb(ROOK) | pos.kind_bb(QUEEN) | pos.kind_bb(ONE_POINT_QUEEN)), [&](int cell) {
      v += MOBILITY_WEIGHT[kind_of(pos.piece_at(cell))] * t.rook_attacks(cell, occ).minus(own).count();
    });
    for_each_cell(mine & pos.kind_bb(KING), [&](int cell) {
      const Bitboard<W> near_enemies = (e.king_zone[cell] & pos.attacking_enemies_of(owner)).minus(pos.kind_bb(PAWN));
      v -= KING_ATTACKER_PENALTY * near_enemies.count();
      v += KING_SHIELD_BONUS * std::min(MAX_SHIELD_PAWNS, (t.king[cell] & mine & pos.kind_bb(PAWN)).count());
    });
    value[owner] += v;
  }
  return value;
}

}  // namespace polychess
