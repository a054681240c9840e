// The network's three kernels, written for the vector units a build targets: AVX-512BW, AVX2 or
// AArch64's NEON, chosen when compiling (the core is built once per instruction-set level,
// CMakeLists.txt), and a portable loop for every other CPU. GCC at -O3 vectorizes the
// portable loops for AVX2 as well (measured: the same nodes/s); written out, the vector code
// no longer depends on one compiler's judgement of a loop, and each target is tested (the
// main CI run the vector kernels of the level the CPU loads, the sanitizer run the portable ones).
//
// Lengths are multiples of HIDDEN_STEP (network.h): 16 values, one AVX2 register.
#pragma once

#include <algorithm>
#include <cstdint>

// AArch64 always has NEON; GCC and Clang say so with __ARM_NEON, MSVC only with _M_ARM64.
#if (defined(__ARM_NEON) && defined(__aarch64__)) || defined(_M_ARM64)
#define POLYCHESS_NEON
#endif

#if defined(__AVX512BW__) || defined(__AVX2__)
#include <immintrin.h>
#elif defined(POLYCHESS_NEON)
#include <arm_neon.h>
#endif

namespace polychess::simd {

// Which of the kernels this build runs ("avx512bw", "avx2", "neon" or "portable").
constexpr const char* KERNELS =
#if defined(__AVX512BW__)
    "avx512bw";
#elif defined(__AVX2__)
    "avx2";
#elif defined(POLYCHESS_NEON)
    "neon";
#else
    "portable";
#endif

// acc[i] += row[i] (sign < 0: -=), i < n; wrapping as int16 arithmetic does (the network's
// bounds, checked on load, keep every accumulator in range).
template <int Sign>
inline void accumulate(int16_t* acc, const int16_t* row, int n) {
  int i = 0;
#if defined(__AVX512BW__)
  for (; i + 32 <= n; i += 32) {
    const __m512i a = _mm512_loadu_si512(acc + i), w = _mm512_loadu_si512(row + i);
    _mm512_storeu_si512(acc + i, Sign > 0 ? _mm512_add_epi16(a, w) : _mm512_sub_epi16(a, w));
  }
#endif
#if defined(__AVX2__)
  for (; i + 16 <= n; i += 16) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + i));
    const __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(acc + i),
                        Sign > 0 ? _mm256_add_epi16(a, w) : _mm256_sub_epi16(a, w));
  }
#elif defined(POLYCHESS_NEON)
  for (; i + 8 <= n; i += 8) {
    const int16x8_t a = vld1q_s16(acc + i), w = vld1q_s16(row + i);
    vst1q_s16(acc + i, Sign > 0 ? vaddq_s16(a, w) : vsubq_s16(a, w));
  }
#endif
  for (; i < n; ++i) acc[i] = int16_t(Sign > 0 ? acc[i] + row[i] : acc[i] - row[i]);
}

// sum of clamp(acc[i], 0, top) * weight[i], i < n, in 32 bits (the bounds checked on load keep
// every partial sum in range).
inline int32_t clipped_dot(const int16_t* acc, const int16_t* weight, int n, int16_t top) {
  int i = 0;
  int32_t sum = 0;
#if defined(__AVX512BW__)
  {
    const __m512i zero = _mm512_setzero_si512(), ceiling = _mm512_set1_epi16(top);
    __m512i sums = zero;
    for (; i + 32 <= n; i += 32) {
      const __m512i a = _mm512_min_epi16(_mm512_max_epi16(_mm512_loadu_si512(acc + i), zero), ceiling);
      sums = _mm512_add_epi32(sums, _mm512_madd_epi16(a, _mm512_loadu_si512(weight + i)));
    }
    alignas(64) int32_t lanes[16];  // (GCC 12's _mm512_reduce_add_epi32 warns of its own header)
    _mm512_store_si512(lanes, sums);
    for (int32_t lane : lanes) sum += lane;
  }
#endif
#if defined(__AVX2__)
  {
    const __m256i zero = _mm256_setzero_si256(), ceiling = _mm256_set1_epi16(top);
    __m256i sums = zero;
    for (; i + 16 <= n; i += 16) {
      const __m256i raw = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + i));
      const __m256i a = _mm256_min_epi16(_mm256_max_epi16(raw, zero), ceiling);
      const __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(weight + i));
      sums = _mm256_add_epi32(sums, _mm256_madd_epi16(a, w));
    }
    const __m128i half = _mm_add_epi32(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
    const __m128i quarter = _mm_add_epi32(half, _mm_shuffle_epi32(half, _MM_SHUFFLE(1, 0, 3, 2)));
    sum += _mm_cvtsi128_si32(_mm_add_epi32(quarter, _mm_shuffle_epi32(quarter, _MM_SHUFFLE(2, 3, 0, 1))));
  }
#elif defined(POLYCHESS_NEON)
  {
    const int16x8_t zero = vdupq_n_s16(0), ceiling = vdupq_n_s16(top);
    int32x4_t sums = vdupq_n_s32(0);
    for (; i + 8 <= n; i += 8) {
      const int16x8_t a = vminq_s16(vmaxq_s16(vld1q_s16(acc + i), zero), ceiling);
      const int16x8_t w = vld1q_s16(weight + i);
      sums = vmlal_s16(sums, vget_low_s16(a), vget_low_s16(w));
      sums = vmlal_high_s16(sums, a, w);
    }
    sum += vaddvq_s32(sums);
  }
#endif
  for (; i < n; ++i) sum += int32_t(std::clamp<int16_t>(acc[i], 0, top)) * weight[i];
  return sum;
}

}  // namespace polychess::simd
