// The transposition table: a fixed array of entries indexed by the low bits of the position
// key, shared by every search of one Engine and by the threads of a parallel search.
// Depth-preferred replacement: an entry is overwritten by a search of at least the same
// depth, or by any other position.
//
// An entry is two 64-bit words written and read as relaxed atomics: the threads never wait
// on each other, and the first word is stored XOR the second, so an entry torn by two
// threads writing at once fails the key check instead of pairing one position's key with
// another's data.
#pragma once

#include <atomic>
#if defined(_MSC_VER) && defined(_M_X64)
#include <xmmintrin.h>
#endif
#include <cstddef>
#include <cstdint>
#include <memory>

#include "base/types.h"

namespace polychess {

constexpr size_t MAX_HASH_MB = 1 << 20;  // the largest table resize() makes

enum Bound : uint8_t { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

struct TTEntry {
  Move move;
  int32_t score;
  int16_t depth;
  uint8_t bound;
  uint8_t generation;
};

class TranspositionTable {
 public:
  explicit TranspositionTable(size_t megabytes = 16) { resize(megabytes); }
  void resize(size_t megabytes);  // std::invalid_argument beyond MAX_HASH_MB
  void clear();
  void new_search() { generation_ = uint8_t(generation_ + 1); }
  size_t size() const { return count_; }

  // The entry stored for this key, if any.
  bool probe(uint64_t key, TTEntry& out) const {
    if (!count_) return false;
    const Slot& s = slots_[key & mask_];
    const uint64_t data = s.data.load(std::memory_order_relaxed);
    const uint64_t check = s.check.load(std::memory_order_relaxed) ^ data;
    if (uint32_t(check >> 32) != uint32_t(key >> 32)) return false;
    out = unpack(check, data);
    return out.bound != BOUND_NONE;
  }

  // Starts loading the key's slot into the cache, for a probe soon after.
  void prefetch(uint64_t key) const {
    if (!count_) return;
#if defined(__GNUC__)
    __builtin_prefetch(&slots_[key & mask_]);
#elif defined(_MSC_VER) && defined(_M_X64)
    _mm_prefetch(reinterpret_cast<const char*>(&slots_[key & mask_]), _MM_HINT_T0);
#endif
  }

  void store(uint64_t key, Move move, int score, int depth, Bound bound) {
    if (!count_) return;
    Slot& s = slots_[key & mask_];
    const uint64_t old_data = s.data.load(std::memory_order_relaxed);
    const uint64_t old_check = s.check.load(std::memory_order_relaxed) ^ old_data;
    const bool same = uint32_t(old_check >> 32) == uint32_t(key >> 32);
    const TTEntry old = unpack(old_check, old_data);
    if (old.bound != BOUND_NONE && old.generation == generation_) {
      if (same && depth < old.depth && bound != BOUND_EXACT) return;
      if (!same && depth < old.depth - 2) return;
    }
    if (move == MOVE_NONE && same) move = old.move;
    const uint64_t data = uint64_t(move) | uint64_t(uint32_t(score)) << 32;
    const uint64_t check =
        (key & 0xFFFFFFFF00000000ull) | uint64_t(uint16_t(depth)) << 16 | uint64_t(bound) << 8 | generation_;
    s.data.store(data, std::memory_order_relaxed);
    s.check.store(check ^ data, std::memory_order_relaxed);
  }

 private:
  struct Slot {
    std::atomic<uint64_t> check{0};  // key's high half | depth | bound | generation, XOR data
    std::atomic<uint64_t> data{0};   // move | score
  };

  static Slot* allocate(size_t count);

  static TTEntry unpack(uint64_t check, uint64_t data) {
    return TTEntry{Move(uint32_t(data)), int32_t(uint32_t(data >> 32)), int16_t(uint16_t(check >> 16)),
                   uint8_t(check >> 8), uint8_t(check)};
  }

  struct Free {
    void operator()(Slot* p) const;
  };
  std::unique_ptr<Slot[], Free> slots_;
  size_t count_ = 0;
  uint64_t mask_ = 0;
  uint8_t generation_ = 0;
};

}  // namespace polychess
