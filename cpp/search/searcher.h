// The searcher shared by the search's units: its state, the scores it gives positions and
// ends of games, and the moves it plays. The algorithms live in their own files:
//  - search_driver.cpp: iterative deepening, the report, the parallel search (search.h);
//  - alphabeta.cpp: alpha-beta (two sides, paranoid) with quiescence;
//  - best_reply.cpp: best-reply search's opponents' layer;
//  - maxn.cpp: max^n.
// The searcher plays inside a copy of the game state (game_state.h), so every rule of the game
// (mates, transfers, freezes, points, draws, places) applies in the tree as in the game; what
// the searcher adds is only how much a result is worth to whom.
#pragma once

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "core/evaluate.h"
#include "core/game_state.h"
#include "nnue/evaluator.h"
#include "search/move_order.h"
#include "search/search.h"
#include "search/thread_share.h"

namespace polychess {

using SearchClock = std::chrono::steady_clock;
using Values = std::array<int, MAX_PLAYERS>;

constexpr int MAX_QUIESCENCE_PLIES = 12;
constexpr int NO_EVAL = -INFINITE_SCORE;  // a frame's evaluation where none was taken (in check)
constexpr int MAXN_QUIESCENCE_PLIES = 4;  // max^n cannot prune, so its capture search stays short
constexpr int QUIESCENCE_CHECK_PLIES = 2;
constexpr int LAZY_MARGIN = 250;  // beyond what mobility and king safety usually add up to
constexpr int WIN_BAND = MATE - MAX_PLY;
constexpr int ASPIRATION_DEPTH = 4;
constexpr int ASPIRATION_WINDOW = 50;
// How much worse than even the root player must stand to welcome a draw shared with several
// opponents (in three-player chess a draw gives away a better place against weaker players).
constexpr int DRAW_CONTEMPT = 100;
// What one point is worth next to material, in centipawns, where points rank the players.
// Against the greedy baseline (best-reply search, nodes=10000, 576 games each) 200 scored
// 0.953 where 100 scored 0.936, 150 0.951 and 300 0.928 (the engine grabs points sooner, so a
// seat mated later by another strong player still ranks above the weak ones).
constexpr int POINT_VALUE = 200;
// What a place won by an opponent's elimination is worth where the order of going out ranks.
constexpr int ELIMINATION_BONUS = 1500;

template <int W>
class Searcher {
 public:
  // `share` is what the threads of one search share (thread_share.h); `first_depth` staggers
  // the iterations of a parallel search's helper threads.
  Searcher(const GameState<W>& root, TranspositionTable& tt, const SearchLimits& limits, const std::atomic<bool>& stop,
           ThreadShare& share, int first_depth);

  uint64_t nodes() const { return nodes_; }
  uint64_t cutoffs() const { return cutoffs_; }
  uint64_t first_move_cutoffs() const { return first_move_cutoffs_; }
  SearchReport run(const IterationCallback& on_iteration);

 private:
  // ---- the algorithms (each in its own file) ----------------------------------------------
  int aspiration(int depth, int previous);
  int alphabeta(int depth, int alpha, int beta, int ply);
  int quiesce(int alpha, int beta, int ply, int qply);
  int stuck(int depth, int alpha, int beta, int ply, int qply);
  int best_reply(int depth, int alpha, int beta, int ply, Move* moves, int n, Move tt_move, uint64_t key);
  int later_mated_opponents(int* mated);
  Values maxn(int depth, int ply);
  Values maxn_quiesce(int ply, int qply);
  Values maxn_stuck(int depth, int ply, int qply);
  Values ended(int ply) const;
  void extend_line_from_table(int depth);
  SearchLine describe_line(int score) const;
  SearchReport& finish(SearchReport& report);
  bool delivers_mate(const Position<W>& end) const;

