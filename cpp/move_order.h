// Move ordering for the search: the table move first, then captures by victim value (and the
// cheapest attacker), promotions, the killer moves of the ply and the history of quiet moves
// that refuted positions.
#pragma once

#include <array>
#include <memory>

#include "placement.h"
#include "position.h"
#include "search.h"

namespace polychess {

template <int W>
class MoveOrder {
 public:
  MoveOrder() : history_(std::make_unique<std::array<std::array<int32_t, MAX_CELLS>, MAX_CELLS>>()) {
    for (auto& row : *history_) row.fill(0);
  }

  static bool is_capture(const Position<W>& pos, Move m) {
    return pos.piece_at(move_to(m)) != NO_PIECE || move_type(m) == EN_PASSANT;
  }

  void sort(const Position<W>& pos, Move* moves, int n, Move tt_move, int ply) const {
    int keys[MAX_MOVES];
    for (int i = 0; i < n; ++i) keys[i] = key(pos, moves[i], tt_move, ply);
    for (int i = 1; i < n; ++i) {  // insertion sort: lists are short and mostly ordered
      const Move m = moves[i];
      const int k = keys[i];
      int j = i - 1;
      for (; j >= 0 && keys[j] < k; --j) {
        moves[j + 1] = moves[j];
        keys[j + 1] = keys[j];
      }
      moves[j + 1] = m;
      keys[j + 1] = k;
    }
  }

  // A quiet move that refuted the position: remembered for ordering elsewhere.
  void reward(const Position<W>& pos, Move m, int depth, int ply) {
    if (m == MOVE_NONE || is_capture(pos, m)) return;
    if (killers_[ply][0] != m) {
      killers_[ply][1] = killers_[ply][0];
      killers_[ply][0] = m;
    }
    (*history_)[move_from(m)][move_to(m)] += depth * depth;
  }

 private:
  int key(const Position<W>& pos, Move m, Move tt_move, int ply) const {
    if (m == tt_move) return 1 << 30;
    const Piece victim = move_type(m) == EN_PASSANT ? make_piece(0, PAWN) : pos.piece_at(move_to(m));
    if (victim) return (1 << 28) + PIECE_VALUE[kind_of(victim)] * 16 - kind_of(pos.piece_at(move_from(m)));
    if (move_promotion(m)) return (1 << 27) + PIECE_VALUE[move_promotion(m)];
    if (m == killers_[ply][0]) return (1 << 26) + 1;
    if (m == killers_[ply][1]) return 1 << 26;
    return (*history_)[move_from(m)][move_to(m)];
  }

  Move killers_[MAX_PLY][2] = {};
  std::unique_ptr<std::array<std::array<int32_t, MAX_CELLS>, MAX_CELLS>> history_;
};

}  // namespace polychess
