// SplitMix64: a small, fast generator whose stream is fixed by its seed (Zobrist keys, playout
// moves, the learning environments' random actions).
#pragma once

#include <cstdint>

namespace polychess {

struct SplitMix {
  uint64_t state = 0x9E3779B97F4A7C15ull;
  constexpr uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n), without the bias of a modulo: the top 64 bits of next() x n, taken in
  // halves so that no 128-bit type is needed (MSVC has none).
  int below(int n) {
    const uint64_t x = next(), high = (x >> 32) * uint32_t(n), low = (x & 0xFFFFFFFFu) * uint32_t(n);
    return int((high + (low >> 32)) >> 32);
  }
};

}  // namespace polychess