  // ---- who plays for whom -----------------------------------------------------------------
  bool on_root_side(int player) const { return player == root_ || !pos_.is_enemy(root_, player); }
  Status status(int player) const { return Status(pos_.meta().status[player]); }
  // Pieces other than king and pawns: without them a null move risks zugzwang.
  bool has_pieces(int player) const {
    const auto own = pos_.pieces_of(player);
    return bool(own.minus(pos_.kind_bb(PAWN) | pos_.kind_bb(KING)));
  }
  bool in_check() const { return pos_.in_check(pos_.turn()); }
  // Whether an enemy of `mover` is in check (after his move: not only the next player).
  bool enemy_in_check(int mover) const {
    for (int p = 0; p < pos_.players(); ++p) {
      if (!pos_.is_enemy(mover, p) || status(p) != ACTIVE) continue;
      if (pos_.in_check(p)) return true;
    }
    return false;
  }
  // Whether a partner of the player to move is in check: his mate may be on the board already,
  // to be judged at his turn, which a pass or a static guess would not see.
  bool partner_in_check() const {
    const int me = pos_.turn();
    for (int p = 0; p < pos_.players(); ++p) {
      if (p == me || pos_.is_enemy(me, p) || status(p) != ACTIVE) continue;
      if (pos_.in_check(p)) return true;
    }
    return false;
  }

  // ---- values -----------------------------------------------------------------------------
  // Each player's evaluation, plus his points where points rank.
  Values player_values() const {
    Values v = quick_values();
    add_positional(v);
    return v;
  }
  // Material, placement and points only: the quick estimate. With a network, its values are
  // the whole evaluation (nothing positional is added after them).
  Values quick_values() const {
    Values v = network_ ? network_->evaluate(pos_) : placement_values(pos_);
    if (counts_points_)
      for (int p = 0; p < pos_.players(); ++p) v[p] += POINT_VALUE * state_.facts().points[p];
    if (limits_.noise > 0) add_noise(v);
    return v;
  }
  void add_noise(Values& v) const {
    const uint64_t span = 2 * uint64_t(limits_.noise) + 1;
    for (int p = 0; p < pos_.players(); ++p) {
      // splitmix64 of the position, the seed and the player: a fixed pseudo-random offset.
      uint64_t z = pos_.key() ^ limits_.noise_seed ^ (uint64_t(p + 1) * 0x9E3779B97F4A7C15ull);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      z ^= z >> 31;
      v[p] += int(z % span) - limits_.noise;
    }
  }
  void add_positional(Values& v) const {
    if (network_) return;
    const Values positional = positional_values(pos_, eval_, &pawn_cache_);
    for (int p = 0; p < pos_.players(); ++p) v[p] += positional[p];
  }
  int evaluate() const { return root_score(player_values()); }

  // The root side's value minus the opponents' per opposing side (counted at the root, so that
  // an opponent's elimination does not reweigh the others), plus the places won by every
  // opponent out since the root. Where points rank, a player out still counts by his points.
  int root_score(const Values& values) const {
    int own = 0, others = 0;
    for (int p = 0; p < pos_.players(); ++p) {
      if (status(p) == OUT && !counts_points_) continue;
      (on_root_side(p) ? own : others) += values[p];
    }
    return own - others / opposing_sides_ + ELIMINATION_BONUS * newly_out(root_);
  }
  // Opponents of `player` who were in at the root and are out now, where the order of going
  // out ranks (where points rank, the points say what an elimination is worth).
  int newly_out(int player) const {
    if (counts_points_) return 0;
    int n = 0;
    for (int p = 0; p < pos_.players(); ++p) n += p != player && status(p) == OUT && !out_at_root_[p];
    return n;
  }
  // Every player's own score for max^n: his value minus the others' average (over the players
  // in at the root) plus his places won; a player who is out scores as lost.
  Values utilities(int ply) const {
    const Values v = player_values();
    Values u{};
    int total = 0;
    for (int p = 0; p < pos_.players(); ++p)
      if (status(p) != OUT || counts_points_) total += v[p];
    const int others = std::max(1, in_at_root_ - 1);
    for (int p = 0; p < pos_.players(); ++p) {
      if (status(p) == OUT) u[p] = -(MATE - ply);
      else u[p] = v[p] - (total - v[p]) / others + ELIMINATION_BONUS * newly_out(p);
    }
    return u;
  }

