// A set of cells as W 64-bit words. Each board uses the narrowest width that holds it
// (standard chess 1 word, the hexagon 2, the cross 3), and everything above the bitboard is a
// template on W, so a variant pays only for the words it needs.
#pragma once

#include <bit>
#include <cstdint>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

// Built with AVX2, the bitboards of two and three words are vectors (below), passed and returned
// in vector registers; built without, in general registers or memory. The tag (on the template:
// every width, where AVX2 is on) gives every function whose signature holds a bitboard a name of
// its own, so that code built without AVX2 never calls one built with it, or the other way round
// (CMakeLists.txt links both into one module). A struct holding a bitboard alone, passed by
// value, would need the tag too. MSVC passes both kinds by address.
#if defined(__AVX2__) && (defined(__GNUC__) || defined(__clang__))
#define POLYCHESS_VECTOR_ABI [[gnu::abi_tag("avx2")]]
#else
#define POLYCHESS_VECTOR_ABI
#endif

namespace polychess {

// Its size and alignment are those of the vector the AVX2 build keeps it in (below): 16 bytes
// for two words, 32 for three (a fourth word, always zero), so that code built for different
// instruction-set levels shares every layout (CMakeLists.txt).
constexpr int bitboard_storage_words(int words) { return words == 3 ? 4 : words; }

template <int W>
struct POLYCHESS_VECTOR_ABI alignas(8 * bitboard_storage_words(W)) Bitboard {
  uint64_t w[bitboard_storage_words(W)];

  static constexpr Bitboard empty() {
    Bitboard b{};
    return b;
  }
  static constexpr Bitboard cell(int i) {
    Bitboard b{};
    b.w[i >> 6] = uint64_t(1) << (i & 63);
    return b;
  }

