// What the threads of one parallel search share besides the table.
//
// Lazy SMP alone (threads searching the same tree, meeting only in the table) walks the same
// moves in the same order on every thread, so a second thread bought no time to depth
// (bench/README.md). The threads therefore also announce the moves they are searching: a
// thread that meets a move another is busy with puts it off to the end of its list, by when
// the other's result is usually in the table (Kerrigan's simplified ABDADA). And the answer is
// the deepest iteration any thread completes: a helper that finishes the asked depth first
// ends the search.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "base/types.h"
#include "search/search.h"

namespace polychess {

// The moves being searched right now, by position and move: a small table of tags, where a
// collision only makes a thread put a move off needlessly or search it twice, never wrongly.
class BusyMoves {
 public:
  bool taken(uint64_t key, Move m) const { return slot(key, m).load(std::memory_order_relaxed) == tag(key, m); }
  void enter(uint64_t key, Move m) { slot(key, m).store(tag(key, m), std::memory_order_relaxed); }
  void leave(uint64_t key, Move m) {
    uint32_t mine = tag(key, m);
    slot(key, m).compare_exchange_strong(mine, 0, std::memory_order_relaxed);
  }

 private:
  static constexpr size_t SIZE = size_t(1) << 15;
  static uint64_t mix(uint64_t key, Move m) { return key ^ (uint64_t(m) * 0x9E3779B97F4A7C15ull); }
  static uint32_t tag(uint64_t key, Move m) { return uint32_t(mix(key, m) >> 32) | 1u; }
  std::atomic<uint32_t>& slot(uint64_t key, Move m) { return slots_[mix(key, m) & (SIZE - 1)]; }
  const std::atomic<uint32_t>& slot(uint64_t key, Move m) const { return slots_[mix(key, m) & (SIZE - 1)]; }
  std::array<std::atomic<uint32_t>, SIZE> slots_{};
};

struct ThreadShare {
  std::atomic<uint64_t> nodes{0};            // every thread's nodes, for the node limit
  std::unique_ptr<BusyMoves> busy;           // only where there are several threads (128 KB to clear)
  std::atomic<bool> last_depth_done{false};  // a thread completed the last depth: all stop
  std::mutex deepest_mutex;
  SearchReport deepest;  // the deepest iteration a thread completed (guarded by deepest_mutex)
};

}  // namespace polychess
