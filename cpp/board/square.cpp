// The 8x8 board of standard chess. Cell index = rank * 8 + file (a1 = 0, h8 = 63); F is toward
// rank 8 for both colours, and White's pawns move F, Black's B.
#include "board/geometry.h"

namespace polychess {
namespace {

class Square final : public Geometry {
 public:
  const char* name() const override { return "square"; }
  int cell_count() const override { return 64; }
  int colour_count() const override { return 2; }

  std::string cell_name(int cell) const override {
    return std::string(1, char('a' + cell % 8)) + std::to_string(cell / 8 + 1);
  }

  Step step(int cell, Dir d, bool flip) const override {
    const int rank = cell / 8, file = cell % 8;
    switch (d) {
      case F:
        return {rank < 7 ? cell + 8 : NO_CELL, flip};
      case B:
        return {rank > 0 ? cell - 8 : NO_CELL, flip};
      case L:
        return {file > 0 ? cell - 1 : NO_CELL, flip};
      case R:
        return {file < 7 ? cell + 1 : NO_CELL, flip};
    }
    return {NO_CELL, flip};
  }

  bool is_dark(int cell) const override { return (cell / 8 + cell % 8) % 2 == 0; }

  // Black's view is White's with the ranks mirrored (files stay: the queens face each other).
  int turned(int cell, int seat) const override { return seat == 0 ? cell : cell ^ 56; }

  std::pair<int, int> grid_size() const override { return {8, 8}; }
  int grid_index(int cell) const override { return cell; }

  Dir pawn_forward(int colour, int) const override { return colour == 0 ? F : B; }
  bool is_double_step_start(int colour, int cell) const override { return cell / 8 == (colour == 0 ? 1 : 6); }
  bool is_promotion_cell(int colour, int cell) const override { return cell / 8 == (colour == 0 ? 7 : 0); }

  CastlingCells castling(int colour, int side) const override {
    const int base = colour == 0 ? 0 : 56;
    if (side == 0) return {base + 4, base + 6, base + 7, base + 5};
    return {base + 4, base + 2, base + 0, base + 3};
  }

  std::vector<std::vector<int>> rows() const override {
    std::vector<std::vector<int>> rows;
    for (int rank = 7; rank >= 0; --rank) {
      std::vector<int> row;
      for (int file = 0; file < 8; ++file) row.push_back(rank * 8 + file);
      rows.push_back(row);
    }
    return rows;
  }

  std::vector<std::pair<int, Piece>> start_position() const override {
    static constexpr Kind BACK_RANK[8] = {ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK};
    std::vector<std::pair<int, Piece>> pieces;
    for (int file = 0; file < 8; ++file) {
      pieces.push_back({file, make_piece(0, BACK_RANK[file])});
      pieces.push_back({8 + file, make_piece(0, PAWN)});
      pieces.push_back({48 + file, make_piece(1, PAWN)});
      pieces.push_back({56 + file, make_piece(1, BACK_RANK[file])});
    }
    return pieces;
  }
};

}  // namespace

const Geometry& square_geometry() {
  static const Square square;
  return square;
}

}  // namespace polychess
