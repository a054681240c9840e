// A set of cells as W 64-bit words. Each board uses the narrowest width that holds it
// (standard chess 1 word, the hexagon 2, the cross 3), and everything above the bitboard is a
// template on W, so a variant pays only for the words it needs.
#pragma once

#include <bit>
#include <cstdint>

namespace polychess {

template <int W>
struct Bitboard {
  uint64_t w[W];

  static constexpr Bitboard empty() {
    Bitboard b{};
    return b;
  }
  static constexpr Bitboard cell(int i) {
    Bitboard b{};
    b.w[i >> 6] = uint64_t(1) << (i & 63);
    return b;
  }

  constexpr bool test(int i) const { return w[i >> 6] >> (i & 63) & 1; }
  constexpr void set(int i) { w[i >> 6] |= uint64_t(1) << (i & 63); }
  constexpr void toggle(int i) { w[i >> 6] ^= uint64_t(1) << (i & 63); }
  constexpr void reset(int i) { w[i >> 6] &= ~(uint64_t(1) << (i & 63)); }

  constexpr bool any() const {
    uint64_t x = 0;
    for (int i = 0; i < W; ++i) x |= w[i];
    return x != 0;
  }
  constexpr bool none() const { return !any(); }
  constexpr explicit operator bool() const { return any(); }

  constexpr int count() const {
    int n = 0;
    for (int i = 0; i < W; ++i) n += std::popcount(w[i]);
    return n;
  }
  constexpr bool more_than_one() const {
    if constexpr (W == 1) return (w[0] & (w[0] - 1)) != 0;
    return count() > 1;
  }
  // Lowest cell of a non-empty set.
  constexpr int first() const {
    for (int i = 0; i < W - 1; ++i)
      if (w[i]) return i * 64 + std::countr_zero(w[i]);
    return (W - 1) * 64 + std::countr_zero(w[W - 1]);
  }

  constexpr Bitboard operator&(const Bitboard& o) const {
    Bitboard r{};
    for (int i = 0; i < W; ++i) r.w[i] = w[i] & o.w[i];
    return r;
  }
  constexpr Bitboard operator|(const Bitboard& o) const {
    Bitboard r{};
    for (int i = 0; i < W; ++i) r.w[i] = w[i] | o.w[i];
    return r;
  }
  constexpr Bitboard operator^(const Bitboard& o) const {
    Bitboard r{};
    for (int i = 0; i < W; ++i) r.w[i] = w[i] ^ o.w[i];
    return r;
  }
  constexpr Bitboard operator~() const {
    Bitboard r{};
    for (int i = 0; i < W; ++i) r.w[i] = ~w[i];
    return r;
  }
  // this & ~o in one step
  constexpr Bitboard minus(const Bitboard& o) const {
    Bitboard r{};
    for (int i = 0; i < W; ++i) r.w[i] = w[i] & ~o.w[i];
    return r;
  }
  constexpr Bitboard& operator&=(const Bitboard& o) { return *this = *this & o; }
  constexpr Bitboard& operator|=(const Bitboard& o) { return *this = *this | o; }
  constexpr Bitboard& operator^=(const Bitboard& o) { return *this = *this ^ o; }
  constexpr bool operator==(const Bitboard& o) const {
    for (int i = 0; i < W; ++i)
      if (w[i] != o.w[i]) return false;
    return true;
  }
  constexpr bool operator!=(const Bitboard& o) const { return !(*this == o); }
};

// Calls f(cell) for every cell of b, lowest first.
template <int W, class F>
inline void for_each_cell(const Bitboard<W>& b, F&& f) {
  for (int i = 0; i < W; ++i) {
    uint64_t x = b.w[i];
    while (x) {
      f(i * 64 + std::countr_zero(x));
      x &= x - 1;
    }
  }
}

}  // namespace polychess
