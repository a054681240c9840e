#include "search.h"

#include <algorithm>
#include <chrono>
#include <memory>

#include "evaluate.h"
#include "movegen.h"

namespace polychess {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int MAX_QUIESCENCE_PLIES = 12;
constexpr int QUIESCENCE_CHECK_PLIES = 2;

template <int W>
class Searcher {
 public:
  Searcher(const Position<W>& root, TranspositionTable& tt, const SearchLimits& limits, const std::atomic<bool>& stop)
      : pos_(root), tt_(tt), limits_(limits), stop_(stop), eval_(eval_tables(root.topo())), root_(root.turn()),
        two_sides_(alternating_sides(root)) {
    pos_.reserve_history(MAX_PLY + 8);
    start_ = Clock::now();
    move_history_ = std::make_unique<std::array<std::array<int32_t, MAX_CELLS>, MAX_CELLS>>();
    for (auto& row : *move_history_) row.fill(0);
  }

  SearchReport run(const IterationCallback& on_iteration) {
    SearchReport report;
    Move moves[MAX_MOVES];
    const int n = legal_moves(pos_, moves);
    if (n == 0) return finish(report);
    report.best = moves[0];
    tt_.new_search();
    const int max_depth = limits_.depth > 0 ? std::min(limits_.depth, MAX_PLY - 8) : MAX_PLY - 8;
    for (int depth = 1; depth <= max_depth; ++depth) {
      const int score = search(depth, -INFINITE_SCORE, INFINITE_SCORE, 0);
      if (stopped_ && depth > 1) break;  // an unfinished iteration is not trusted
      report.score = score;
      report.depth = depth;
      report.pv.assign(pv_[0], pv_[0] + pv_length_[0]);
      if (!report.pv.empty()) report.best = report.pv[0];
      finish(report);
      if (on_iteration) on_iteration(report);
      if (stopped_ || std::abs(score) > MATE - MAX_PLY) break;
    }
    return finish(report);
  }

 private:
  SearchReport& finish(SearchReport& report) {
    report.nodes = nodes_;
    report.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    Position<W> end = pos_;
    for (Move m : report.pv) end.make(m);
    report.player_values = evaluate_players(end, eval_);
    return report;
  }

  bool on_root_side(int player) const { return player == root_ || !pos_.is_enemy(root_, player); }

  // Pieces other than king and pawns: without them a null move risks zugzwang.
  bool has_pieces(int player) const {
    const auto own = pos_.pieces_of(player);
    return bool(own.minus(pos_.kind_bb(PAWN) | pos_.kind_bb(KING)));
  }

  // Whether the players alternate between two sides (every player's successor is an enemy).
  static bool alternating_sides(const Position<W>& pos) {
    for (int p = 0; p < pos.players(); ++p)
      if (!pos.is_enemy(p, (p + 1) % pos.players())) return false;
    return pos.players() == 2 || pos.variant().teams;
  }

  // The root side's value minus the opponents' per opposing side.
  int evaluate() const {
    const auto values = evaluate_players(pos_, eval_);
    int own = 0, others = 0;
    uint32_t opposing_teams = 0;
    for (int p = 0; p < pos_.players(); ++p) {
      if (pos_.meta().status[p] == OUT) continue;
      if (on_root_side(p)) {
        own += values[p];
      } else {
        others += values[p];
        // players of one team share a bit; solo players each have their own
        int team = p;
        for (int q = 0; q < p; ++q)
          if (!pos_.is_enemy(p, q) && !on_root_side(q)) team = q;
        opposing_teams |= 1u << team;
      }
    }
    const int sides = __builtin_popcount(opposing_teams);
    return sides ? own - others / sides : own + MATE / 2;
  }

  void check_limits() {
    if (stop_.load(std::memory_order_relaxed)) stopped_ = true;
    if (limits_.nodes && nodes_ >= limits_.nodes) stopped_ = true;
    if (limits_.seconds > 0 && std::chrono::duration<double>(Clock::now() - start_).count() >= limits_.seconds)
      stopped_ = true;
  }

  bool in_check() const { return bool(checkers(pos_)); }

  // Whether the position occurred before since the last capture or pawn move.
  bool repeats() const {
    const auto& history = pos_.history();
    const uint64_t key = pos_.key();
    const size_t back = std::min<size_t>(history.size(), pos_.meta().halfmove);
    for (size_t i = 1; i <= back; ++i)
      if (history[history.size() - i].meta.key == key) return true;
    return false;
  }

