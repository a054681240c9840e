#include "board/layout.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>
#include <tuple>

namespace polychess {
namespace {

constexpr Dir ALL_DIRS[4] = {F, B, L, R};
constexpr Dir FILE_DIRS[2] = {F, B};
constexpr Dir RANK_DIRS[2] = {L, R};

bool same_axis(Dir a, Dir b) { return (a < 2) == (b < 2); }

// Follows a path of directions from `cell`, carrying the flip; NO_CELL if it leaves the board.
Step walk(const Geometry& g, Step at, std::initializer_list<Dir> dirs) {
  for (Dir d : dirs) {
    at = g.step(at.cell, d, at.flip);
    if (at.cell == NO_CELL) return at;
  }
  return at;
}

// Repeats a step (one direction, or an ordered pair of directions for a diagonal) from the
// cell until the board ends. A diagonal step whose first half-step leaves the board is taken
// in the other order: on the cross the corner squares are missing, but the diagonal
// neighbour beside them is still one diagonal step away.
CellList ray(const Geometry& g, int cell, std::initializer_list<Dir> unit) {
  CellList cells;
  Step at{cell, false};
  while (true) {
    Step next = walk(g, at, unit);
    if (next.cell == NO_CELL && unit.size() == 2) next = walk(g, at, {*(unit.begin() + 1), *unit.begin()});
    at = next;
    if (at.cell == NO_CELL || at.cell == cell) break;
    cells.push_back(at.cell);
  }
  return cells;
}

void add_unique(std::vector<CellList>& rays, CellList r) {
  if (!r.empty() && std::find(rays.begin(), rays.end(), r) == rays.end()) rays.push_back(r);
}

void add_unique(CellList& cells, int cell) {
  if (cell != NO_CELL && std::find(cells.begin(), cells.end(), cell) == cells.end()) cells.push_back(cell);
}

// The diagonal steps in direction `forward` (in the frame of `cell`): a file step and a rank
// step in either order (docs/rules.md §1.2), or the forward step and a sideways one for pawns.
CellList diagonal_neighbours(const Geometry& g, int cell, Dir a) {
  CellList cells;
  for (Dir b : ALL_DIRS) {
    if (same_axis(a, b)) continue;
    add_unique(cells, walk(g, {cell, false}, {a, b}).cell);
    add_unique(cells, walk(g, {cell, false}, {b, a}).cell);
  }
  return cells;
}

bool contains_run(const CellList& outer, const CellList& inner) {
  return std::search(outer.begin(), outer.end(), inner.begin(), inner.end()) != outer.end();
}

// Lines are the maximal rays: every ray [X] + ray(X) not contained, either way round, in a
// longer one.
std::vector<Line> maximal_lines(const Layout& lay) {
  std::vector<Line> candidates;
  for (int cell = 0; cell < lay.cell_count; ++cell) {
    for (int diagonal = 0; diagonal < 2; ++diagonal)
      for (const CellList& r : diagonal ? lay.bishop_rays[cell] : lay.rook_rays[cell]) {
        CellList seq{cell};
        seq.insert(seq.end(), r.begin(), r.end());
        CellList rev(seq.rbegin(), seq.rend());
        candidates.push_back({diagonal == 1, std::min(seq, rev)});
      }
  }
  std::vector<Line> lines;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const Line& c = candidates[i];
    bool redundant = false;
    for (size_t j = 0; j < candidates.size() && !redundant; ++j) {
      const Line& o = candidates[j];
      if (j == i || o.diagonal != c.diagonal) continue;
      if (o.cells == c.cells) {
        redundant = j < i;  // keep the first of identical candidates
      } else if (o.cells.size() > c.cells.size()) {
        const CellList rev(o.cells.rbegin(), o.cells.rend());
        redundant = contains_run(o.cells, c.cells) || contains_run(rev, c.cells);
      }
    }
    if (!redundant) lines.push_back(c);
  }
  return lines;
}

// The generator computes slider attacks as the union, over the lines through a cell, of the
// stretch between the nearest blockers on either side. That is exact only if each such
// half-line is one of the cell's rays and every ray lies on some line; and between-sets are
// well defined only if no two lines join the same pair of cells by different stretches.
void check_lines(const Layout& lay) {
  for (int cell = 0; cell < lay.cell_count; ++cell) {
    for (int diagonal = 0; diagonal < 2; ++diagonal) {
      const auto& rays = diagonal ? lay.bishop_rays[cell] : lay.rook_rays[cell];
      std::set<CellList> halves;
      for (const Line& line : lay.lines) {
        if (line.diagonal != bool(diagonal)) continue;
        auto it = std::find(line.cells.begin(), line.cells.end(), cell);
        if (it == line.cells.end()) continue;
        CellList up(it + 1, line.cells.end());
        CellList down(std::make_reverse_iterator(it), line.cells.rend());
        for (const CellList& half : {up, down}) {
          if (half.empty()) continue;
          if (std::find(rays.begin(), rays.end(), half) == rays.end())
            throw std::logic_error("line half is not a ray at " + lay.names[cell]);
          halves.insert(half);
        }
      }
      for (const CellList& r : rays)
        if (!halves.count(r)) {
          std::string cells;
          for (int c : r) cells += " " + lay.names[c];
          throw std::logic_error("ray not on a line at " + lay.names[cell] + ":" + cells);
        }
    }
  }
}

}  // namespace