  constexpr uint64_t word(int i) const { return w[i]; }
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
  // Every cell moved `by` places up the numbering (down where negative), |by| < 64; cells moved
  // past either end are dropped. Moves pawns of one kind of step all at once (topology.h).
  constexpr Bitboard shifted(int by) const {
    Bitboard r{};
    if (by >= 0) {
      for (int i = 0; i < W; ++i) r.w[i] = w[i] << by | (i > 0 && by > 0 ? w[i - 1] >> (64 - by) : 0);
    } else {
      const int down = -by;
      for (int i = 0; i < W; ++i) r.w[i] = w[i] >> down | (i + 1 < W ? w[i + 1] << (64 - down) : 0);
    }
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

#if defined(__AVX2__)
// The hexagon's two words as one 128-bit vector where the CPU has AVX2 (for the variable
// shifts that make a one-cell set).
template <>
struct alignas(16) Bitboard<2> {
  __m128i v;

  static Bitboard empty() { return {_mm_setzero_si128()}; }
  static Bitboard cell(int i) {
    // 1 shifted left by i - 64 * lane: the other lane's count is out of range and gives zero.
    const __m128i lane_start = _mm_set_epi64x(64, 0);
    return {_mm_sllv_epi64(_mm_set1_epi64x(1), _mm_sub_epi64(_mm_set1_epi64x(i), lane_start))};
  }

  uint64_t word(int i) const { return uint64_t(i == 0 ? _mm_cvtsi128_si64(v) : _mm_extract_epi64(v, 1)); }
  bool test(int i) const { return !_mm_testz_si128(v, cell(i).v); }
  void set(int i) { v = _mm_or_si128(v, cell(i).v); }
  void toggle(int i) { v = _mm_xor_si128(v, cell(i).v); }
  void reset(int i) { v = _mm_andnot_si128(cell(i).v, v); }

  bool any() const { return !_mm_testz_si128(v, v); }
  bool none() const { return !any(); }
  explicit operator bool() const { return any(); }
  int count() const { return std::popcount(word(0)) + std::popcount(word(1)); }
  bool more_than_one() const { return count() > 1; }
  int first() const {
    if (const uint64_t x = word(0)) return std::countr_zero(x);
    return 64 + std::countr_zero(word(1));
  }

  Bitboard operator&(const Bitboard& o) const { return {_mm_and_si128(v, o.v)}; }
  Bitboard operator|(const Bitboard& o) const { return {_mm_or_si128(v, o.v)}; }
  Bitboard operator^(const Bitboard& o) const { return {_mm_xor_si128(v, o.v)}; }
  Bitboard operator~() const { return {_mm_xor_si128(v, _mm_set1_epi64x(-1))}; }
  Bitboard minus(const Bitboard& o) const { return {_mm_andnot_si128(o.v, v)}; }
  // As the generic form: each word shifted, and the bits that cross into the next word (a shift
  // count of 64 gives zero).
  Bitboard shifted(int by) const {
    if (by >= 0)
      return {_mm_or_si128(_mm_sll_epi64(v, _mm_cvtsi32_si128(by)),
                           _mm_srl_epi64(_mm_slli_si128(v, 8), _mm_cvtsi32_si128(64 - by)))};
    return {_mm_or_si128(_mm_srl_epi64(v, _mm_cvtsi32_si128(-by)),
                         _mm_sll_epi64(_mm_srli_si128(v, 8), _mm_cvtsi32_si128(64 + by)))};
  }
  Bitboard& operator&=(const Bitboard& o) { return *this = *this & o; }
  Bitboard& operator|=(const Bitboard& o) { return *this = *this | o; }
  Bitboard& operator^=(const Bitboard& o) { return *this = *this ^ o; }
  bool operator==(const Bitboard& o) const { return (*this ^ o).none(); }
  bool operator!=(const Bitboard& o) const { return !(*this == o); }
};

// The cross's three words as one 256-bit vector, the fourth lane always zero, where the CPU has
// AVX2: each whole-set operation is one instruction and sets stay in vector registers.
template <>
struct alignas(32) Bitboard<3> {
  __m256i v;

  static Bitboard empty() { return {_mm256_setzero_si256()}; }
  static Bitboard cell(int i) {
    // 1 shifted left by i - 64 * lane: lanes other than i's shift by 64 or more, or by a
    // "negative" (huge) count, and come out zero.
    const __m256i lane_start = _mm256_setr_epi64x(0, 64, 128, 192);
    return {_mm256_sllv_epi64(_mm256_set1_epi64x(1), _mm256_sub_epi64(_mm256_set1_epi64x(i), lane_start))};
  }

  // Lanes read from registers (no trip through memory); i is a constant once inlined.
  uint64_t word(int i) const {
    const __m128i half = i < 2 ? _mm256_castsi256_si128(v) : _mm256_extracti128_si256(v, 1);
    return uint64_t(i % 2 == 0 ? _mm_cvtsi128_si64(half) : _mm_extract_epi64(half, 1));
  }
  bool test(int i) const { return !_mm256_testz_si256(v, cell(i).v); }
  void set(int i) { v = _mm256_or_si256(v, cell(i).v); }
  void toggle(int i) { v = _mm256_xor_si256(v, cell(i).v); }
  void reset(int i) { v = _mm256_andnot_si256(cell(i).v, v); }

  bool any() const { return !_mm256_testz_si256(v, v); }
  bool none() const { return !any(); }
  explicit operator bool() const { return any(); }
  int count() const { return std::popcount(word(0)) + std::popcount(word(1)) + std::popcount(word(2)); }
  bool more_than_one() const { return count() > 1; }
  int first() const {
    if (const uint64_t x = word(0)) return std::countr_zero(x);
    if (const uint64_t x = word(1)) return 64 + std::countr_zero(x);
    return 128 + std::countr_zero(word(2));
  }

  Bitboard operator&(const Bitboard& o) const { return {_mm256_and_si256(v, o.v)}; }
  Bitboard operator|(const Bitboard& o) const { return {_mm256_or_si256(v, o.v)}; }
  Bitboard operator^(const Bitboard& o) const { return {_mm256_xor_si256(v, o.v)}; }
  Bitboard operator~() const { return {_mm256_xor_si256(v, _mm256_setr_epi64x(-1, -1, -1, 0))}; }
  Bitboard minus(const Bitboard& o) const { return {_mm256_andnot_si256(o.v, v)}; }
  // As the generic form: each word shifted, and the bits that cross into the next word (a shift
  // count of 64 gives zero); the fourth word is kept zero.
  Bitboard shifted(int by) const {
    __m256i r;
    if (by >= 0) {
      const __m256i word_below = _mm256_permute4x64_epi64(v, _MM_SHUFFLE(2, 1, 0, 3));  // lane i: word i - 1
      r = _mm256_or_si256(_mm256_sll_epi64(v, _mm_cvtsi32_si128(by)),
                          _mm256_srl_epi64(word_below, _mm_cvtsi32_si128(64 - by)));
    } else {
      const __m256i word_above = _mm256_permute4x64_epi64(v, _MM_SHUFFLE(3, 3, 2, 1));  // lane i: word i + 1
      r = _mm256_or_si256(_mm256_srl_epi64(v, _mm_cvtsi32_si128(-by)),
                          _mm256_sll_epi64(word_above, _mm_cvtsi32_si128(64 + by)));
    }
    return {_mm256_and_si256(r, _mm256_setr_epi64x(-1, -1, -1, 0))};
  }
  Bitboard& operator&=(const Bitboard& o) { return *this = *this & o; }
  Bitboard& operator|=(const Bitboard& o) { return *this = *this | o; }
  Bitboard& operator^=(const Bitboard& o) { return *this = *this ^ o; }
  bool operator==(const Bitboard& o) const { return (*this ^ o).none(); }
  bool operator!=(const Bitboard& o) const { return !(*this == o); }
};
#endif

static_assert(sizeof(Bitboard<2>) == 16 && alignof(Bitboard<2>) == 16);
static_assert(sizeof(Bitboard<3>) == 32 && alignof(Bitboard<3>) == 32);

// Calls f(cell) for every cell of b, lowest first.
template <int W, class F>
inline void for_each_cell(const Bitboard<W>& b, F&& f) {
  for (int i = 0; i < W; ++i) {
    uint64_t x = b.word(i);
    while (x) {
      f(i * 64 + std::countr_zero(x));
      x &= x - 1;
    }
  }
}

}  // namespace polychess
