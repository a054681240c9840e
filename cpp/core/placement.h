// Piece-square values derived from a layout's geometry rather than from board-specific
// constants: material plus centrality (distance to the graph centre of the king-step graph,
// i.e. the centre or the hexagon's rosette), how many cells a piece reaches from a cell on an
// empty board, and for pawns the pushes made toward their promotion cells; each weighted by
// the game's evaluation weights (evaluation_weights.h).
//
// The position keeps each colour's sum of these values up to date as pieces are put and
// removed, so the evaluation's material-and-placement term costs nothing per node.
// PIECE_VALUE is the fixed scale of exchanges (move ordering, pruning), not a weight.
#pragma once

#include <cstdint>
#include <vector>

#include "base/types.h"
#include "board/layout.h"
#include "core/evaluation_weights.h"
#include "games/variant.h"

namespace polychess {

constexpr int PIECE_VALUE[KIND_NB] = {0, 100, 300, 330, 500, 900, 0, 900};

// A game's cell weights, in centipawns: for its base and late twin (times the lateness, as the
// terms' twins), for each kind from the pawn to the king (a one-point queen counts as a queen),
// for each cell as seat 0 sees it: index (late * CELL_KINDS + kind - PAWN) * cell_count + cell.
using CellWeights = std::vector<int>;
constexpr int CELL_KINDS = KING - PAWN + 1;
inline int cell_weight_count(const Layout& layout) { return 2 * CELL_KINDS * layout.cell_count; }
// Where a piece of `colour` on `cell` reads its base cell weight; its late one is
// CELL_KINDS * cell_count further on.
inline int cell_weight_index(const Layout& layout, int colour, Kind kind, int cell) {
  return ((kind == ONE_POINT_QUEEN ? QUEEN : kind) - PAWN) * layout.cell_count + layout.turned[colour][cell];
}

// A game's evaluation: its weights and, from them and the layout, every piece's material and
// placement value on every cell. Immutable once built: a position keeps the table it was
// made with, so new weights apply to positions made after them.
struct PlacementTable {
  EvalWeights weights;
  // Each piece's value on each cell beyond what the terms give it: a piece-square table in
  // seat 0's frame (Layout::turned), the same for every colour; empty where the game has none.
  CellWeights cells;
  int16_t value[MAX_COLOURS][KIND_NB][MAX_CELLS];  // material + placement, in centipawns
  // The late twins' part (evaluation_weights.h), to be multiplied by a player's lateness; all
  // 0 where no material or placement term has a late weight.
  int16_t late_value[MAX_COLOURS][KIND_NB][MAX_CELLS];
  // Whether any material or placement term, any positional one, has a late weight: where none
  // has, the evaluation does not count the lateness.
  bool late_placement, late_positional;
  // Whether any pawn-structure term (passed, near, doubled, or a late twin) has a weight: where
  // none has, the evaluation does not count the pawn structure.
  bool pawn_structure;
};

// The placement features of one piece on one cell, per term (material counts 1; terms that
// are not placement terms count 0): what the table's value is the weighted sum of.
void placement_features(const Layout& layout, int colour, Kind kind, int cell, int* features);
// Each cell's centrality: king steps closer to the board's centre than the farthest cell.
std::vector<int> centrality(const Layout& layout);
// Per colour and cell: the pawn pushes made toward promotion, counted back from the longest way.
std::vector<std::vector<int>> pawn_advance(const Layout& layout);

// The table for the game, with its current weights (thread-safe).
const PlacementTable& placement_table(const Variant& variant);
// Makes `weights` and `cells` (empty, or cell_weight_count() of them) the game's weights for
// positions made from now on; std::invalid_argument for a weight beyond +-30000 or cell weights
// of another count.
void set_evaluation_weights(const Variant& variant, const EvalWeights& weights, const CellWeights& cells = {});

}  // namespace polychess
