// Alpha-beta with quiescence: where two sides alternate (standard chess, four-player teams)
// plain minimax with principal-variation search, null-move pruning and late-move reductions;
// in the multi-player games the paranoid search (every opponent minimises the root player's
// score), and the root player's layers of best-reply search.
#include <cmath>

#include "search/searcher.h"

namespace polychess {

namespace {

// Pruning and reductions, in centipawns and plies (measured in bench/README.md's matches).
constexpr int REVERSE_FUTILITY_DEPTH = 6;
constexpr int REVERSE_FUTILITY_MARGIN = 120;  // per ply of depth left
constexpr int NULL_MOVE_DEPTH = 3;
constexpr int TEAM_NULL_MOVE_MARGIN = 50;
constexpr int FUTILITY_DEPTH = 6;
constexpr int FUTILITY_BASE = 100;
constexpr int FUTILITY_MARGIN = 120;  // per ply of (reduced) depth left
constexpr int LATE_MOVE_DEPTH = 8;
constexpr int SEE_PRUNING_DEPTH = 6;
constexpr int SEE_PRUNING_MARGIN = 100;  // per ply of depth left
constexpr int INTERNAL_REDUCTION_DEPTH = 6;
constexpr int QUIESCENCE_DELTA = 200;  // what a capture may gain beyond its victim
constexpr int ANNOUNCE_DEPTH = 3;      // from here threads announce their moves (thread_share.h)

// Late-move reductions by depth and move number: they grow with the logarithm of both.
struct ReductionTable {
  int8_t r[64][64];
  ReductionTable() {
    for (int d = 0; d < 64; ++d)
      for (int m = 0; m < 64; ++m) r[d][m] = d && m ? int8_t(0.75 + std::log(d) * std::log(m) / 2.25) : 0;
  }
};
const ReductionTable REDUCTIONS;

// How many moves a node at `depth` searches before it drops the remaining quiet ones.
int late_move_limit(int depth, bool improving) { return improving ? 3 + depth * depth : (3 + depth * depth) / 2; }
// The same in four-player teams, counted in quiet moves searched: Titan's limits (player.cc),
// wider at PV nodes.
int team_late_move_limit(int depth, bool pv_node, bool improving) {
  return pv_node ? (5 + depth * depth) * (improving ? 2 : 1) : 1 + depth * depth / 5;
}

}  // namespace

template <int W>
int Searcher<W>::alphabeta(int depth, int alpha, int beta, int ply) {
  if (!visit(ply)) return 0;
  if (decided()) return decided_score(ply);
  if (ply >= MAX_PLY - 1) return evaluate();
  const bool pv_node = beta - alpha > 1;
  // A repetition first: the table's score for the position says nothing of the draw it is now.
  if (ply > 0 && repeats()) return draw_score(ply);

  const uint64_t key = tt_key();
  Move tt_move = MOVE_NONE;
  if (TTEntry e; probe_table(key, e, ply)) {
    tt_move = e.move;
    if (ply > 0 && e.depth >= depth) {
      const int s = e.score;
      if (e.bound == BOUND_EXACT || (e.bound == BOUND_LOWER && s >= beta) || (e.bound == BOUND_UPPER && s <= alpha))
        return s;
    }
  }

  if (depth <= 0) return quiesce(alpha, beta, ply, 0);
  Move moves[MAX_MOVES];
  int n = legal_moves(pos_, moves);
  if (n == 0) return stuck(depth, alpha, beta, ply, -1);
  settle(n);
  if (decided()) return decided_score(ply);
  if (ply == 0) n = keep_root_moves(moves, n);

  const bool maximizing = on_root_side(pos_.turn());
  frames_[ply].move = MOVE_NONE;
  // (A frozen root player never moves again: the opponents' turns do not come back to him.)
  if (algorithm_ == Algorithm::BRS && !maximizing && status(root_) == ACTIVE)
    return best_reply(depth, alpha, beta, ply, moves, n, tt_move, key);
  const bool checked = in_check();

  // The pruning below reasons from the mover's side: his window and his static evaluation.
  const int sign = maximizing ? 1 : -1;
  const int mover_alpha = maximizing ? alpha : -beta, mover_beta = maximizing ? beta : -alpha;
  const int eval = checked ? NO_EVAL : sign * evaluate();
  frames_[ply].eval = eval;
  // Whether the mover stands better than at his side's previous turn (where sides alternate).
  const bool improving = two_sides_ && !checked && ply >= 2 && eval > frames_[ply - 2].eval;
  const bool may_prune_node = !pv_node && !checked && ply > 0 && std::abs(mover_beta) < WIN_BAND &&
                              std::abs(eval) < WIN_BAND && !partner_in_check();

  // With two players the static evaluation may cut a node short or thin it; with more, a
  // player's static value misses the threats that two opponents moving in turn make (Titan's
  // matches showed it: bench/README.md), so their trees are only reduced.
  const bool duel = pos_.players() == 2;

  // Reverse futility: a static evaluation this far above the bound is not given back within
  // the few plies left.
  if (duel && may_prune_node && depth <= REVERSE_FUTILITY_DEPTH &&
      eval - REVERSE_FUTILITY_MARGIN * (depth - improving) >= mover_beta)
    return sign * eval;

  // Null move, where the sides alternate: if passing still fails high for this side, a real
  // move will too. Not twice in a row, and not without pieces (zugzwang).
  // In four-player teams as Titan does (player.cc): at every depth, once the evaluation
  // passes the bound by a margin, reduced by a third of the depth and two.
  if (two_sides_ && may_prune_node && depth >= (duel ? NULL_MOVE_DEPTH : 1) &&
      eval >= mover_beta + (duel ? 0 : TEAM_NULL_MOVE_MARGIN) && !frames_[ply - 1].null_move &&
      has_pieces(pos_.turn())) {
    const int reduction = duel ? 3 + depth / 4 + std::min(3, (eval - mover_beta) / 200) : depth / 3 + 2;
    frames_[ply].null_move = true;
    pos_.make_null();
    const int reduced = std::max(0, depth - reduction);
    const int score =
        maximizing ? alphabeta(reduced, beta - 1, beta, ply + 1) : alphabeta(reduced, alpha, alpha + 1, ply + 1);
    pos_.unmake();
    frames_[ply].null_move = false;
    if (stopped_) return 0;
    if (sign * score >= mover_beta) return std::abs(score) > WIN_BAND ? sign * mover_beta : score;
  }

  // Without a table move a deep node is searched a ply shallower: its ordering is a guess.
  if (tt_move == MOVE_NONE && depth >= INTERNAL_REDUCTION_DEPTH) --depth;

  const Move previous = previous_move(ply);
  order_.sort(pos_, moves, n, tt_move, ply, previous);
  const int alpha0 = alpha, beta0 = beta;
  int best = maximizing ? -INFINITE_SCORE : INFINITE_SCORE;
  Move best_move = MOVE_NONE;
  Move quiets_tried[64];
  int quiet_count = 0;
  int searched = 0;
  // Moves another thread was searching when their turn came, taken after all the others.
  int put_off[64];
  int put_off_count = 0;
  for (int k = 0; k < n + put_off_count; ++k) {
    const int i = k < n ? k : put_off[k - n];
    const Move m = moves[i];
    const bool quiet = MoveOrder<W>::is_quiet(pos_, m);
    // Moves after the first may be pruned (two players) unless the mover is already lost.
    const bool may_prune_move = duel && ply > 0 && !checked && searched > 0 && sign * best > -WIN_BAND;
    int reduction = 0;
    if (ply > 0 && depth >= 3 && i >= 1 + pv_node)
      reduction = duel ? REDUCTIONS.r[std::min(depth, 63)][std::min(i, 63)] : i >= 3 ? 1 + (i >= 8) : 0;
    if (may_prune_move && !quiet && depth <= SEE_PRUNING_DEPTH && !move_promotion(m) &&
        static_exchange(pos_, m) < -SEE_PRUNING_MARGIN * depth)
      continue;
    const int mover = pos_.turn();
    // Four-player teams drop the quiet moves beyond their limit that give no check (the
    // evaluation's margins of the duel's futility do not hold there: bench/README.md). Whether
    // a quiet move checks is seen on the position alone, without the game's rules.
    if (!duel && two_sides_ && ply > 0 && !checked && quiet && sign * best > -WIN_BAND &&
        quiet_count >= team_late_move_limit(depth, pv_node, improving)) {
      pos_.make(m);
      const bool checks = enemy_in_check(mover);
      pos_.unmake();
      if (!checks) continue;
    }
    const bool announce = busy_ && depth >= ANNOUNCE_DEPTH;
    if (announce && k < n && searched > 0 && put_off_count < 64 && busy_->taken(key, m)) {
      put_off[put_off_count++] = i;
      continue;
    }
    play(m);
    const bool gives_check = duel ? in_check() : enemy_in_check(mover);
    if (may_prune_move && quiet && !gives_check) {
      const int reduced_depth = std::max(0, depth - 1 - reduction);
      const bool late = !pv_node && depth <= LATE_MOVE_DEPTH && i >= late_move_limit(depth, improving);
      const bool futile =
          reduced_depth <= FUTILITY_DEPTH && eval + FUTILITY_BASE + FUTILITY_MARGIN * reduced_depth <= mover_alpha;
      if (late || futile) {
        take_back();
        continue;
      }
    }
    tt_.prefetch(tt_key());
    frames_[ply].move = m;
    // Checks of the next player are extended (those of a player further on are answered, or
    // not, after other players' moves: extending them too swells the multi-player trees).
    const int extension = gives_check && ply < 2 * depth + 8 && in_check() ? 1 : 0;
    const int next = depth - 1 + extension;
    if (announce) busy_->enter(key, m);
    int score;
    if (searched == 0) {
      score = alphabeta(next, alpha, beta, ply + 1);
    } else {
      // Principal variation search: later moves get a null window around the bound this side
      // is trying to beat, and late moves a reduced depth; either is searched again in full
      // if it beats the bound.
      if (reduction && duel) {
        reduction += !pv_node + !improving - gives_check - (order_.is_killer(m, ply) ? 1 : 0);
        if (quiet) reduction -= order_.history(m) / (HISTORY_MAX / 2);
        else reduction -= 2;
        reduction = std::clamp(reduction, 0, std::max(0, next - 1));
      } else if (reduction && (!quiet || gives_check || checked)) {
        reduction = 0;  // with more players only quiet moves are reduced, not checks nor evasions
      }
      const int lo = maximizing ? alpha : beta - 1, hi = lo + 1;
      auto beats = [&](int s) { return maximizing ? s > alpha : s < beta; };
      score = alphabeta(next - reduction, lo, hi, ply + 1);
      if (reduction && beats(score)) score = alphabeta(next, lo, hi, ply + 1);
      if (beats(score) && (maximizing ? score < beta : score > alpha)) score = alphabeta(next, alpha, beta, ply + 1);
    }
    if (announce) busy_->leave(key, m);
    take_back();
    if (stopped_) return 0;
    ++searched;
    if (maximizing ? score > best : score < best) {
      best = score;
      best_move = m;
      extend_pv(ply, m);
    }
    if (maximizing) alpha = std::max(alpha, best);
    else beta = std::min(beta, best);
    if (alpha >= beta) {
      ++cutoffs_;
      first_move_cutoffs_ += searched == 1;
      order_.reward(pos_, m, depth, ply, previous, quiets_tried, quiet_count);
      break;
    }
    if (quiet && quiet_count < 64) quiets_tried[quiet_count++] = m;
  }
  const Bound bound = maximizing ? (best <= alpha0 ? BOUND_UPPER
                                    : best >= beta ? BOUND_LOWER
                                                   : BOUND_EXACT)
                                 : (best >= beta0   ? BOUND_LOWER
                                    : best <= alpha ? BOUND_UPPER
                                                    : BOUND_EXACT);
  store_table(key, best_move, best, depth, bound, ply);
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
// plies every answer to a check as well. Captures that lose material by the static exchange,
// or that could not lift the mover to his bound even with their victim and a margin, are
// skipped; never the capture of a king (RULES.md 1.6), which ends a player whatever its piece
// value of 0 says. Its depth is capped: with three or four players capture sequences can
// otherwise run on for dozens of plies. Its results go to the table at depth 0.
template <int W>
int Searcher<W>::quiesce(int alpha, int beta, int ply, int qply) {
  if (!visit(ply)) return 0;
  if (decided()) return decided_score(ply);
  if (ply >= MAX_PLY - 1 || qply >= MAX_QUIESCENCE_PLIES) return evaluate();
  const uint64_t key = tt_key();
  Move tt_move = MOVE_NONE;
  if (TTEntry e; probe_table(key, e, ply)) {
    tt_move = e.move;
    const int s = e.score;
    if (e.bound == BOUND_EXACT || (e.bound == BOUND_LOWER && s >= beta) || (e.bound == BOUND_UPPER && s <= alpha))
      return s;
  }
  const bool maximizing = on_root_side(pos_.turn());
  const int sign = maximizing ? 1 : -1;
  const bool checked = qply < QUIESCENCE_CHECK_PLIES && in_check();
  const int alpha0 = alpha, beta0 = beta;
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
  order_.sort(pos_, moves, n, tt_move, ply);
  const int mover_alpha = maximizing ? alpha : -beta;
  Move best_move = MOVE_NONE;
  for (int i = 0; i < n; ++i) {
    const Move m = moves[i];
    if (!checked && !move_promotion(m) && kind_of(pos_.piece_at(move_to(m))) != KING) {
      const int victim =
          move_type(m) == EN_PASSANT ? PIECE_VALUE[PAWN] : PIECE_VALUE[kind_of(pos_.piece_at(move_to(m)))];
      if (sign * best + victim + QUIESCENCE_DELTA <= mover_alpha) continue;
      // (Only a capture by a more valuable piece can lose the exchange.)
      if (victim < PIECE_VALUE[kind_of(pos_.piece_at(move_from(m)))] && static_exchange(pos_, m) < 0) continue;
    }
    play(m);
    const int score = quiesce(alpha, beta, ply + 1, qply + 1);
    take_back();
    if (stopped_) return 0;
    if (maximizing ? score > best : score < best) {
      best = score;
      best_move = m;
    }
    if (maximizing) alpha = std::max(alpha, best);
    else beta = std::min(beta, best);
    if (alpha >= beta) break;
  }
  const Bound bound = best >= beta0 ? BOUND_LOWER : best <= alpha0 ? BOUND_UPPER : BOUND_EXACT;
  store_table(key, best_move, best, 0, bound, ply);
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