int Layout::cell_index(const std::string& name) const {
  for (int i = 0; i < cell_count; ++i) {
    const std::string& n = names[i];
    if (n.size() == name.size() &&
        std::equal(n.begin(), n.end(), name.begin(), [](char a, char b) { return std::tolower(a) == std::tolower(b); }))
      return i;
  }
  return NO_CELL;
}

namespace {

// Every seat's view of the board, checked to be a symmetry: a one-to-one map of the cells that
// carries the seat's army, its pawns' moves and every piece's moves onto seat 0's.
std::vector<std::vector<int>> seat_frames(const Layout& lay) {
  const Geometry& g = *lay.geometry;
  const int n = lay.cell_count;
  std::vector<std::vector<int>> frames(lay.colour_count, std::vector<int>(n));
  auto sorted_turn = [&](const CellList& cells, const std::vector<int>& frame) {
    CellList out;
    for (int c : cells) out.push_back(frame[c]);
    std::sort(out.begin(), out.end());
    return out;
  };
  auto sorted = [](CellList cells) {
    std::sort(cells.begin(), cells.end());
    return cells;
  };
  for (int seat = 0; seat < lay.colour_count; ++seat) {
    std::vector<int>& frame = frames[seat];
    std::vector<bool> hit(n, false);
    for (int cell = 0; cell < n; ++cell) {
      frame[cell] = g.turned(cell, seat);
      if (frame[cell] < 0 || frame[cell] >= n || hit[frame[cell]]) throw std::logic_error("seat frame not one-to-one");
      hit[frame[cell]] = true;
    }
    for (int cell = 0; cell < n; ++cell) {
      const int to = frame[cell];
      const int push = lay.pawn_push[seat][cell];
      if ((push == NO_CELL ? NO_CELL : frame[push]) != lay.pawn_push[0][to] ||
          sorted_turn(lay.pawn_captures[seat][cell], frame) != sorted(lay.pawn_captures[0][to]) ||
          sorted_turn(lay.knight_targets[cell], frame) != sorted(lay.knight_targets[to]) ||
          sorted_turn(lay.king_targets[cell], frame) != sorted(lay.king_targets[to]))
        throw std::logic_error("seat frame is not a symmetry of the board");
    }
  }
  return frames;
}

}  // namespace

