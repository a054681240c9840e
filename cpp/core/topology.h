// The hot-path form of a layout: bitboard tables indexed by cell, built once per variant.
//
// Sliders use straight lines (layout.h) kept as small occupancy words in ray order inside the
// position, one word per line, updated on every piece move. A slider's attacks along one line
// are the stretch between the nearest occupied cells on either side, found with two bit scans
// and two table look-ups. This works for any board, including the forked diagonals through
// the hexagon's centre (a fork is simply two lines sharing their first cells).
//
// A one-word board (standard chess) goes further: each slider's attacks for every arrangement of
// the cells that can block it are tabled once, from the lines, and found with one multiply by a
// magic number (found when the table is built, not written down) and one look-up. The line
// words are then not needed and not kept.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "base/bitboard.h"
#include "games/variant.h"

namespace polychess {

struct LineSlot {
  uint8_t line;
  uint8_t pos;  // position of the cell along the line
};

// Where two cells lie on a common line: that line and their two positions, lower first.
struct LinePair {
  uint8_t line = 0xFF;
  uint8_t lo = 0, hi = 0;
};

constexpr int MAX_SLOTS = 12;

// The pieces on the board as a slider sees them: the occupied cells, and the same cells as one
// word per line (not read, nor kept, where Topology::MAGIC_SLIDERS).
template <int W>
struct Occupancy {
  Bitboard<W> cells;
  const uint16_t* lines;
};

template <int W>
struct Topology {
  using BB = Bitboard<W>;
  static constexpr bool MAGIC_SLIDERS = W == 1;

  const Variant* variant;
  int cell_count;
  BB all;

  BB only[MAX_CELLS];  // the one-cell sets
  BB king[MAX_CELLS], knight[MAX_CELLS];
  BB rook_reach[MAX_CELLS], bishop_reach[MAX_CELLS];  // on an empty board

  int line_count;
  uint16_t line_top[MAX_LINES];                  // bit of the line's last position
  BB span_from[MAX_LINES][MAX_LINE_LENGTH + 1];  // cells at positions >= i
  uint8_t rook_slot_count[MAX_CELLS], bishop_slot_count[MAX_CELLS], slot_count[MAX_CELLS];
  LineSlot rook_slots[MAX_CELLS][MAX_SLOTS], bishop_slots[MAX_CELLS][MAX_SLOTS];
  LineSlot slots[MAX_CELLS][MAX_SLOTS];  // every line through the cell
  std::vector<LinePair> pairs;           // [a * cell_count + b]

  // Where MAGIC_SLIDERS, for each cell: the cells that can block a slider there (the line ends
  // cannot: nothing lies beyond them), and how an arrangement of them numbers its attacks.
  struct Magic {
    uint64_t blockers, factor;
    uint32_t start;  // in slider_attacks
    int shift;
    uint32_t index(uint64_t occupied) const { return start + uint32_t(((occupied & blockers) * factor) >> shift); }
  };
  Magic rook_magic[MAX_CELLS], bishop_magic[MAX_CELLS];
  std::vector<BB> slider_attacks;

  int16_t pawn_push[MAX_COLOURS][MAX_CELLS];
  int16_t pawn_double[MAX_COLOURS][MAX_CELLS];
  BB pawn_capture[MAX_COLOURS][MAX_CELLS];
  BB pawn_attackers[MAX_COLOURS][MAX_CELLS];  // pawns of the colour that capture on cell
  BB pawn_attackers_of_any[MAX_CELLS];        // those cells for every colour at once
  BB promotion[MAX_COLOURS];
  // A colour's pawn moves as a few shifts of whole sets (the move counters of movegen.h): for
  // each distance a pawn moves in the numbering, the cells whose pawn moves that far. A double
  // step's group has its first step's distance too (`skip`, to the skipped cell). `by_sets` is
  // false where a colour needs more groups than fit, or a distance of 64 or more.
  static constexpr int MAX_PAWN_SHIFTS = 8;
  struct PawnShift {
    BB from;
    int16_t by, skip;
  };
  struct PawnShifts {
    bool by_sets;
    uint8_t push_count, double_count, capture_count;
    PawnShift push[MAX_PAWN_SHIFTS], double_step[MAX_PAWN_SHIFTS], capture[MAX_PAWN_SHIFTS];
  } pawn_shifts[MAX_COLOURS];
  int16_t landing_of_skipped[MAX_CELLS];  // double step that skips this cell
  int8_t colour_of_skipped[MAX_CELLS];

