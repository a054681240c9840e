// Alpha-beta with quiescence: where two sides alternate (standard chess, four-player teams)
// plain minimax with principal-variation search, null-move pruning and late-move reductions;
// in the multi-player games the paranoid search (every opponent minimises the root player's
// score), and the root player's layers of best-reply search.
#include "searcher.h"

namespace polychess {

template <int W>
int Searcher<W>::alphabeta(int depth, int alpha, int beta, int ply) {
  if (!visit(ply)) return 0;
  if (decided()) return decided_score(ply);
  if (ply >= MAX_PLY - 1) return evaluate();

  const uint64_t key = tt_key();
  Move tt_move = MOVE_NONE;
  if (TTEntry e; tt_.probe(key, e)) {
    tt_move = e.move;
    if (ply > 0 && e.depth >= depth) {
      const int s = from_tt(e.score, ply);
      if (e.bound == BOUND_EXACT || (e.bound == BOUND_LOWER && s >= beta) || (e.bound == BOUND_UPPER && s <= alpha))
        return s;
    }
  }

  if (ply > 0 && repeats()) return draw_score(ply);
  if (depth <= 0) return quiesce(alpha, beta, ply, 0);
  Move moves[MAX_MOVES];
  const int n = legal_moves(pos_, moves);
  if (n == 0) return stuck(depth, alpha, beta, ply, -1);
  settle(n);
  if (decided()) return decided_score(ply);

  const bool maximizing = on_root_side(pos_.turn());
  // (A frozen root player never moves again: the opponents' turns do not come back to him.)
  if (algorithm_ == Algorithm::BRS && !maximizing && status(root_) == ACTIVE)
    return best_reply(depth, alpha, beta, ply, moves, n, tt_move, key);
  const bool checked = in_check();

  // Null move, where the sides alternate: if passing still fails high for this side, a real
  // move will too.
  if (two_sides_ && ply > 0 && depth >= 4 && !checked && has_pieces(pos_.turn())) {
    pos_.make_null();
    const int reduced = depth - 3;
    const int score =
        maximizing ? alphabeta(reduced, beta - 1, beta, ply + 1) : alphabeta(reduced, alpha, alpha + 1, ply + 1);
    pos_.unmake();
    if (stopped_) return 0;
    if (maximizing ? score >= beta : score <= alpha) return score;
  }

  order_.sort(pos_, moves, n, tt_move, ply);
  const int alpha0 = alpha, beta0 = beta;
  int best = maximizing ? -INFINITE_SCORE : INFINITE_SCORE;
  Move best_move = MOVE_NONE;
  for (int i = 0; i < n; ++i) {
    const Move m = moves[i];
    const bool quiet = !MoveOrder<W>::is_capture(pos_, m) && !move_promotion(m);
    play(m);
    tt_.prefetch(tt_key());
    const int extension = in_check() && ply < 2 * depth + 8 ? 1 : 0;
    const int next = depth - 1 + extension;
    int score;
    if (i == 0) {
      score = alphabeta(next, alpha, beta, ply + 1);
    } else {
      // Principal variation search: later moves get a null window around the bound this side
      // is trying to beat, and late quiet moves a reduced depth; either is searched again in
      // full if it beats the bound.
      const int reduction = ply > 0 && depth >= 3 && i >= 3 && quiet && !extension && !checked ? 1 + (i >= 8) : 0;
      const int lo = maximizing ? alpha : beta - 1, hi = lo + 1;
      auto beats = [&](int s) { return maximizing ? s > alpha : s < beta; };
      score = alphabeta(next - reduction, lo, hi, ply + 1);
      if (reduction && beats(score)) score = alphabeta(next, lo, hi, ply + 1);
      if (beats(score) && (maximizing ? score < beta : score > alpha)) score = alphabeta(next, alpha, beta, ply + 1);
    }
    take_back();
    if (stopped_) return 0;
    if (maximizing ? score > best : score < best) {
      best = score;
      best_move = m;
      extend_pv(ply, m);
    }
    if (maximizing) alpha = std::max(alpha, best);
    else beta = std::min(beta, best);
    if (alpha >= beta) {
      order_.reward(pos_, m, depth, ply);
      break;
    }
  }
  const Bound bound = maximizing ? (best <= alpha0 ? BOUND_UPPER
                                    : best >= beta ? BOUND_LOWER
                                                   : BOUND_EXACT)
                                 : (best >= beta0   ? BOUND_LOWER
                                    : best <= alpha ? BOUND_UPPER
                                                    : BOUND_EXACT);
  tt_.store(key, best_move, to_tt(best, ply), depth, bound);
  return best;
}

// The player to move has no legal move: the rules decide his fate (the state's judgement of
// the turn) and, unless that decides the game, the next player moves, in the main search
// (qply < 0) or in quiescence.
template <int W>
int Searcher<W>::stuck(int depth, int alpha, int beta, int ply, int qply) {
  pv_length_[ply] = ply;
  if (!state_.pending()) return evaluate();  // judged already: nobody can move (a passed turn)
  settle(0);
  if (decided()) return decided_score(ply);
  return qply < 0 ? alphabeta(depth, alpha, beta, ply + 1) : quiesce(alpha, beta, ply + 1, qply + 1);
}

// Captures and promotions only, with the static value as a floor for the mover; in its first
// plies every answer to a check as well. Its depth is capped: with three or four players
// capture sequences can otherwise run on for dozens of plies.
template <int W>
int Searcher<W>::quiesce(int alpha, int beta, int ply, int qply) {
  if (!visit(ply)) return 0;
  if (decided()) return decided_score(ply);
  if (ply >= MAX_PLY - 1 || qply >= MAX_QUIESCENCE_PLIES) return evaluate();
  const bool maximizing = on_root_side(pos_.turn());
  const bool checked = qply < QUIESCENCE_CHECK_PLIES && in_check();
  int best = maximizing ? -INFINITE_SCORE : INFINITE_SCORE;
  if (!checked) {
    // Stand pat before generating anything: most of these nodes end here. Lazy evaluation:
    // material and placement alone settle a cut-off when they pass the bound by more than
    // the positional terms can take back.
    Values values = quick_values();
    const int quick = root_score(values);
    if (maximizing ? quick - LAZY_MARGIN >= beta : quick + LAZY_MARGIN <= alpha) return quick;
    add_positional(values);
    best = root_score(values);
    if (maximizing ? best >= beta : best <= alpha) return best;
    if (maximizing) alpha = std::max(alpha, best);
    else beta = std::min(beta, best);
  }
  Move moves[MAX_MOVES];
  const int n = checked ? legal_moves(pos_, moves) : legal_captures(pos_, moves);
  if (checked) {
    if (n == 0) return stuck(0, alpha, beta, ply, qply);
    settle(n);
    if (decided()) return decided_score(ply);
  }
  order_.sort(pos_, moves, n, MOVE_NONE, ply);
  for (int i = 0; i < n; ++i) {
    play(moves[i]);
    const int score = quiesce(alpha, beta, ply + 1, qply + 1);
    take_back();
    if (stopped_) return 0;
    if (maximizing ? score > best : score < best) best = score;
    if (maximizing) alpha = std::max(alpha, best);
    else beta = std::min(beta, best);
    if (alpha >= beta) break;
  }
  return best;
}

#define POLYCHESS_ALPHABETA(W)                              \
  template int Searcher<W>::alphabeta(int, int, int, int);  \
  template int Searcher<W>::stuck(int, int, int, int, int); \
  template int Searcher<W>::quiesce(int, int, int, int);
POLYCHESS_ALPHABETA(1)
POLYCHESS_ALPHABETA(2)
POLYCHESS_ALPHABETA(3)

}  // namespace polychess
