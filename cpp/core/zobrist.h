// Zobrist keys: one random 64-bit number per feature of a position. A position's key is the
// XOR of the keys of its features; make/unmake update it incrementally.
#pragma once

#include <cstdint>

#include "base/types.h"

namespace polychess {

struct ZobristKeys {
  uint64_t piece[MAX_COLOURS][KIND_NB][MAX_CELLS];
  uint64_t turn[MAX_PLAYERS];
  uint64_t castling[256];                // by the whole rights mask
  uint64_t en_passant[MAX_CELLS];        // by skipped cell
  uint64_t controller[MAX_COLOURS][16];  // by player, or NOBODY
  uint64_t status[MAX_PLAYERS][3];
  uint64_t last_capture[MAX_PLAYERS][16];  // whose piece the player took last turn
};

// Computed at compile time, so that it is ready before any static initialiser runs and is
// read without a guard in the hot paths.
extern const ZobristKeys ZOBRIST_KEYS;
inline const ZobristKeys& zobrist() { return ZOBRIST_KEYS; }

}  // namespace polychess
