#include "core/zobrist.h"

#include "base/random.h"

namespace polychess {
namespace {

constexpr ZobristKeys build() {
  ZobristKeys k{};
  SplitMix rng;  // its fixed seed keeps keys, and so hashes, identical from run to run
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