Layout build_layout(const Geometry& g) {
  Layout lay;
  lay.geometry = &g;
  lay.cell_count = g.cell_count();
  lay.colour_count = g.colour_count();
  const int n = lay.cell_count, colours = lay.colour_count;
  if (n > MAX_CELLS || colours > MAX_COLOURS) throw std::logic_error("board too large");

  lay.rook_rays.resize(n);
  lay.bishop_rays.resize(n);
  lay.king_targets.resize(n);
  lay.knight_targets.resize(n);
  for (int cell = 0; cell < n; ++cell) {
    lay.names.push_back(g.cell_name(cell));
    lay.dark.push_back(g.is_dark(cell));
    for (Dir d : ALL_DIRS) {
      add_unique(lay.rook_rays[cell], ray(g, cell, {d}));
      add_unique(lay.king_targets[cell], g.step(cell, d, false).cell);
    }
    for (Dir a : FILE_DIRS)
      for (Dir b : RANK_DIRS) {
        add_unique(lay.bishop_rays[cell], ray(g, cell, {a, b}));
        add_unique(lay.bishop_rays[cell], ray(g, cell, {b, a}));
      }
    for (Dir a : FILE_DIRS)
      for (int c : diagonal_neighbours(g, cell, a)) add_unique(lay.king_targets[cell], c);
    // Knight: X,X,Y and X,Y,Y with X and Y on different axes.
    for (Dir x : ALL_DIRS)
      for (Dir y : ALL_DIRS) {
        if (same_axis(x, y)) continue;
        add_unique(lay.knight_targets[cell], walk(g, {cell, false}, {x, x, y}).cell);
        add_unique(lay.knight_targets[cell], walk(g, {cell, false}, {x, y, y}).cell);
      }
  }

  lay.pawn_push.assign(colours, std::vector<int>(n, NO_CELL));
  lay.pawn_double_step.assign(colours, std::vector<int>(n, NO_CELL));
  lay.pawn_captures.assign(colours, std::vector<CellList>(n));
  lay.promotion_cells.resize(colours);
  lay.castling.resize(colours);
  for (int colour = 0; colour < colours; ++colour) {
    for (int cell = 0; cell < n; ++cell) {
      if (g.is_promotion_cell(colour, cell)) {
        lay.promotion_cells[colour].push_back(cell);
        continue;  // a pawn never stands there
      }
      const Dir fwd = g.pawn_forward(colour, cell);
      const Step one = g.step(cell, fwd, false);
      lay.pawn_push[colour][cell] = one.cell;
      if (one.cell != NO_CELL && g.is_double_step_start(colour, cell))
        lay.pawn_double_step[colour][cell] = g.step(one.cell, fwd, one.flip).cell;
      lay.pawn_captures[colour][cell] = diagonal_neighbours(g, cell, fwd);
    }
    for (int side = 0; side < 2; ++side) {
      CastlingRule& rule = lay.castling[colour][side];
      rule.cells = g.castling(colour, side);
      const auto& c = rule.cells;
      // Castling happens along the back rank, a rook line through king and rook.
      for (const CellList& r : lay.rook_rays[c.king_from]) {
        auto rook = std::find(r.begin(), r.end(), c.rook_from);
        auto king = std::find(r.begin(), r.end(), c.king_to);
        if (rook == r.end() || king == r.end()) continue;
        rule.must_be_empty.assign(r.begin(), rook);
        for (auto it = r.begin(); it <= king; ++it) rule.king_path.push_back(*it);
      }
      add_unique(rule.must_be_empty, c.king_to);
      add_unique(rule.must_be_empty, c.rook_to);
      if (rule.king_path.empty()) throw std::logic_error("castling rook not on the king's line");
    }
  }

  lay.lines = maximal_lines(lay);
  if (int(lay.lines.size()) > MAX_LINES) throw std::logic_error("too many lines");
  for (const Line& line : lay.lines)
    if (int(line.cells.size()) > MAX_LINE_LENGTH) throw std::logic_error("line too long");
  check_lines(lay);
  lay.rows = g.rows();
  lay.turned = seat_frames(lay);
  std::tie(lay.grid_rows, lay.grid_cols) = g.grid_size();
  std::vector<bool> used(size_t(lay.grid_rows) * lay.grid_cols, false);
  for (int cell = 0; cell < n; ++cell) {
    const int index = g.grid_index(cell);
    if (index < 0 || index >= int(used.size()) || used[index]) throw std::logic_error("grid index not one-to-one");
    used[index] = true;
    lay.grid_index.push_back(index);
  }
  return lay;
}

}  // namespace polychess
