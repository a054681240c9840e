// Move ordering for the search: the table move first, then captures that do not lose
// material (by victim value, then the cheapest attacker), promotions, the killer moves of the
// ply, the move that last refuted the previous move (counter-move), quiet checks, the other
// quiet moves by history, and last the captures the static exchange says lose material.
//
// The history is kept bounded ("gravity"): a bonus moves an entry toward the maximum by a
// share of the distance left, and the quiet moves tried before a refutation get the same
// amount as a malus, so the table keeps ranking moves after long games instead of saturating.
#pragma once

#include <array>
#include <cstdlib>
#include <memory>

#include "core/placement.h"
#include "core/position.h"
#include "search/search.h"
#include "search/see.h"

namespace polychess {

constexpr int HISTORY_MAX = 1 << 14;

template <int W>
class MoveOrder {
 public:
  MoveOrder()
      : history_(std::make_unique<CellTable>()), counter_(std::make_unique<std::array<Move, MAX_CELLS * MAX_CELLS>>()) {
    for (auto& row : *history_) row.fill(0);
    counter_->fill(MOVE_NONE);
  }

  static bool is_quiet(const Position<W>& pos, Move m) { return !pos.is_capture(m) && !move_promotion(m); }

  // `previous` is the move played just before (MOVE_NONE at the root or after a pass).
  void sort(const Position<W>& pos, Move* moves, int n, Move tt_move, int ply, Move previous = MOVE_NONE) const {
    int keys[MAX_MOVES];
    const Move counter = previous != MOVE_NONE ? (*counter_)[cell_pair(previous)] : MOVE_NONE;
    const CheckCells checks(pos);
    for (int i = 0; i < n; ++i) keys[i] = key(pos, moves[i], tt_move, ply, counter, checks);
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

  // A move refuted the position at `depth`: a quiet one becomes a killer, the counter-move to
  // `previous` and gains history; the quiet moves tried before it (`tried`) lose as much.
  void reward(const Position<W>& pos, Move m, int depth, int ply, Move previous = MOVE_NONE,
              const Move* tried = nullptr, int tried_count = 0) {
    if (m == MOVE_NONE || !is_quiet(pos, m)) return;
    if (killers_[ply][0] != m) {
      killers_[ply][1] = killers_[ply][0];
      killers_[ply][0] = m;
    }
    if (previous != MOVE_NONE) (*counter_)[cell_pair(previous)] = m;
    const int bonus = std::min(depth * depth * 16, HISTORY_MAX / 4);
    update(m, bonus);
    for (int i = 0; i < tried_count; ++i)
      if (tried[i] != m) update(tried[i], -bonus);
  }

  // The quiet move's history, in [-HISTORY_MAX, HISTORY_MAX].
  int history(Move m) const { return (*history_)[move_from(m)][move_to(m)]; }
  bool is_killer(Move m, int ply) const { return m == killers_[ply][0] || m == killers_[ply][1]; }

 private:
  using CellTable = std::array<std::array<int32_t, MAX_CELLS>, MAX_CELLS>;

  static int cell_pair(Move m) { return move_from(m) * MAX_CELLS + move_to(m); }

  // The cells from which each kind of piece would check an active enemy king of the player
  // to move: a quiet move onto one of them checks (discovered checks are not seen).
  struct CheckCells {
    Bitboard<W> knight = Bitboard<W>::empty(), bishop = Bitboard<W>::empty(), rook = Bitboard<W>::empty();
    int kings[MAX_PLAYERS];
    int king_count = 0;
    explicit CheckCells(const Position<W>& pos) {
      const Topology<W>& t = pos.topo();
      const int me = pos.turn();
      for (int p = 0; p < pos.players(); ++p) {
        if (!pos.is_enemy(me, p) || pos.meta().status[p] != ACTIVE) continue;
        const int king = pos.king_of(p);
        if (king == NO_CELL) continue;
        kings[king_count++] = king;
        knight |= t.knight[king];
        bishop |= t.bishop_attacks(king, pos.occupancy());
        rook |= t.rook_attacks(king, pos.occupancy());
      }
    }
    bool checks(const Position<W>& pos, Move m) const {
      const int to = move_to(m);
      const Piece piece = pos.piece_at(move_from(m));
      switch (kind_of(piece)) {
        case PAWN:
          for (int k = 0; k < king_count; ++k)
            if (pos.topo().pawn_attackers[colour_of(piece)][kings[k]].test(to)) return true;
          return false;
        case KNIGHT:
          return knight.test(to);
        case BISHOP:
          return bishop.test(to);
        case ROOK:
          return rook.test(to);
        case QUEEN:
        case ONE_POINT_QUEEN:
          return bishop.test(to) || rook.test(to);
        default:
          return false;
      }
    }
  };

  void update(Move m, int bonus) {
    int32_t& h = (*history_)[move_from(m)][move_to(m)];
    h += bonus - h * std::abs(bonus) / HISTORY_MAX;
  }

  int key(const Position<W>& pos, Move m, Move tt_move, int ply, Move counter, const CheckCells& checks) const {
    if (m == tt_move) return 1 << 30;
    const Piece victim = move_type(m) == EN_PASSANT ? make_piece(0, PAWN) : pos.piece_at(move_to(m));
    if (victim) {
      // A king left attacked by a player who moved before its owner is taken: it ends his game.
      if (kind_of(victim) == KING) return 1 << 29;
      const int attacker = kind_of(pos.piece_at(move_from(m)));
      const int mvv_lva = PIECE_VALUE[kind_of(victim)] * 16 - attacker;
      // Only a capture by a more valuable piece can lose the exchange.
      const bool losing = PIECE_VALUE[kind_of(victim)] < PIECE_VALUE[attacker] && static_exchange(pos, m) < 0;
      return losing ? -(1 << 24) + mvv_lva : (1 << 28) + mvv_lva;
    }
    if (move_promotion(m)) return (1 << 27) + PIECE_VALUE[move_promotion(m)];
    if (m == killers_[ply][0]) return (1 << 26) + 2;
    if (m == killers_[ply][1]) return (1 << 26) + 1;
    if (m == counter) return 1 << 26;
    if (checks.checks(pos, m)) return (1 << 25) + history(m);
    return history(m);
  }

  Move killers_[MAX_PLY][2] = {};
  std::unique_ptr<CellTable> history_;
  std::unique_ptr<std::array<Move, MAX_CELLS * MAX_CELLS>> counter_;
};

}  // namespace polychess
