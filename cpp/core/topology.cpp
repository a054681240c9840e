#include "core/topology.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "base/random.h"

namespace polychess {
namespace {

template <int W>
Bitboard<W> set_of(const CellList& cells) {
  auto b = Bitboard<W>::empty();
  for (int c : cells) b.set(c);
  return b;
}

template <int W>
void add_slot(LineSlot (&slots)[MAX_SLOTS], uint8_t& count, LineSlot s) {
  if (count == MAX_SLOTS) throw std::logic_error("too many lines through one cell");
  slots[count++] = s;
}

// Guarantees that move lists fit in MAX_MOVES: every colour has at most
// MAX_PIECES_PER_COLOUR pieces (position strings are checked for that), each with no more
// moves than the best-placed queen, promoting pawn or knight on an empty board, plus a king
// and two castlings.
void check_move_bound(const Layout& lay) {
  size_t most = 0;
  for (int c = 0; c < lay.cell_count; ++c) {
    size_t queen = lay.knight_targets[c].size();
    size_t reach = 0;
    for (const CellList& r : lay.rook_rays[c]) reach += r.size();
    for (const CellList& r : lay.bishop_rays[c]) reach += r.size();  // forks count twice: an over-estimate
    queen = std::max(queen, reach);
    for (int colour = 0; colour < lay.colour_count; ++colour)
      queen = std::max(queen, 4 * (2 + lay.pawn_captures[colour][c].size()));
    most = std::max(most, queen);
  }
  const size_t per_colour = (MAX_PIECES_PER_COLOUR - 1) * most + 8 + 2;
  if (per_colour * lay.colour_count > size_t(MAX_MOVES)) throw std::logic_error("MAX_MOVES too small for this board");
}

// Groups the colour's pawn moves by how far they move in the cell numbering (Topology::PawnShifts).
template <int W>
void group_pawn_moves(Topology<W>& t, const Layout& lay, int colour) {
  using PawnShift = typename Topology<W>::PawnShift;
  auto& shifts = t.pawn_shifts[colour];
  shifts = {};
  shifts.by_sets = colour < lay.colour_count;
  auto add = [&](PawnShift(&groups)[Topology<W>::MAX_PAWN_SHIFTS], uint8_t& count, int from, int to, int skip) {
    const int by = to - from;
    if (by <= -64 || by >= 64) shifts.by_sets = false;
    for (int g = 0; g < count; ++g)
      if (groups[g].by == by && groups[g].skip == skip) {
        groups[g].from.set(from);
        return;
      }
    if (count == Topology<W>::MAX_PAWN_SHIFTS) {
      shifts.by_sets = false;
      return;
    }
    groups[count++] = {Bitboard<W>::cell(from), int16_t(by), int16_t(skip)};
  };
  for (int c = 0; shifts.by_sets && c < lay.cell_count; ++c) {
    const int push = lay.pawn_push[colour][c];
    if (push != NO_CELL) add(shifts.push, shifts.push_count, c, push, 0);
    const int landing = lay.pawn_double_step[colour][c];
    if (landing != NO_CELL) add(shifts.double_step, shifts.double_count, c, landing, push - c);
    for (int target : lay.pawn_captures[colour][c]) add(shifts.capture, shifts.capture_count, c, target, 0);
  }
}

// Tables every slider's attacks, found along the lines, for each arrangement of the cells that
// can block it, and finds for each cell a factor that numbers the arrangements without two of
// different attacks meeting. The index has one bit more than the blockers: the table doubles
// (1.7 MB for standard chess) and a factor is found in a few tries instead of tens of thousands.
template <int W>
void table_sliders(Topology<W>& t, const Layout& lay) {
  constexpr int SPARE_BITS = 1;
  SplitMix random;
  uint32_t size = 0;
  for (const bool diagonal : {false, true}) {
    for (int c = 0; c < t.cell_count; ++c) {
      const LineSlot* slots = diagonal ? t.bishop_slots[c] : t.rook_slots[c];
      const int slot_count = diagonal ? t.bishop_slot_count[c] : t.rook_slot_count[c];
      auto& magic = diagonal ? t.bishop_magic[c] : t.rook_magic[c];
      magic.blockers = 0;
      for (int i = 0; i < slot_count; ++i) {
        const CellList& cells = lay.lines[slots[i].line].cells;
        for (int j = 1; j + 1 < int(cells.size()); ++j)
          if (j != slots[i].pos) magic.blockers |= uint64_t(1) << cells[j];
      }
      const int bits = std::popcount(magic.blockers) + SPARE_BITS;
      magic.start = size;
      magic.shift = 64 - bits;
      size += uint32_t(1) << bits;
      t.slider_attacks.resize(size);

      std::vector<uint64_t> arrangements;
      std::vector<Bitboard<W>> attacks;
      uint64_t arrangement = 0;
      do {  // every subset of the blockers, in turn
        uint16_t line_occ[MAX_LINES] = {};
        for (uint64_t b = arrangement; b; b &= b - 1) t.toggle_lines(line_occ, std::countr_zero(b));
        arrangements.push_back(arrangement);
        attacks.push_back(diagonal ? t.bishop_attacks_along_lines(c, line_occ)
                                   : t.rook_attacks_along_lines(c, line_occ));
        arrangement = (arrangement - magic.blockers) & magic.blockers;
      } while (arrangement);

      std::vector<int> filled_by_try(size_t(1) << bits, 0);
      for (int attempt = 1;; ++attempt) {
        do magic.factor = random.next() & random.next() & random.next();  // few bits set: fewer collisions
        while (std::popcount((magic.blockers * magic.factor) >> 56) < 6);
        bool fits = true;
        for (size_t i = 0; fits && i < arrangements.size(); ++i) {
          const uint32_t k = magic.index(arrangements[i]);
          if (filled_by_try[k - magic.start] != attempt) {
            filled_by_try[k - magic.start] = attempt;
            t.slider_attacks[k] = attacks[i];
          } else fits = t.slider_attacks[k] == attacks[i];
        }
        if (fits) break;
      }
    }
  }
}

template <int W>
std::unique_ptr<Topology<W>> build(const Variant& v) {
  const Layout& lay = v.layout;
  auto t = std::make_unique<Topology<W>>();
  using BB = Bitboard<W>;
  t->variant = &v;
  const int n = t->cell_count = lay.cell_count;
  t->all = BB::empty();
  for (int c = 0; c < n; ++c) t->all.set(c);

  for (int c = 0; c < n; ++c) {
    t->only[c] = BB::cell(c);
    t->king[c] = set_of<W>(lay.king_targets[c]);
    t->knight[c] = set_of<W>(lay.knight_targets[c]);
    t->rook_reach[c] = t->bishop_reach[c] = BB::empty();
    for (const CellList& r : lay.rook_rays[c]) t->rook_reach[c] |= set_of<W>(r);
    for (const CellList& r : lay.bishop_rays[c]) t->bishop_reach[c] |= set_of<W>(r);
    t->rook_slot_count[c] = t->bishop_slot_count[c] = t->slot_count[c] = 0;
  }

  t->line_count = int(lay.lines.size());
  t->pairs.assign(size_t(n) * n, LinePair{});
  for (int li = 0; li < t->line_count; ++li) {
    const Line& line = lay.lines[li];
    const int len = int(line.cells.size());
    t->line_top[li] = uint16_t(1u << (len - 1));
    for (int i = 0; i <= len; ++i) {
      t->span_from[li][i] = BB::empty();
      for (int j = i; j < len; ++j) t->span_from[li][i].set(line.cells[j]);
    }
    for (int i = 0; i < len; ++i) {
      const int c = line.cells[i];
      const LineSlot s{uint8_t(li), uint8_t(i)};
      if (line.diagonal) add_slot<W>(t->bishop_slots[c], t->bishop_slot_count[c], s);
      else add_slot<W>(t->rook_slots[c], t->rook_slot_count[c], s);
      add_slot<W>(t->slots[c], t->slot_count[c], s);
      for (int j = i + 1; j < len; ++j) {
        LinePair p{uint8_t(li), uint8_t(i), uint8_t(j)};
        for (auto [a, b] : {std::pair{c, line.cells[j]}, std::pair{line.cells[j], c}}) {
          LinePair& slot = t->pairs[size_t(a) * n + b];
          if (slot.line != 0xFF) {
            // Forked lines share stretches; the stretch between the two cells must agree.
            const auto old_between = t->span_from[slot.line][slot.lo + 1].minus(t->span_from[slot.line][slot.hi]);
            const auto new_between = t->span_from[li][i + 1].minus(t->span_from[li][j]);
            if (old_between != new_between)
              throw std::logic_error("two lines join " + lay.names[a] + " and " + lay.names[b]);
            continue;
          }
          slot = p;
        }
      }
    }
  }

  if constexpr (Topology<W>::MAGIC_SLIDERS) table_sliders(*t, lay);

  for (int colour = 0; colour < MAX_COLOURS; ++colour) {
    t->promotion[colour] = BB::empty();
    for (int c = 0; c < MAX_CELLS; ++c) {
      t->pawn_push[colour][c] = t->pawn_double[colour][c] = NO_CELL;
      t->pawn_capture[colour][c] = t->pawn_attackers[colour][c] = BB::empty();
    }
  }
  for (int c = 0; c < MAX_CELLS; ++c) {
    t->pawn_attackers_of_any[c] = BB::empty();
    t->landing_of_skipped[c] = NO_CELL;
    t->colour_of_skipped[c] = -1;
    t->castling_lost[c] = 0;
  }
  for (int colour = 0; colour < lay.colour_count; ++colour) {
    t->promotion[colour] = set_of<W>(lay.promotion_cells[colour]);
    for (int c = 0; c < n; ++c) {
      t->pawn_push[colour][c] = int16_t(lay.pawn_push[colour][c]);
      t->pawn_double[colour][c] = int16_t(lay.pawn_double_step[colour][c]);
      t->pawn_capture[colour][c] = set_of<W>(lay.pawn_captures[colour][c]);
      for (int target : lay.pawn_captures[colour][c]) {
        t->pawn_attackers[colour][target].set(c);
        t->pawn_attackers_of_any[target].set(c);
      }
      const int landing = lay.pawn_double_step[colour][c];
      if (landing != NO_CELL) {
        const int skipped = lay.pawn_push[colour][c];
        if (t->colour_of_skipped[skipped] != -1) throw std::logic_error("shared skipped cell");
        t->landing_of_skipped[skipped] = int16_t(landing);
        t->colour_of_skipped[skipped] = int8_t(colour);
      }
    }
    for (int side = 0; side < 2; ++side) {
      const CastlingRule& rule = lay.castling[colour][side];
      auto& c = t->castle[colour][side];
      c.king_from = rule.cells.king_from;
      c.king_to = rule.cells.king_to;
      c.rook_from = rule.cells.rook_from;
      c.rook_to = rule.cells.rook_to;
      c.must_be_empty = set_of<W>(rule.must_be_empty);
      c.king_path = set_of<W>(rule.king_path);
      const uint8_t right = uint8_t(1u << (colour * 2 + side));
      t->castling_lost[c.king_from] |= right;
      t->castling_lost[c.rook_from] |= right;
    }
  }
  for (int colour = 0; colour < MAX_COLOURS; ++colour) group_pawn_moves(*t, lay, colour);
  check_move_bound(lay);
  return t;
}

}  // namespace

template <int W>
const Topology<W>& topology_of(const Variant& variant) {
  static std::mutex mutex;
  static std::map<const Variant*, std::unique_ptr<Topology<W>>> built;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = built[&variant];
  if (!slot) slot = build<W>(variant);
  return *slot;
}

template const Topology<1>& topology_of<1>(const Variant&);
template const Topology<2>& topology_of<2>(const Variant&);
template const Topology<3>& topology_of<3>(const Variant&);

}  // namespace polychess