  // Each player's result from the places the rules gave (`facts`), against his enemies still
  // in (where points rank, against all of them): a sole first place is a win (MATE less the
  // plies), a sole last a loss, ties and middle places in between; a player out has lost. So a
  // draw among the players still in scores even for them, as a position the search cannot tell
  // from even would.
  Values outcome(const GameFacts& facts, int ply) const {
    Values u{};
    const int win = MATE - ply;
    for (int p = 0; p < pos_.players(); ++p) {
      if (!state_.is_seat(p)) continue;
      if (!counts_points_ && status(p) == OUT) {
        u[p] = -win;
        continue;
      }
      int enemies = 0, ahead = 0, level = 0;
      for (int q = 0; q < pos_.players(); ++q) {
        if (!state_.is_seat(q) || !pos_.is_enemy(p, q) || (!counts_points_ && status(q) == OUT)) continue;
        ++enemies;
        ahead += facts.places[q] < facts.places[p];
        level += facts.places[q] == facts.places[p];
      }
      u[p] = enemies ? int(int64_t(win) * (enemies - (2 * ahead + level)) / enemies) : win;
    }
    return u;
  }

  // Whether the root player's game is decided here without searching: it is over, or he is out.
  bool decided() const { return state_.is_terminal() || status(root_) == OUT; }
  // Where it is decided: lost if the root player is out (where points rank his points would
  // still place him, but playing as if being mated were a loss scored better against the
  // baselines), else the game's result.
  int decided_score(int ply) const {
    return status(root_) == OUT ? -(MATE - ply) : outcome(state_.facts(), ply)[root_];
  }
  // A repetition inside the tree, taken as the draw it leads to: what the rules give for a
  // draw now, less the contempt where the root would share first place with several opponents.
  Values draw_values(int ply) const {
    Values u = outcome(state_.facts_if_drawn(), ply);
    u[root_] -= contempt_;
    return u;
  }
  int draw_score(int ply) const { return draw_values(ply)[root_]; }

  // ---- moves ------------------------------------------------------------------------------
  // Keeps, of the root's moves, those the search may choose in the line it is looking for:
  // among the searchmoves, and not the first move of a better line found already.
  int keep_root_moves(Move* moves, int n) const {
    int kept = 0;
    for (int i = 0; i < n; ++i) {
      const Move m = moves[i];
      const auto& only = limits_.searchmoves;
      if (!only.empty() && std::find(only.begin(), only.end(), m) == only.end()) continue;
      if (std::find(lines_found_, lines_found_ + line_count_, m) != lines_found_ + line_count_) continue;
      moves[kept++] = m;
    }
    return kept;
  }
  void play(Move m) { state_.play(m); }
  void take_back() { state_.undo(); }
  // Judges the player to move once his number of legal moves is known (GameState::settle).
  void settle(int legal_count) { state_.settle(legal_count); }

  void check_limits();
  // Counts a node; false once the search must stop.
  bool visit(int ply) {
    pv_length_[ply] = ply;
    seldepth_ = std::max(seldepth_, ply);
    if ((++nodes_ & check_mask_) == 0) check_limits();
    return !stopped_;
  }
  // Whether the position occurred before since the last capture or pawn move.
  bool repeats() const {
    const auto& history = pos_.history();
    const uint64_t key = pos_.key();
    const size_t back = std::min<size_t>(history.size(), pos_.meta().halfmove);
    for (size_t i = 1; i <= back; ++i)
      if (history[history.size() - i].meta.key == key) return true;
    return false;
  }
  // What the search keeps per ply: the mover's static evaluation (for the mover, NO_EVAL when
  // he is in check), the move played from here (MOVE_NONE for a pass) and whether it was a
  // null move.
  struct Frame {
    int eval = NO_EVAL;
    Move move = MOVE_NONE;
    bool null_move = false;
  };
  Move previous_move(int ply) const { return ply > 0 ? frames_[ply - 1].move : MOVE_NONE; }

