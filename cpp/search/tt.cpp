#include "search/tt.h"

#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#ifdef _WIN32
#include <malloc.h>
#endif
#ifdef __linux__
#include <sys/mman.h>
#endif

namespace polychess {
namespace {

constexpr size_t HUGE_PAGE = size_t(2) << 20;

}  // namespace

// Probes land anywhere in the table: on 2 MB pages (where the system grants them) they miss
// the TLB far less often than on 4 KB pages.
TranspositionTable::Slot* TranspositionTable::allocate(size_t count) {
  const size_t bytes = (count * sizeof(Slot) + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
#ifdef _WIN32
  void* memory = _aligned_malloc(bytes, HUGE_PAGE);  // Windows has no std::aligned_alloc
#else
  void* memory = std::aligned_alloc(HUGE_PAGE, bytes);
#endif
  if (!memory) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  madvise(memory, bytes, MADV_HUGEPAGE);
#endif
  Slot* slots = static_cast<Slot*>(memory);
  for (size_t i = 0; i < count; ++i) new (&slots[i]) Slot();
  return slots;
}

void TranspositionTable::Free::operator()(Slot* p) const {
#ifdef _WIN32
  _aligned_free(p);
#else
  std::free(p);
#endif
}

void TranspositionTable::resize(size_t megabytes) {
  if (megabytes > MAX_HASH_MB) throw std::invalid_argument("hash_mb must be at most " + std::to_string(MAX_HASH_MB));
  slots_.reset();
  count_ = 0;
  mask_ = 0;
  if (megabytes == 0) return;  // a table of size 0 turns the table off
  size_t count = 1;
  while (count * 2 * sizeof(Slot) <= megabytes * 1024 * 1024) count *= 2;
  slots_.reset(allocate(count));
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
