// Best-reply search's opponents' layer: the opponents' turns collapse into one layer holding
// the best reply of any opponent, so the root player's plans are seen twice as deep.
#include "search/searcher.h"

namespace polychess {

// After this many of an opponent's moves, his quiet ones are reduced.
constexpr int BRS_REDUCTION_MOVES = 4;

// Every opponent in turn order offers his moves (the others passing), and the one worst for the
// root player is taken; then the root player moves again. `moves` holds the first opponent's
// moves. An opponent after the first who is already mated is eliminated first, as he would be
// when his turn came.
template <int W>
int Searcher<W>::best_reply(int depth, int alpha, int beta, int ply, Move* moves, int n, Move tt_move, uint64_t key) {
  if (int mated[MAX_PLAYERS], found = later_mated_opponents(mated); found) {
    int done = 0;
    for (; done < found && !state_.is_terminal(); ++done) state_.mate_out_of_turn(mated[done], root_);
    const int score = decided() ? decided_score(ply) : alphabeta(depth, alpha, beta, ply + 1);
    for (; done; --done) take_back();
    pv_length_[ply] = ply;
    return score;
  }
  const int beta0 = beta;
  int best = INFINITE_SCORE;
  Move best_move = MOVE_NONE;
  int passes = 0;
  bool cut = false;
  while (!cut) {
    order_.sort(pos_, moves, n, tt_move, ply);
    for (int i = 0; i < n && !cut; ++i) {
      const Move m = moves[i];
      const int mover = pos_.turn();
      const bool quiet = MoveOrder<W>::is_quiet(pos_, m);
      play(m);
      frames_[ply].move = m;
      // Late quiet moves that give no check are searched a ply or two shallower first, and
      // again in full if one does better for the opponents: of the many moves of both
      // opponents few threaten anything.
      const int reduction = i >= BRS_REDUCTION_MOVES && quiet && depth >= 3 && !enemy_in_check(mover)
                                ? 1 + (i >= 3 * BRS_REDUCTION_MOVES)
                                : 0;
      // The other opponents pass, except one left in check: he must answer it (passing would
      // let the root player take his king), and answers as the next opponents' layer.
      int skipped = 0;
      for (; pos_.turn() != root_ && status(root_) == ACTIVE && !state_.is_terminal() && !in_check(); ++skipped)
        pos_.make_null();
      int score = alphabeta(depth - 1 - reduction, i == 0 ? alpha : beta - 1, beta, ply + 1);
      if (reduction && score < beta) score = alphabeta(depth - 1, beta - 1, beta, ply + 1);
      if (i > 0 && score < beta && score > alpha) score = alphabeta(depth - 1, alpha, beta, ply + 1);
      for (; skipped; --skipped) pos_.unmake();
      take_back();
      if (stopped_) break;
      if (score < best) {
        best = score;
        best_move = m;
        extend_pv(ply, m);
      }
      beta = std::min(beta, best);
      if (alpha >= beta) {
        order_.reward(pos_, m, depth, ply);
        cut = true;
      }
    }
    if (stopped_ || cut) break;
    pos_.make_null();  // the next opponent's turn
    if (++passes >= pos_.players() || on_root_side(pos_.turn())) break;
    n = legal_moves(pos_, moves);  // an opponent without a move offers none
  }
  for (; passes; --passes) pos_.unmake();
  if (stopped_) return 0;
  const Bound bound = best >= beta0 ? BOUND_LOWER : best <= alpha ? BOUND_UPPER : BOUND_EXACT;
  store_table(key, best_move, best, depth, bound, ply);
  return best;
}

// The opponents after the one to move who have no legal move while in check.
template <int W>
int Searcher<W>::later_mated_opponents(int* mated) {
  int found = 0, passes = 0;
  for (pos_.make_null(), ++passes; passes < pos_.players() && !on_root_side(pos_.turn()); pos_.make_null(), ++passes)
    if (in_check() && !has_legal_move(pos_)) mated[found++] = pos_.turn();
  for (; passes; --passes) pos_.unmake();
  return found;
}

#define POLYCHESS_BEST_REPLY(W)                                                         \
  template int Searcher<W>::best_reply(int, int, int, int, Move*, int, Move, uint64_t); \
  template int Searcher<W>::later_mated_opponents(int*);
POLYCHESS_BEST_REPLY(1)
POLYCHESS_BEST_REPLY(2)
POLYCHESS_BEST_REPLY(3)

}  // namespace polychess
