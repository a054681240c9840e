// Static evaluation, derived from the board's topology rather than from board-specific
// constants: material, plus piece-square values computed from each layout's geometry —
// centrality (distance to the graph centre of the king-step graph, i.e. the centre or the
// hexagon's rosette), how many cells a piece reaches from a cell on an empty board, and for
// pawns the distance to their promotion cells.
//
// The result is one value per player (the pieces of the colours he controls); the search
// turns that vector into a score for the side it plays for.
#pragma once

#include <array>

#include "position.h"

namespace polychess {

constexpr int PIECE_VALUE[KIND_NB] = {0, 100, 300, 330, 500, 900, 0, 900};

template <int W>
struct EvalTables {
  int16_t square[MAX_COLOURS][KIND_NB][MAX_CELLS];  // material + piece-square value
};

template <int W>
const EvalTables<W>& eval_tables(const Topology<W>& topology);

// Each player's material and placement, in centipawns; 0 for a player who is out.
template <int W>
std::array<int, MAX_PLAYERS> evaluate_players(const Position<W>& pos, const EvalTables<W>& e) {
  int by_colour[MAX_COLOURS] = {0, 0, 0, 0};
  for (int c = 0; c < pos.colours(); ++c)
    for (int k = PAWN; k < KIND_NB; ++k)
      for_each_cell(pos.colour_bb(c) & pos.kind_bb(Kind(k)), [&](int cell) { by_colour[c] += e.square[c][k][cell]; });
  std::array<int, MAX_PLAYERS> value{};
  for (int c = 0; c < pos.colours(); ++c) {
    const int owner = pos.meta().controller[c];
    if (owner != NOBODY && pos.meta().status[owner] != OUT) value[owner] += by_colour[c];
  }
  return value;
}

}  // namespace polychess