  void extend_pv(int ply, Move m) {
    pv_[ply][ply] = m;
    for (int j = ply + 1; j < pv_length_[ply + 1]; ++j) pv_[ply][j] = pv_[ply + 1][j];
    pv_length_[ply] = std::max(pv_length_[ply + 1], ply + 1);
  }
  // ---- the transposition table -----------------------------------------------------------
  // The table outlives the search (an Engine keeps it from one search to the next), so what an
  // entry means must not depend on the search that stored it. Its key is the position's, salted
  // with everything else a score depends on (table_salt(): the algorithm, the game and its
  // rules, the evaluation, and where more than two sides play the root player and who was out
  // at the root), plus the points where they rank (they are not in the position's key). Where
  // two sides alternate the scores are kept for the side of seat 0, so that a search for either
  // side reads what a search for the other stored; elsewhere the salt keeps each root player's
  // entries apart, as his scores mean nothing to another.
  uint64_t tt_key() const { return counts_points_ ? (pos_.key() ^ salt_ ^ points_key()) : pos_.key() ^ salt_; }
  uint64_t points_key() const {
    uint64_t k = 0;
    for (int p = 0; p < pos_.players(); ++p) k += uint64_t(uint32_t(state_.facts().points[p])) << (16 * p);
    return k * 0x9E3779B97F4A7C15ull;
  }
  bool probe_table(uint64_t key, TTEntry& e, int ply) const {
    if (!tt_.probe(key, e)) return false;
    e.score = table_sign_ * from_tt(e.score, ply);
    if (table_sign_ < 0) e.bound = opposite(Bound(e.bound));
    return true;
  }
  void store_table(uint64_t key, Move move, int score, int depth, Bound bound, int ply) {
    // A root searched without some of its moves (a MultiPV line after the first, searchmoves)
    // has no score of its own to keep: a later search reaching it would take it for the whole.
    if (ply == 0 && (line_count_ > 0 || !limits_.searchmoves.empty())) return;
    if (table_sign_ < 0) score = -score, bound = opposite(bound);
    tt_.store(key, move, to_tt(score, ply), depth, bound);
  }
  static Bound opposite(Bound b) { return b == BOUND_UPPER ? BOUND_LOWER : b == BOUND_LOWER ? BOUND_UPPER : b; }
  static int to_tt(int score, int ply) {
    return score > WIN_BAND ? score + ply : score < -WIN_BAND ? score - ply : score;
  }
  static int from_tt(int score, int ply) {
    return score > WIN_BAND ? score - ply : score < -WIN_BAND ? score + ply : score;
  }
  uint64_t table_salt() const;

  static bool alternating_sides(const Position<W>& pos);
  static int opposing_sides(const Position<W>& pos);

  Position<W> pos_;
  GameState<W> state_;
  std::vector<Move> line_;       // the principal line of the last completed iteration
  Move lines_found_[MAX_MOVES];  // the first moves of this iteration's lines found so far
  int line_count_ = 0;
  TranspositionTable& tt_;
  SearchLimits limits_;
  const std::atomic<bool>& stop_;
  ThreadShare& share_;
  BusyMoves* const busy_;  // the moves the threads announce; null with one thread
  const int first_depth_;
  const EvalTables<W>& eval_;
  const std::unique_ptr<NetworkEvaluator<W>> network_;  // null: the classic evaluation
  mutable PawnStructureCache pawn_cache_;               // the classic evaluation's, filled as it evaluates
  const int root_;
  const bool two_sides_;  // the players alternate between two sides: plain alpha-beta
  const Algorithm algorithm_;
  const bool counts_points_;
  const int opposing_sides_;
  const int contempt_;
  bool out_at_root_[MAX_PLAYERS] = {};
  int in_at_root_ = 0;
  uint64_t salt_ = 0;   // table_salt(), once the root is known
  int table_sign_ = 1;  // -1 where the table's side (seat 0's) is the root's opponent
  SearchClock::time_point start_;
  uint64_t nodes_ = 0;
  uint64_t cutoffs_ = 0, first_move_cutoffs_ = 0;  // SearchReport's
  // The limits are checked every check_mask_ + 1 nodes: 1024, or fewer under a small node
  // limit (a weak strength level's), which would otherwise be overshot many times over.
  uint64_t check_mask_ = 1023;
  int seldepth_ = 0;  // the deepest ply visited in the current iteration, quiescence included
  bool stopped_ = false;
  MoveOrder<W> order_;
  Move pv_[MAX_PLY][MAX_PLY] = {};
  int pv_length_[MAX_PLY] = {};
  Frame frames_[MAX_PLY + 1] = {};
};

}  // namespace polychess