  // Score of a position whose mover has no legal move.
  int terminal(int ply) const {
    if (!in_check()) return 0;  // stalemate: a draw, or a frozen player in three-player chess
    return on_root_side(pos_.turn()) ? -(MATE - ply) : MATE - ply;
  }

  bool is_capture(Move m) const {
    return pos_.piece_at(move_to(m)) != NO_PIECE || move_type(m) == EN_PASSANT;
  }

  int order_key(Move m, Move tt_move, int ply) const {
    if (m == tt_move) return 1 << 30;
    const Piece victim = move_type(m) == EN_PASSANT ? make_piece(0, PAWN) : pos_.piece_at(move_to(m));
    if (victim) return (1 << 28) + PIECE_VALUE[kind_of(victim)] * 16 - kind_of(pos_.piece_at(move_from(m)));
    if (move_promotion(m)) return (1 << 27) + PIECE_VALUE[move_promotion(m)];
    if (m == killers_[ply][0]) return (1 << 26) + 1;
    if (m == killers_[ply][1]) return 1 << 26;
    return (*move_history_)[move_from(m)][move_to(m)];
  }

  void sort_moves(Move* moves, int n, Move tt_move, int ply) const {
    int keys[MAX_MOVES];
    for (int i = 0; i < n; ++i) keys[i] = order_key(moves[i], tt_move, ply);
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

  static int to_tt(int score, int ply) { return score > MATE - MAX_PLY ? score + ply : score < -MATE + MAX_PLY ? score - ply : score; }
  static int from_tt(int score, int ply) { return score > MATE - MAX_PLY ? score - ply : score < -MATE + MAX_PLY ? score + ply : score; }

  int search(int depth, int alpha, int beta, int ply) {
    pv_length_[ply] = ply;
    if ((++nodes_ & 1023) == 0) check_limits();
    if (stopped_) return 0;
    if (ply >= MAX_PLY - 1) return evaluate();

    const uint64_t key = pos_.key();
    Move tt_move = MOVE_NONE;
    if (const TTEntry* e = tt_.probe(key)) {
      tt_move = e->move;
      if (ply > 0 && e->depth >= depth) {
        const int s = from_tt(e->score, ply);
        if (e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && s >= beta) || (e->bound == BOUND_UPPER && s <= alpha))
          return s;
      }
    }

    if (ply > 0 && repeats()) return 0;  // a repetition is scored as a draw
    if (depth <= 0) return quiesce(alpha, beta, ply, 0);
    Move moves[MAX_MOVES];
    const int n = legal_moves(pos_, moves);
    if (n == 0) return terminal(ply);

    const bool maximizing = on_root_side(pos_.turn());
    const bool checked = in_check();

    // Null move, where the sides alternate (standard chess, four-player teams): if passing
    // still fails high for this side, a real move will too.
    if (two_sides_ && ply > 0 && depth >= 4 && !checked && has_pieces(pos_.turn())) {
      pos_.make_null();
      const int reduced = depth - 3;
      const int score = maximizing ? search(reduced, beta - 1, beta, ply + 1) : search(reduced, alpha, alpha + 1, ply + 1);
      pos_.unmake();
      if (stopped_) return 0;
      if (maximizing ? score >= beta : score <= alpha) return score;
    }

    sort_moves(moves, n, tt_move, ply);
    const int alpha0 = alpha, beta0 = beta;
    int best = maximizing ? -INFINITE_SCORE : INFINITE_SCORE;
    Move best_move = MOVE_NONE;
    for (int i = 0; i < n; ++i) {
      const Move m = moves[i];
      const bool quiet = !is_capture(m) && !move_promotion(m);
      pos_.make(m);
      const int extension = in_check() && ply < 2 * depth + 8 ? 1 : 0;
      const int next = depth - 1 + extension;
      int score;
      if (i == 0) {
        score = search(next, alpha, beta, ply + 1);
      } else {
        // Principal variation search: later moves get a null window around the bound this
        // side is trying to beat, and late quiet moves a reduced depth; either is searched
        // again in full if it beats the bound.
        const int reduction = ply > 0 && depth >= 3 && i >= 3 && quiet && !extension && !checked ? 1 + (i >= 8) : 0;
        const int lo = maximizing ? alpha : beta - 1, hi = lo + 1;
        auto beats = [&](int s) { return maximizing ? s > alpha : s < beta; };
        score = search(next - reduction, lo, hi, ply + 1);
        if (reduction && beats(score)) score = search(next, lo, hi, ply + 1);
        if (beats(score) && (maximizing ? score < beta : score > alpha)) score = search(next, alpha, beta, ply + 1);
      }
      pos_.unmake();
      if (stopped_) return 0;
      const bool better = maximizing ? score > best : score < best;
      if (better) {
        best = score;
        best_move = m;
        pv_[ply][ply] = m;
        for (int j = ply + 1; j < pv_length_[ply + 1]; ++j) pv_[ply][j] = pv_[ply + 1][j];
        pv_length_[ply] = std::max(pv_length_[ply + 1], ply + 1);
      }
      if (maximizing) alpha = std::max(alpha, best);
      else beta = std::min(beta, best);
      if (alpha >= beta) {
        if (!is_capture(m)) {
          if (killers_[ply][0] != m) {
            killers_[ply][1] = killers_[ply][0];
            killers_[ply][0] = m;
          }
          (*move_history_)[move_from(m)][move_to(m)] += depth * depth;
        }
        break;
      }
    }
    const Bound bound = maximizing ? (best <= alpha0 ? BOUND_UPPER : best >= beta ? BOUND_LOWER : BOUND_EXACT)
                                   : (best >= beta0 ? BOUND_LOWER : best <= alpha ? BOUND_UPPER : BOUND_EXACT);
    tt_.store(key, best_move, to_tt(best, ply), depth, bound);
    return best;
  }

