#include "zobrist.h"

namespace polychess {
namespace {

// splitmix64: a fixed seed keeps keys, and so hashes, identical from run to run.
struct SplitMix {
  uint64_t state = 0x9E3779B97F4A7C15ull;
  constexpr uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

constexpr ZobristKeys build() {
  ZobristKeys k{};
  SplitMix rng;
  for (auto& by_kind : k.piece)
    for (auto& by_cell : by_kind)
      for (auto& key : by_cell) key = rng.next();
  for (auto& key : k.turn) key = rng.next();
  k.castling[0] = 0;
  uint64_t right[8] = {};
  for (auto& key : right) key = rng.next();
  for (int mask = 1; mask < 256; ++mask)
    for (int bit = 0; bit < 8; ++bit)
      if (mask >> bit & 1) k.castling[mask] ^= right[bit];
  for (auto& key : k.en_passant) key = rng.next();
  for (auto& by_player : k.controller)
    for (auto& key : by_player) key = rng.next();
  for (auto& by_status : k.status)
    for (auto& key : by_status) key = rng.next();
  for (auto& by_victim : k.last_capture)
    for (auto& key : by_victim) key = rng.next();
  return k;
}

}  // namespace

constexpr ZobristKeys ZOBRIST_KEYS = build();

}  // namespace polychess
