// Perft: the number of leaf nodes of the legal-move tree to a fixed depth, the standard test
// of a move generator. The last ply is bulk-counted (legal moves are counted, not played).
#pragma once

#include <atomic>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/movegen.h"

namespace polychess {

// A copy of `pos` to count on, so that the position itself stays usable meanwhile; depth 0 to
// 64, or std::invalid_argument.
template <int W>
Position<W> counting_copy(const Position<W>& pos, int depth) {
  if (depth < 0) throw std::invalid_argument("depth must be >= 0, got " + std::to_string(depth));
  if (depth > 64) throw std::invalid_argument("depth " + std::to_string(depth) + " is too large");
  Position<W> copy = pos;
  copy.reserve_history(size_t(depth) + 1);
  return copy;
}

// Counts leaves; stops early (returning a partial count) once *stop becomes true.
template <int W>
uint64_t perft(Position<W>& pos, int depth, const std::atomic<bool>* stop = nullptr) {
  if (depth <= 0) return 1;
  if (depth == 1) return count_legal_moves(pos);
  Move moves[MAX_MOVES];
  const int n = legal_moves(pos, moves);
  uint64_t nodes = 0;
  for (int i = 0; i < n; ++i) {
    if (stop && stop->load(std::memory_order_relaxed)) break;
    pos.make(moves[i]);
    nodes += perft(pos, depth - 1, stop);
    pos.unmake();
  }
  return nodes;
}

// The same count without bulk counting: every leaf is played (checks the counter sink).
template <int W>
uint64_t perft_full(Position<W>& pos, int depth) {
  if (depth <= 0) return 1;
  Move moves[MAX_MOVES];
  const int n = legal_moves(pos, moves);
  uint64_t nodes = 0;
  for (int i = 0; i < n; ++i) {
    pos.make(moves[i]);
    nodes += perft_full(pos, depth - 1);
    pos.unmake();
  }
  return nodes;
}

// Leaves below each legal move; stops early (partial counts) once *stop becomes true.
template <int W>
std::vector<std::pair<Move, uint64_t>> divide(Position<W>& pos, int depth, const std::atomic<bool>* stop = nullptr) {
  std::vector<std::pair<Move, uint64_t>> result;
  if (depth <= 0) return result;
  Move moves[MAX_MOVES];
  const int n = legal_moves(pos, moves);
  for (int i = 0; i < n; ++i) {
    if (stop && stop->load(std::memory_order_relaxed)) break;
    pos.make(moves[i]);
    result.push_back({moves[i], perft(pos, depth - 1, stop)});
    pos.unmake();
  }
  return result;
}

// The counts of each width, compiled once per instruction-set level in perft.cpp (`extern`
// here): every caller counts with its level's move generation.
#define POLYCHESS_PERFT_TEMPLATES(EXTERN, W)                                      \
  EXTERN template uint64_t perft<W>(Position<W>&, int, const std::atomic<bool>*); \
  EXTERN template uint64_t perft_full<W>(Position<W>&, int);                      \
  EXTERN template std::vector<std::pair<Move, uint64_t>> divide<W>(Position<W>&, int, const std::atomic<bool>*);

POLYCHESS_PERFT_TEMPLATES(extern, 1)
POLYCHESS_PERFT_TEMPLATES(extern, 2)
POLYCHESS_PERFT_TEMPLATES(extern, 3)

}  // namespace polychess
