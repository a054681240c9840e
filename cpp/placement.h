// Piece-square values derived from a layout's geometry rather than from board-specific
// constants: material plus centrality (distance to the graph centre of the king-step graph,
// i.e. the centre or the hexagon's rosette), how many cells a piece reaches from a cell on an
// empty board, and for pawns the distance to their promotion cells.
//
// The position keeps each colour's sum of these values up to date as pieces are put and
// removed, so the evaluation's material-and-placement term costs nothing per node.
#pragma once

#include <cstdint>

#include "layout.h"
#include "types.h"

namespace polychess {

constexpr int PIECE_VALUE[KIND_NB] = {0, 100, 300, 330, 500, 900, 0, 900};

struct PlacementTable {
  int16_t value[MAX_COLOURS][KIND_NB][MAX_CELLS];  // material + placement, in centipawns
};

// Built on first use for each layout (thread-safe), then shared.
const PlacementTable& placement_table(const Layout& layout);

}  // namespace polychess
