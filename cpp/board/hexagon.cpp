// The three-player hexagon. Cell index = sector * 32 + r * 8 + c in the local frame of
// docs/rules.md §1.1: sector 0 White, 1 Red, 2 Black; r = 0 at the owner's back rank, 3 at the centre;
// c = 0..7 from the owner's left. The three sectors are rotations of each other, so every
// rule below is written once in local coordinates.
#include <algorithm>

#include "board/geometry.h"

namespace polychess {
namespace {

constexpr int SECTORS = 3;
constexpr const char* FILES_OF_SECTOR[SECTORS] = {"ABCDEFGH", "NMLKDCBA", "HGFEKLMN"};
constexpr const char* FILE_ORDER = "ABCDEFGHKLMN";

constexpr int cell_at(int s, int r, int c) { return s * 32 + r * 8 + c; }
constexpr int sector_of(int cell) { return cell / 32; }
constexpr int row_of(int cell) { return cell / 8 % 4; }
constexpr int column_of(int cell) { return cell % 8; }

int rank_number(int cell) {
  const int s = sector_of(cell), r = row_of(cell);
  return s == 0 ? r + 1 : s == 1 ? 12 - r : 8 - r;
}

class Hexagon final : public Geometry {
 public:
  const char* name() const override { return "hexagon"; }
  int cell_count() const override { return SECTORS * 32; }
  int colour_count() const override { return SECTORS; }

  std::string cell_name(int cell) const override {
    return FILES_OF_SECTOR[sector_of(cell)][column_of(cell)] + std::to_string(rank_number(cell));
  }

  Step step(int cell, Dir d, bool flip) const override {
    if (flip) d = opposite(d);
    const int s = sector_of(cell), r = row_of(cell), c = column_of(cell);
    switch (d) {
      case F:
        if (r < 3) return {cell_at(s, r + 1, c), flip};
        // Crossing the centre line: the left half meets the next sector, the right half the
        // previous one, and the frame turns round.
        return {cell_at((s + (c <= 3 ? 1 : 2)) % SECTORS, 3, 7 - c), !flip};
      case B:
        return {r > 0 ? cell_at(s, r - 1, c) : NO_CELL, flip};
      case L:
        return {c > 0 ? cell_at(s, r, c - 1) : NO_CELL, flip};
      case R:
        return {c < 7 ? cell_at(s, r, c + 1) : NO_CELL, flip};
    }
    return {NO_CELL, flip};
  }

  bool is_dark(int cell) const override { return (row_of(cell) + column_of(cell)) % 2 == 0; }

  int turned(int cell, int seat) const override { return (cell + 32 * (SECTORS - seat)) % (32 * SECTORS); }

  // The sectors' 4x8 halves stacked: rows 4s to 4s + 3 are sector s, back rank first.
  std::pair<int, int> grid_size() const override { return {4 * SECTORS, 8}; }
  int grid_index(int cell) const override { return cell; }

  Dir pawn_forward(int colour, int cell) const override { return sector_of(cell) == colour ? F : B; }
  bool is_double_step_start(int colour, int cell) const override {
    return sector_of(cell) == colour && row_of(cell) == 1;
  }
  bool is_promotion_cell(int colour, int cell) const override { return sector_of(cell) != colour && row_of(cell) == 0; }

  CastlingCells castling(int colour, int side) const override {
    const int s = colour;
    if (side == 0) return {cell_at(s, 0, 4), cell_at(s, 0, 6), cell_at(s, 0, 7), cell_at(s, 0, 5)};
    return {cell_at(s, 0, 4), cell_at(s, 0, 2), cell_at(s, 0, 0), cell_at(s, 0, 3)};
  }

  std::vector<std::vector<int>> rows() const override {
    std::vector<std::vector<int>> rows;
    for (int rank = 12; rank >= 1; --rank) {
      std::vector<int> row;
      for (int cell = 0; cell < cell_count(); ++cell)
        if (rank_number(cell) == rank) row.push_back(cell);
      auto file_rank = [&](int cell) {
        return std::string(FILE_ORDER).find(FILES_OF_SECTOR[sector_of(cell)][column_of(cell)]);
      };
      std::sort(row.begin(), row.end(), [&](int a, int b) { return file_rank(a) < file_rank(b); });
      rows.push_back(row);
    }
    return rows;
  }

  std::vector<std::pair<int, Piece>> start_position() const override {
    static constexpr Kind BACK_RANK[8] = {ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK};
    std::vector<std::pair<int, Piece>> pieces;
    for (int s = 0; s < SECTORS; ++s)
      for (int c = 0; c < 8; ++c) {
        pieces.push_back({cell_at(s, 0, c), make_piece(s, BACK_RANK[c])});
        pieces.push_back({cell_at(s, 1, c), make_piece(s, PAWN)});
      }
    return pieces;
  }
};

}  // namespace

const Geometry& hexagon_geometry() {
  static const Hexagon hexagon;
  return hexagon;
}

}  // namespace polychess
