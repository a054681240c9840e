// The transposition table: a fixed array of entries indexed by the low bits of the position
// key, shared by every search of one Engine. Depth-preferred replacement: an entry is
// overwritten by a search of at least the same depth, or by any other position.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "types.h"

namespace polychess {

enum Bound : uint8_t { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

struct TTEntry {
  uint64_t key;
  Move move;
  int32_t score;
  int16_t depth;
  uint8_t bound;
  uint8_t generation;
};

class TranspositionTable {
 public:
  explicit TranspositionTable(size_t megabytes = 16) { resize(megabytes); }
  void resize(size_t megabytes);
  void clear();
  void new_search() { ++generation_; }
  size_t size() const { return entries_.size(); }

  // The entry for this key, or nullptr.
  const TTEntry* probe(uint64_t key) const {
    if (entries_.empty()) return nullptr;
    const TTEntry& e = entries_[key & mask_];
    return e.key == key && e.bound != BOUND_NONE ? &e : nullptr;
  }
  void store(uint64_t key, Move move, int score, int depth, Bound bound) {
    if (entries_.empty()) return;
    TTEntry& e = entries_[key & mask_];
    if (e.key == key && depth < e.depth && e.generation == generation_ && bound != BOUND_EXACT) return;
    if (e.key != key && e.generation == generation_ && depth < e.depth - 2) return;
    if (move == MOVE_NONE && e.key == key) move = e.move;
    e = TTEntry{key, move, score, int16_t(depth), uint8_t(bound), generation_};
  }

 private:
  std::vector<TTEntry> entries_;
  uint64_t mask_ = 0;
  uint8_t generation_ = 0;
};

}  // namespace polychess
