// max^n: every player picks the move best for his own component of a score vector. Scores are
// not zero-sum once games end, so nothing is pruned; the table only orders moves.
#include "search/searcher.h"

namespace polychess {

template <int W>
Values Searcher<W>::maxn(int depth, int ply) {
  if (!visit(ply)) return {};
  if (decided()) return ended(ply);
  if (ply >= MAX_PLY - 1) return utilities(ply);
  if (ply > 0 && repeats()) return draw_values(ply);
  if (depth <= 0) return maxn_quiesce(ply, 0);

  const uint64_t key = tt_key();
  TTEntry e;
  const Move tt_move = probe_table(key, e, ply) ? e.move : MOVE_NONE;
  Move moves[MAX_MOVES];
  int n = legal_moves(pos_, moves);
  if (n == 0) return maxn_stuck(depth, ply, -1);
  settle(n);
  if (decided()) return ended(ply);
  if (ply == 0) n = keep_root_moves(moves, n);

  const int me = pos_.turn();
  order_.sort(pos_, moves, n, tt_move, ply);
  Values best{};
  best[me] = -INFINITE_SCORE;
  Move best_move = MOVE_NONE;
  for (int i = 0; i < n; ++i) {
    play(moves[i]);
    const int extension = in_check() && ply < 2 * depth + 8 ? 1 : 0;
    const Values v = maxn(depth - 1 + extension, ply + 1);
    take_back();
    if (stopped_) return {};
    if (v[me] > best[me]) {
      best = v;
      best_move = moves[i];
      extend_pv(ply, moves[i]);
    }
  }
  order_.reward(pos_, best_move, depth, ply);
  store_table(key, best_move, best[me], depth, BOUND_EXACT, ply);
  return best;
}

template <int W>
Values Searcher<W>::maxn_quiesce(int ply, int qply) {
  if (!visit(ply)) return {};
  if (decided()) return ended(ply);
  if (ply >= MAX_PLY - 1 || qply >= MAXN_QUIESCENCE_PLIES) return utilities(ply);
  const int me = pos_.turn();
  const bool checked = qply < QUIESCENCE_CHECK_PLIES && in_check();
  Move moves[MAX_MOVES];
  const int n = checked ? legal_moves(pos_, moves) : legal_captures(pos_, moves);
  if (checked) {
    if (n == 0) return maxn_stuck(0, ply, qply);
    settle(n);
    if (decided()) return ended(ply);
  }
  Values best{};
  best[me] = -INFINITE_SCORE;
  if (!checked) best = utilities(ply);
  order_.sort(pos_, moves, n, MOVE_NONE, ply);
  for (int i = 0; i < n; ++i) {
    play(moves[i]);
    const Values v = maxn_quiesce(ply + 1, qply + 1);
    take_back();
    if (stopped_) return {};
    if (v[me] > best[me]) best = v;
  }
  return best;
}

template <int W>
Values Searcher<W>::maxn_stuck(int depth, int ply, int qply) {
  pv_length_[ply] = ply;
  if (!state_.pending()) return utilities(ply);  // judged already: nobody can move (a passed turn)
  settle(0);
  if (decided()) return ended(ply);
  return qply < 0 ? maxn(depth, ply + 1) : maxn_quiesce(ply + 1, qply + 1);
}

// The end of the game, or the root player out while the others play on.
template <int W>
Values Searcher<W>::ended(int ply) const {
  if (state_.is_terminal()) return outcome(state_.facts(), ply);
  Values u = utilities(ply);
  u[root_] = decided_score(ply);
  return u;
}

#define POLYCHESS_MAXN(W)                              \
  template Values Searcher<W>::maxn(int, int);         \
  template Values Searcher<W>::maxn_quiesce(int, int); \
  template Values Searcher<W>::maxn_stuck(int, int, int);
POLYCHESS_MAXN(1)
POLYCHESS_MAXN(2)
POLYCHESS_MAXN(3)

}  // namespace polychess
