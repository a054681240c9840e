#include "tt.h"

namespace polychess {

void TranspositionTable::resize(size_t megabytes) {
  entries_.clear();
  mask_ = 0;
  if (megabytes == 0) return;  // a table of size 0 turns the table off
  size_t count = 1;
  while (count * 2 * sizeof(TTEntry) <= megabytes * 1024 * 1024) count *= 2;
  entries_.assign(count, TTEntry{0, MOVE_NONE, 0, 0, BOUND_NONE, 0});
  mask_ = count - 1;
}

void TranspositionTable::clear() {
  for (TTEntry& e : entries_) e = TTEntry{0, MOVE_NONE, 0, 0, BOUND_NONE, 0};
}

}  // namespace polychess
