// A board's geometry: its cells and one step function, from which layout.cpp derives every
// relation the rules need (rays, king and knight targets, pawn tables, straight lines).
//
// Directions are given in the frame of the piece that moves: F toward the centre (or "up" on
// a square board), B back, L and R. A path starts with flip = false; on the hexagon a step
// across the centre toggles flip, and while it is set the board swaps F<->B and L<->R before
// each step (docs/rules.md §1.2). Square boards never flip.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/types.h"

namespace polychess {

enum Dir { F = 0, B = 1, L = 2, R = 3 };
constexpr Dir opposite(Dir d) { return Dir(d ^ 1); }

struct Step {
  int cell;  // NO_CELL when the step leaves the board
  bool flip;
};

// King and rook cells of one castling move, as the rules name them.
struct CastlingCells {
  int king_from, king_to, rook_from, rook_to;
};

class Geometry {
 public:
  virtual ~Geometry() = default;

  // The board's shape: "hexagon" (three-player), "square" (standard) or "cross" (four-player),
  // what a drawing of it goes by.
  virtual const char* name() const = 0;
  virtual int cell_count() const = 0;
  virtual int colour_count() const = 0;
  // Cell names in the notation of the variant (upper case on the hexagon).
  virtual std::string cell_name(int cell) const = 0;
  virtual Step step(int cell, Dir d, bool flip) const = 0;
  virtual bool is_dark(int cell) const = 0;

  // The direction, in the frame of `cell`, in which a pawn of `colour` standing there moves.
  virtual Dir pawn_forward(int colour, int cell) const = 0;
  virtual bool is_double_step_start(int colour, int cell) const = 0;
  virtual bool is_promotion_cell(int colour, int cell) const = 0;

  // Index 0 is the short (king-side) castling, 1 the long one.
  virtual CastlingCells castling(int colour, int side) const = 0;

  // The cells row by row as position strings list them: first row first, each row in order.
  virtual std::vector<std::vector<int>> rows() const = 0;
  virtual std::vector<std::pair<int, Piece>> start_position() const = 0;

  // The cell as seat 0 would see it if the board were turned so that `seat` sat in seat 0's
  // place: the board's symmetry (the hexagon's 120-degree rotations, the cross's quarter turns,
  // the mirror of standard chess's ranks) that takes colour `seat`'s army onto colour 0's.
  virtual int turned(int cell, int seat) const = 0;

  // A grid the cells lie in, for pictures of the board as arrays (docs/rl.md): its rows and
  // columns, and each cell's index row * columns + column.
  virtual std::pair<int, int> grid_size() const = 0;
  virtual int grid_index(int cell) const = 0;
};

// The 96-cell hexagonal board of three-player chess (rules §1.1-1.3).
const Geometry& hexagon_geometry();
// The 8x8 board of standard chess.
const Geometry& square_geometry();
// The 160-square cross of four-player chess; promotion ranks depend on the mode (teams or
// free-for-all), the start position and castling on the setup (modern or classic).
const Geometry& cross_geometry(bool teams, bool modern);

}  // namespace polychess
