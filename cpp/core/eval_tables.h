// The evaluation's tables, built once per board from its topology (eval_tables.cpp): what the
// evaluation (evaluate.h) and the pawn structure (pawn_structure.h) look up per cell.
#pragma once

#include <cstdint>

#include "core/topology.h"

namespace polychess {

template <int W>
struct EvalTables {
  Bitboard<W> king_zone[MAX_CELLS];  // cells within two king steps
  // A pawn's way to promotion (its pushes, its own cell left out), and that way with the cells
  // from which a pawn of any colour takes on it: an enemy pawn there stops or takes it.
  Bitboard<W> pawn_way[MAX_COLOURS][MAX_CELLS];
  Bitboard<W> passed_span[MAX_COLOURS][MAX_CELLS];
  int8_t pushes_left[MAX_COLOURS][MAX_CELLS];  // to promotion; -1 where it cannot get there
  int8_t advance[MAX_COLOURS][MAX_CELLS];      // pushes made toward promotion (placement.h's)
  int8_t central[MAX_CELLS];                   // king steps closer to the centre than the farthest cell
};

// The board's tables, built at the first call for that topology and kept for the process.
template <int W>
const EvalTables<W>& eval_tables(const Topology<W>& topology);

}  // namespace polychess
