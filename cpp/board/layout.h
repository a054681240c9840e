// Every relation between cells that the rules use, derived once from a Geometry's step
// function (layout.cpp). Plain lists: this is the cold, readable form that the Python
// `Topology` shows and from which topology.h compiles the bitboard tables of the hot path.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "board/geometry.h"

namespace polychess {

using CellList = std::vector<int>;

struct CastlingRule {
  CastlingCells cells;
  CellList must_be_empty;  // every cell between king and rook, except their own
  CellList king_path;      // cells the king passes over and lands on
};

// A maximal straight line: every contiguous piece of it is a slider's ray, read either way.
struct Line {
  bool diagonal;
  CellList cells;
};

struct Layout {
  const Geometry* geometry;
  int cell_count;
  int colour_count;
  std::vector<std::string> names;
  std::vector<bool> dark;

  // [cell] -> rays in order from the cell outward; bishop rays are one per ordered pair of
  // steps, identical ones removed, so a ray through the centre appears forked.
  std::vector<std::vector<CellList>> rook_rays, bishop_rays;
  std::vector<CellList> king_targets, knight_targets;

  // [colour][cell]
  std::vector<std::vector<int>> pawn_push;         // NO_CELL if none
  std::vector<std::vector<int>> pawn_double_step;  // NO_CELL if none; skipped = pawn_push
  std::vector<std::vector<CellList>> pawn_captures;
  std::vector<CellList> promotion_cells;              // [colour]
  std::vector<std::array<CastlingRule, 2>> castling;  // [colour][side]

  std::vector<Line> lines;
  std::vector<CellList> rows;
  // [seat][cell] -> the cell in seat 0's frame (Geometry::turned), for every colour's seat.
  std::vector<std::vector<int>> turned;
  int grid_rows = 0, grid_cols = 0;  // Geometry::grid_size
  std::vector<int> grid_index;       // [cell] -> row * grid_cols + column

  int cell_index(const std::string& name) const;  // NO_CELL if unknown (case-insensitive)
};

// Builds and checks the layout; throws std::logic_error if the geometry breaks an assumption
// the move generator relies on (e.g. a pair of cells joined by two different lines).
Layout build_layout(const Geometry& geometry);

}  // namespace polychess
