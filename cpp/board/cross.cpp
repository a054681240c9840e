// The 160-square cross of four-player chess (docs/rules.md §2): 14x14 without the four 3x3 corners,
// files a-n and ranks 1-14 seen from Red. Cells are numbered rank by rank from a1's rank
// upward, skipping the corners. One global frame: F is toward rank 14. Red's pawns move F,
// Blue's R, Yellow's B, Green's L.
#include <array>

#include "board/geometry.h"

namespace polychess {
namespace {

constexpr int SIZE = 14;
constexpr int RED = 0, BLUE = 1, YELLOW = 2, GREEN = 3;

bool exists(int file, int rank) {
  if (file < 0 || file >= SIZE || rank < 0 || rank >= SIZE) return false;
  const bool side_file = file < 3 || file > 10, side_rank = rank < 3 || rank > 10;
  return !(side_file && side_rank);
}

struct Grid {
  std::array<std::array<int, SIZE>, SIZE> cell{};  // [rank][file]
  std::array<int, 160> file{}, rank{};
  Grid() {
    int n = 0;
    for (int r = 0; r < SIZE; ++r)
      for (int f = 0; f < SIZE; ++f) {
        cell[r][f] = exists(f, r) ? n : NO_CELL;
        if (exists(f, r)) {
          file[n] = f;
          rank[n] = r;
          ++n;
        }
      }
  }
};

const Grid& grid() {
  static const Grid g;
  return g;
}

int at(int file, int rank) { return exists(file, rank) ? grid().cell[rank][file] : NO_CELL; }

// Square names of the docs/rules.md §2 tables, e.g. "h1", "a11".
int named(const char* name) {
  const int file = name[0] - 'a';
  int rank = 0;
  for (const char* p = name + 1; *p; ++p) rank = rank * 10 + (*p - '0');
  return at(file, rank - 1);
}

enum class Mode { TEAMS, FFA };
enum class Setup { MODERN, CLASSIC };

class Cross final : public Geometry {
 public:
  Cross(Mode mode, Setup setup) : mode_(mode), setup_(setup) {}

  const char* name() const override { return "cross"; }
  int cell_count() const override { return 160; }
  int colour_count() const override { return 4; }

  std::string cell_name(int cell) const override {
    return std::string(1, char('a' + grid().file[cell])) + std::to_string(grid().rank[cell] + 1);
  }

  Step step(int cell, Dir d, bool flip) const override {
    const int f = grid().file[cell], r = grid().rank[cell];
    switch (d) {
      case F:
        return {at(f, r + 1), flip};
      case B:
        return {at(f, r - 1), flip};
      case L:
        return {at(f - 1, r), flip};
      case R:
        return {at(f + 1, r), flip};
    }
    return {NO_CELL, flip};
  }

  bool is_dark(int cell) const override { return (grid().file[cell] + grid().rank[cell]) % 2 == 0; }

  // A quarter turn per seat: Blue (left, pawns toward higher files) onto Red (bottom, pawns
  // toward higher ranks), Yellow (top) by a half turn, Green (right) by three quarters.
  int turned(int cell, int seat) const override {
    int f = grid().file[cell], r = grid().rank[cell];
    for (int k = 0; k < seat; ++k) {
      const int next_f = SIZE - 1 - r, next_r = f;
      f = next_f;
      r = next_r;
    }
    return at(f, r);
  }

  // The 14x14 square the cross is cut from (its corners hold no cell).
  std::pair<int, int> grid_size() const override { return {SIZE, SIZE}; }
  int grid_index(int cell) const override { return grid().rank[cell] * SIZE + grid().file[cell]; }

  Dir pawn_forward(int colour, int) const override {
    static constexpr Dir FORWARD[4] = {F, R, B, L};
    return FORWARD[colour];
  }
  bool is_double_step_start(int colour, int cell) const override { return distance_from_own_side(colour, cell) == 1; }
  bool is_promotion_cell(int colour, int cell) const override {
    // Teams: the 11th rank from the player's own side; FFA: the 8th (rules §2.2).
    return distance_from_own_side(colour, cell) == (mode_ == Mode::TEAMS ? 10 : 7);
  }

