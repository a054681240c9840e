#include "tt.h"

namespace polychess {

void TranspositionTable::resize(size_t megabytes) {
  slots_.reset();
  count_ = 0;
  mask_ = 0;
  if (megabytes == 0) return;  // a table of size 0 turns the table off
  size_t count = 1;
  while (count * 2 * sizeof(Slot) <= megabytes * 1024 * 1024) count *= 2;
  slots_ = std::make_unique<Slot[]>(count);
  count_ = count;
  mask_ = count - 1;
}

void TranspositionTable::clear() {
  for (size_t i = 0; i < count_; ++i) {
    slots_[i].check.store(0, std::memory_order_relaxed);
    slots_[i].data.store(0, std::memory_order_relaxed);
  }
}

}  // namespace polychess
