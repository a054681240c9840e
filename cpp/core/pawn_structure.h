// The pawn structure's features of each colour (passed pawns, how near they are, doubled pawns),
// and the cache that keeps them per pawn placement. They depend on nothing but where the pawns
// stand and who plays each colour against whom, which a search changes far more seldom than
// the rest of the position; so a search counts them once per pawn placement (the way classic
// engines keep a pawn hash table) and reads them back at every other evaluation of it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/eval_tables.h"
#include "core/position.h"

namespace polychess {

constexpr int PASSED_NEAR_STEPS = 6;  // a passed pawn this many pushes from promotion or more counts 0

struct PawnStructure {
  int16_t passed[MAX_COLOURS];       // pawns no enemy pawn stops or takes on their way to promotion
  int16_t passed_near[MAX_COLOURS];  // the pushes left to them, counted up from PASSED_NEAR_STEPS
  int16_t doubled[MAX_COLOURS];      // pawns with an own pawn on their way
};

// The features counted on the board. A colour whose owner is out (or that nobody plays) has none.
template <int W>
PawnStructure pawn_structure(const Position<W>& pos, const EvalTables<W>& e) {
  PawnStructure s{};
  const Bitboard<W> pawns = pos.kind_bb(PAWN);
  for (int c = 0; c < pos.colours(); ++c) {
    const int owner = pos.meta().controller[c];
    if (owner == NOBODY || pos.meta().status[owner] == OUT) continue;
    const Bitboard<W> mine = pos.colour_bb(c) & pawns;
    const Bitboard<W> enemy_pawns = pawns & pos.attacking_enemies_of(owner);
    for_each_cell(mine, [&](int cell) {
      if (e.pawn_way[c][cell] & mine) ++s.doubled[c];
      if (e.pushes_left[c][cell] > 0 && !(e.passed_span[c][cell] & enemy_pawns)) {
        ++s.passed[c];
        s.passed_near[c] += int16_t(std::max(0, PASSED_NEAR_STEPS - e.pushes_left[c][cell]));
      }
    });
  }
  return s;
}

// A 64-bit hash of everything the features depend on: the board, each colour's pawns, who
// controls each colour, each player's status and team. Never 0, the mark of an empty slot.
template <int W>
uint64_t pawn_structure_key(const Position<W>& pos) {
  auto mix = [](uint64_t h, uint64_t word) {
    h = (h ^ word) * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
  };
  uint64_t sides = 0, teams = 0;
  for (int i = 0; i < MAX_COLOURS; ++i) sides = sides << 8 | pos.meta().controller[i];
  for (int i = 0; i < MAX_PLAYERS; ++i) {
    sides = sides << 8 | pos.meta().status[i];
    teams = teams << 8 | uint64_t(pos.team(i));
  }
  uint64_t h = mix(mix(reinterpret_cast<uintptr_t>(&pos.topo()), teams), sides);
  const Bitboard<W> pawns = pos.kind_bb(PAWN);
  for (int c = 0; c < pos.colours(); ++c) {
    const Bitboard<W> mine = pos.colour_bb(c) & pawns;
    for (int i = 0; i < W; ++i) h = mix(h, mine.word(i));
  }
  return h | 1;
}

// Pawn structures by key, one per slot, the newest kept. Each searching thread has its own (it
// is read and written at every evaluation); the key names the board, so one cache may serve
// positions of every game.
class PawnStructureCache {
 public:
  template <int W>
  const PawnStructure& probe(const Position<W>& pos, const EvalTables<W>& e) {
    const uint64_t key = pawn_structure_key(pos);
    Entry& entry = entries_[(key >> 32) & (SLOTS - 1)];
    if (entry.key != key) {
      entry.key = key;
      entry.structure = pawn_structure(pos, e);
    }
    return entry.structure;
  }

 private:
  static constexpr size_t SLOTS = size_t(1) << 13;
  struct Entry {
    uint64_t key = 0;
    PawnStructure structure{};
  };
  std::vector<Entry> entries_ = std::vector<Entry>(SLOTS);
};

}  // namespace polychess