  // Captures and promotions only, with the static value as a floor for the mover; in its first
  // plies every answer to a check as well. Its depth is capped: with three or four players
  // capture sequences can otherwise run on for dozens of plies.
  int quiesce(int alpha, int beta, int ply, int qply) {
    pv_length_[ply] = ply;
    if ((++nodes_ & 1023) == 0) check_limits();
    if (stopped_) return 0;
    if (ply >= MAX_PLY - 1 || qply >= MAX_QUIESCENCE_PLIES) return evaluate();
    const bool maximizing = on_root_side(pos_.turn());
    const bool checked = qply < QUIESCENCE_CHECK_PLIES && in_check();
    Move moves[MAX_MOVES];
    const int n = checked ? legal_moves(pos_, moves) : legal_captures(pos_, moves);
    if (checked && n == 0) return terminal(ply);
    int best = maximizing ? -INFINITE_SCORE : INFINITE_SCORE;
    if (!checked) {
      best = evaluate();
      if (maximizing ? best >= beta : best <= alpha) return best;
      if (maximizing) alpha = std::max(alpha, best);
      else beta = std::min(beta, best);
    }
    sort_moves(moves, n, MOVE_NONE, ply);
    for (int i = 0; i < n; ++i) {
      pos_.make(moves[i]);
      const int score = quiesce(alpha, beta, ply + 1, qply + 1);
      pos_.unmake();
      if (stopped_) return 0;
      if (maximizing ? score > best : score < best) best = score;
      if (maximizing) alpha = std::max(alpha, best);
      else beta = std::min(beta, best);
      if (alpha >= beta) break;
    }
    return best;
  }

  Position<W> pos_;
  TranspositionTable& tt_;
  SearchLimits limits_;
  const std::atomic<bool>& stop_;
  const EvalTables<W>& eval_;
  const int root_;
  const bool two_sides_;
  Clock::time_point start_;
  uint64_t nodes_ = 0;
  bool stopped_ = false;
  Move killers_[MAX_PLY][2] = {};
  std::unique_ptr<std::array<std::array<int32_t, MAX_CELLS>, MAX_CELLS>> move_history_;
  Move pv_[MAX_PLY][MAX_PLY] = {};
  int pv_length_[MAX_PLY] = {};
};

}  // namespace

template <int W>
SearchReport search(const Position<W>& root, TranspositionTable& tt, const SearchLimits& limits,
                    const std::atomic<bool>& stop, const IterationCallback& on_iteration) {
  auto searcher = std::make_unique<Searcher<W>>(root, tt, limits, stop);
  return searcher->run(on_iteration);
}

template SearchReport search<1>(const Position<1>&, TranspositionTable&, const SearchLimits&, const std::atomic<bool>&,
                                const IterationCallback&);
template SearchReport search<2>(const Position<2>&, TranspositionTable&, const SearchLimits&, const std::atomic<bool>&,
                                const IterationCallback&);
template SearchReport search<3>(const Position<3>&, TranspositionTable&, const SearchLimits&, const std::atomic<bool>&,
                                const IterationCallback&);

}  // namespace polychess