  struct Castle {
    int king_from, king_to, rook_from, rook_to;
    BB must_be_empty, king_path;
  } castle[MAX_COLOURS][2];
  uint8_t castling_lost[MAX_CELLS];  // rights lost when a move starts or ends on the cell

  // Cells strictly between a and b on their common line (empty if they share none).
  BB between(int a, int b) const {
    const LinePair& p = pairs[a * cell_count + b];
    if (p.line == 0xFF) return BB::empty();
    return span_from[p.line][p.lo + 1].minus(span_from[p.line][p.hi]);
  }

  // Flips the cell's bit in the occupancy word of every line through it.
  void toggle_lines(uint16_t* line_occ, int cell) const {
    for (int i = 0; i < slot_count[cell]; ++i) line_occ[slots[cell][i].line] ^= uint16_t(1u << slots[cell][i].pos);
  }

  // The stretch of the line a slider on the slot's cell sees, the cell itself included.
  BB line_stretch(LineSlot s, const uint16_t* line_occ) const {
    const uint32_t occ = line_occ[s.line];
    const uint32_t below = (occ & ((1u << s.pos) - 1)) | 1u;
    const uint32_t above = (occ & (~1u << s.pos)) | line_top[s.line];
    const int lo = std::bit_width(below) - 1, hi = std::countr_zero(above);
    return span_from[s.line][lo].minus(span_from[s.line][hi + 1]);
  }
  // The cell itself is taken out of the union with a table's set, not by flipping its bit: the
  // set stays in registers (a bit flipped in a word picked at run time sends it through memory).
  BB rook_attacks_along_lines(int cell, const uint16_t* line_occ) const {
    BB a = BB::empty();
    for (int i = 0; i < rook_slot_count[cell]; ++i) a |= line_stretch(rook_slots[cell][i], line_occ);
    return a.minus(only[cell]);
  }
  BB bishop_attacks_along_lines(int cell, const uint16_t* line_occ) const {
    BB a = BB::empty();
    for (int i = 0; i < bishop_slot_count[cell]; ++i) a |= line_stretch(bishop_slots[cell][i], line_occ);
    return a.minus(only[cell]);
  }

  BB rook_attacks(int cell, Occupancy<W> occ) const {
    if constexpr (MAGIC_SLIDERS) return slider_attacks[rook_magic[cell].index(occ.cells.word(0))];
    return rook_attacks_along_lines(cell, occ.lines);
  }
  BB bishop_attacks(int cell, Occupancy<W> occ) const {
    if constexpr (MAGIC_SLIDERS) return slider_attacks[bishop_magic[cell].index(occ.cells.word(0))];
    return bishop_attacks_along_lines(cell, occ.lines);
  }
};

// A position's occupancy with some cells flipped (a piece lifted, a move made), for asking what
// would then be attacked without making the move.
template <int W>
struct FlippedOccupancy {
  Bitboard<W> cells;
  uint16_t lines[MAX_LINES];

  void copy(const Topology<W>& t, Occupancy<W> from) {
    cells = from.cells;
    if constexpr (!Topology<W>::MAGIC_SLIDERS) std::memcpy(lines, from.lines, sizeof(uint16_t) * t.line_count);
  }
  void flip(const Topology<W>& t, int cell) {
    cells.toggle(cell);
    if constexpr (!Topology<W>::MAGIC_SLIDERS) t.toggle_lines(lines, cell);
  }
  Occupancy<W> view() const { return {cells, lines}; }
};

// Built on first use and kept for the life of the process.
template <int W>
const Topology<W>& topology_of(const Variant& variant);

}  // namespace polychess