  CastlingCells castling(int colour, int side) const override {
    // [setup][colour][side] = king from, king to, rook from, rook to (rules §2.2)
    static constexpr const char* CELLS[2][4][2][4] = {{{{"h1", "j1", "k1", "i1"}, {"h1", "f1", "d1", "g1"}},
                                                       {{"a7", "a5", "a4", "a6"}, {"a7", "a9", "a11", "a8"}},
                                                       {{"g14", "e14", "d14", "f14"}, {"g14", "i14", "k14", "h14"}},
                                                       {{"n8", "n10", "n11", "n9"}, {"n8", "n6", "n4", "n7"}}},
                                                      {{{"h1", "j1", "k1", "i1"}, {"h1", "f1", "d1", "g1"}},
                                                       {{"a8", "a10", "a11", "a9"}, {"a8", "a6", "a4", "a7"}},
                                                       {{"g14", "e14", "d14", "f14"}, {"g14", "i14", "k14", "h14"}},
                                                       {{"n7", "n5", "n4", "n6"}, {"n7", "n9", "n11", "n8"}}}};
    const auto& c = CELLS[setup_ == Setup::CLASSIC][colour][side];
    return {named(c[0]), named(c[1]), named(c[2]), named(c[3])};
  }

  std::vector<std::vector<int>> rows() const override {
    std::vector<std::vector<int>> rows;
    for (int r = SIZE - 1; r >= 0; --r) {
      std::vector<int> row;
      for (int f = 0; f < SIZE; ++f)
        if (exists(f, r)) row.push_back(at(f, r));
      rows.push_back(row);
    }
    return rows;
  }

  std::vector<std::pair<int, Piece>> start_position() const override {
    static constexpr Kind BACK[8] = {ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK};
    std::vector<std::pair<int, Piece>> pieces;
    auto swap_king_and_queen = [](Kind k) { return k == QUEEN ? KING : k == KING ? QUEEN : k; };
    for (int i = 0; i < 8; ++i) {
      // Classic: every king faces the opposite player's queen... except that Blue's and
      // Green's sit on a8 / n7; the modern setup swaps their king and queen (rules §2.1).
      const Kind red = BACK[i], yellow = BACK[7 - i];
      Kind blue = BACK[i], green = BACK[7 - i];
      if (setup_ == Setup::MODERN) {
        blue = swap_king_and_queen(blue);
        green = swap_king_and_queen(green);
      }
      pieces.push_back({at(3 + i, 0), make_piece(RED, red)});
      pieces.push_back({at(3 + i, 1), make_piece(RED, PAWN)});
      pieces.push_back({at(0, 3 + i), make_piece(BLUE, blue)});
      pieces.push_back({at(1, 3 + i), make_piece(BLUE, PAWN)});
      pieces.push_back({at(3 + i, 13), make_piece(YELLOW, yellow)});
      pieces.push_back({at(3 + i, 12), make_piece(YELLOW, PAWN)});
      pieces.push_back({at(13, 3 + i), make_piece(GREEN, green)});
      pieces.push_back({at(12, 3 + i), make_piece(GREEN, PAWN)});
    }
    return pieces;
  }

 private:
  // Rows from the player's own edge: 0 = his back rank (or file), 13 = the far edge.
  static int distance_from_own_side(int colour, int cell) {
    const int f = grid().file[cell], r = grid().rank[cell];
    switch (colour) {
      case RED:
        return r;
      case BLUE:
        return f;
      case YELLOW:
        return SIZE - 1 - r;
      default:
        return SIZE - 1 - f;
    }
  }

  Mode mode_;
  Setup setup_;
};

}  // namespace

const Geometry& cross_geometry(bool teams, bool modern) {
  static const Cross geometries[2][2] = {{Cross(Mode::FFA, Setup::CLASSIC), Cross(Mode::FFA, Setup::MODERN)},
                                         {Cross(Mode::TEAMS, Setup::CLASSIC), Cross(Mode::TEAMS, Setup::MODERN)}};
  return geometries[teams][modern];
}

}  // namespace polychess
