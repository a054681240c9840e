#include "search.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>

#include "evaluate.h"
#include "movegen.h"

namespace polychess {
namespace {

using Clock = std::chrono::steady_clock;
using Values = std::array<int, MAX_PLAYERS>;

constexpr int MAX_QUIESCENCE_PLIES = 12;
constexpr int MAXN_QUIESCENCE_PLIES = 4;  // max^n cannot prune, so its capture search stays short
constexpr int QUIESCENCE_CHECK_PLIES = 2;
constexpr int LAZY_MARGIN = 250;  // beyond what mobility and king safety usually add up to
constexpr int WIN_BAND = MATE - MAX_PLY;

// Free-for-all points for capturing a live piece (docs/rules.md §2.4), and for a mate or stalemate.
constexpr int CAPTURE_POINTS[KIND_NB] = {0, 1, 3, 5, 5, 9, 20, 1};
constexpr int ELIMINATION_POINTS = 20;
constexpr int DRAW_POINTS = 10;
constexpr int POINTS_LEAD = 21;
// How much worse than even the root player must stand to welcome a three-player draw.
constexpr int DRAW_CONTEMPT = 100;
// What one FFA point is worth next to material, in centipawns. Points, not material, rank
// the players: against the greedy baseline (best-reply search, nodes=10000, 576 games each)
// 200 scored 0.953 where 100 scored 0.936, 150 0.951 and 300 0.928 (the engine grabs points
// sooner, so a seat mated later by another strong player still ranks above the weak ones).
constexpr int POINT_VALUE = 200;
// What a place won by an opponent's elimination in three-player chess is worth.
constexpr int ELIMINATION_BONUS = 1500;

// How the game treats a player left without a legal move.
enum class Rules : uint8_t {
  TWO_SIDES,     // standard, four-player teams: mate or stalemate ends the game
  ELIMINATION,   // three-player: the mated army passes to the mater, a stalemated player freezes
  FREE_FOR_ALL,  // four-player FFA: the player is out, his pieces dead; points decide
};

// Table keys differ per algorithm: their scores mean different things.
constexpr uint64_t ALGORITHM_SALT[] = {0, 0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full};

template <int W>
class Searcher {
 public:
  // `shared_nodes` counts the nodes of every thread of one search, for the node limit;
  // `first_depth` staggers the iterations of a parallel search's helper threads.
  Searcher(const Position<W>& root, TranspositionTable& tt, const SearchLimits& limits, const std::atomic<bool>& stop,
           std::atomic<uint64_t>& shared_nodes, int first_depth)
      : pos_(root),
        tt_(tt),
        limits_(limits),
        stop_(stop),
        shared_nodes_(shared_nodes),
        first_depth_(first_depth),
        eval_(eval_tables(root.topo())),
        root_(root.turn()),
        rules_(alternating_sides(root)             ? Rules::TWO_SIDES
               : root.variant().captured_army_dies ? Rules::FREE_FOR_ALL
                                                   : Rules::ELIMINATION),
        algorithm_(rules_ == Rules::TWO_SIDES ? Algorithm::PARANOID : limits.algorithm),
        salt_(ALGORITHM_SALT[int(algorithm_)]),
        points_(limits.points),
        opposing_sides_(opposing_sides(root)) {
    for (int p = 0; p < root.players(); ++p) {
      out_at_root_[p] = root.meta().status[p] == OUT;
      in_at_root_ += !out_at_root_[p];
    }
    // Every ply can add a move, passes (best-reply search, null moves) and elimination
    // events: room for all of them, so that the search itself allocates nothing.
    pos_.reserve_history(size_t(MAX_PLY) * (2 * MAX_PLAYERS + 1));
    points_stack_.reserve(size_t(MAX_PLY) * (MAX_PLAYERS + 1));
    start_ = Clock::now();
    move_history_ = std::make_unique<std::array<std::array<int32_t, MAX_CELLS>, MAX_CELLS>>();
    for (auto& row : *move_history_) row.fill(0);
  }

  uint64_t nodes() const { return nodes_; }

  SearchReport run(const IterationCallback& on_iteration) {
    SearchReport report;
    Move moves[MAX_MOVES];
    const int n = legal_moves(pos_, moves);
    if (n == 0) return finish(report);
    report.best = moves[0];
    const int max_depth = limits_.depth > 0 ? std::min(limits_.depth, MAX_DEPTH) : MAX_DEPTH;
    for (int depth = std::min(first_depth_, max_depth); depth <= max_depth; ++depth) {
      const int score =
          algorithm_ == Algorithm::MAXN ? maxn(depth, 0)[root_] : search(depth, -INFINITE_SCORE, INFINITE_SCORE, 0);
      if (stopped_ && report.depth > 0) break;  // an unfinished iteration is not trusted
      report.score = score;
      report.depth = depth;
      line_.assign(pv_[0], pv_[0] + pv_length_[0]);
      if (!line_.empty()) report.best = line_[0];
      finish(report);
      if (on_iteration) on_iteration(report);
      if (stopped_ || std::abs(score) > WIN_BAND) break;
    }
    return finish(report);
  }

 private:
  // Fills in the report from the principal line. A best-reply line skips turns: it is
  // replayed passing the turn to whoever moves next in it, and reported only as far as it
  // is a game line.
  SearchReport& finish(SearchReport& report) {
    report.nodes = nodes_;
    report.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    Position<W> end = pos_;
    size_t game_line = line_.size();
    int root_moves = 0;
    for (size_t i = 0; i < line_.size(); ++i) {
      const Move m = line_[i];
      for (int passes = 0; passes < end.players() && !moves_own_piece(end, m); ++passes) {
        end.make_null();
        game_line = std::min(game_line, i);
      }
      root_moves += end.turn() == root_;
      end.make(m);
    }
    report.pv.assign(line_.begin(), line_.begin() + game_line);
    report.player_values = evaluate_players(end, eval_);
    report.mate_moves = root_moves > 0 && delivers_mate(end) ? root_moves : -1;
    return report;
  }

  static bool moves_own_piece(const Position<W>& pos, Move m) {
    const Piece piece = pos.piece_at(move_from(m));
    return piece && pos.meta().controller[colour_of(piece)] == pos.turn();
  }

  // Whether some opponent of the root player is mated by him at the end of a line.
  bool delivers_mate(const Position<W>& end) const {
    for (int p = 0; p < end.players(); ++p)
      if (end.is_enemy(root_, p) && end.meta().status[p] == ACTIVE && mated_by(end.as_turn_of(p), root_) == root_)
        return true;
    return false;
  }

  // ---- who plays for whom --------------------------------------------------------------

  bool on_root_side(int player) const { return player == root_ || !pos_.is_enemy(root_, player); }

  // Whether the players alternate between two sides (every player's successor is an enemy).
  static bool alternating_sides(const Position<W>& pos) {
    for (int p = 0; p < pos.players(); ++p)
      if (!pos.is_enemy(p, (p + 1) % pos.players())) return false;
    return pos.players() == 2 || pos.variant().teams;
  }

  Status status(int player) const { return Status(pos_.meta().status[player]); }

  int active_players() const {
    int n = 0;
    for (int p = 0; p < pos_.players(); ++p) n += status(p) == ACTIVE;
    return n;
  }

  // Pieces other than king and pawns: without them a null move risks zugzwang.
  bool has_pieces(int player) const {
    const auto own = pos_.pieces_of(player);
    return bool(own.minus(pos_.kind_bb(PAWN) | pos_.kind_bb(KING)));
  }

  // ---- evaluation ----------------------------------------------------------------------

  // Each player's evaluation plus his FFA points.
  Values player_values() const {
    Values v = quick_values();
    add_positional(v);
    return v;
  }

  // Material, placement and FFA points only: the quick estimate.
  Values quick_values() const {
    Values v = placement_values(pos_);
    if (rules_ == Rules::FREE_FOR_ALL)
      for (int p = 0; p < pos_.players(); ++p) v[p] += POINT_VALUE * points_[p];
    return v;
  }

  // Completes quick values into the whole evaluation.
  void add_positional(Values& v) const {
    const Values positional = positional_values(pos_, eval_);
    for (int p = 0; p < pos_.players(); ++p) v[p] += positional[p];
  }

  int evaluate() const { return root_score(player_values()); }

  // The root side's value minus the opponents' per opposing side (counted at the root, so
  // that an opponent's elimination does not reweigh the others), plus the places won by
  // every opponent out since the root.
  int root_score(const Values& values) const {
    int own = 0, others = 0;
    for (int p = 0; p < pos_.players(); ++p) {
      if (status(p) == OUT && rules_ != Rules::FREE_FOR_ALL) continue;
      (on_root_side(p) ? own : others) += values[p];
    }
    return own - others / opposing_sides_ + ELIMINATION_BONUS * newly_out(root_);
  }

  // Opponents of `player` who were in at the root and are out now (three-player only: in
  // free-for-all the points say what an elimination is worth).
  int newly_out(int player) const {
    if (rules_ != Rules::ELIMINATION) return 0;
    int n = 0;
    for (int p = 0; p < pos_.players(); ++p) n += p != player && status(p) == OUT && !out_at_root_[p];
    return n;
  }

  // Opposing sides of the root player: teams count once, solo players each.
  static int opposing_sides(const Position<W>& pos) {
    uint32_t teams = 0;
    for (int p = 0; p < pos.players(); ++p) {
      if (!pos.is_enemy(pos.turn(), p) || pos.meta().status[p] == OUT) continue;
      int team = p;
      for (int q = 0; q < p; ++q)
        if (!pos.is_enemy(p, q)) team = q;
      teams |= 1u << team;
    }
    return std::max(1, __builtin_popcount(teams));
  }

  // Every player's own score for max^n: his value minus the others' average (over the
  // players in at the root) plus his places won; a player who is out scores as lost.
  Values utilities(int ply) const {
    const Values v = player_values();
    Values u{};
    int total = 0;
    for (int p = 0; p < pos_.players(); ++p)
      if (status(p) != OUT || rules_ == Rules::FREE_FOR_ALL) total += v[p];
    const int others = std::max(1, in_at_root_ - 1);
    for (int p = 0; p < pos_.players(); ++p) {
      if (status(p) == OUT) u[p] = -(MATE - ply);
      else u[p] = v[p] - (total - v[p]) / others + ELIMINATION_BONUS * newly_out(p);
    }
    return u;
  }

  // ---- the game's rules inside the tree ------------------------------------------------

  struct Resolution {
    int events;  // undoable events played
    bool over;   // the game has ended
  };

  // The player to move has no legal move: plays out what the game does (rules §1.8-1.9,
  // §2.4) as undoable events. Multi-player games only.
  Resolution resolve_stuck() {
    const bool checked = in_check();
    return resolve(pos_.turn(), checked, checked ? mated_by(pos_) : -1);
  }

  // `me` has no legal move: mated by `mater` (if `checked`) or stalemated.
  Resolution resolve(int me, bool checked, int mater) {
    if (rules_ == Rules::FREE_FOR_ALL) {
      const int scorer = checked ? mater : me;  // a stalemated player scores himself
      points_stack_.push_back(points_);
      if (scorer >= 0) points_[scorer] += ELIMINATION_POINTS;
      pos_.event_eliminate(me, NOBODY, /*keep_king=*/true);
      return {1, active_players() <= 1};
    }
    bool someone_gone = false, someone_frozen = false;
    for (int p = 0; p < pos_.players(); ++p) {
      if (p == me) continue;
      someone_gone |= status(p) != ACTIVE;
      someone_frozen |= status(p) == FROZEN;
    }
    if (!checked) {
      if (someone_gone) return {0, true};  // a second stalemate, or one after a mate: a draw
      pos_.event_set_status(me, FROZEN);
      return {1, false};
    }
    pos_.event_eliminate(me, mater >= 0 ? mater : NOBODY);
    // After a stalemate, a mate ends the game (rules §1.9).
    return {1, someone_frozen || active_players() <= 1};
  }

  void undo(Resolution r) {
    for (int i = 0; i < r.events; ++i) pos_.unmake();
    if (r.events && rules_ == Rules::FREE_FOR_ALL) {
      points_ = points_stack_.back();
      points_stack_.pop_back();
    }
  }

  // Each player's result once the game is over: a win, a loss, or in between (shared or
  // middle places, draws). Free-for-all ranks by points, a middle place scoring between.
  Values outcome(int ply) const {
    Values u{};
    const int win = MATE - ply;
    if (rules_ == Rules::FREE_FOR_ALL) {
      const int n = pos_.players();
      for (int p = 0; p < n; ++p) {
        int ahead = 0, level = 0;
        for (int q = 0; q < n; ++q) {
          ahead += points_[q] > points_[p];
          level += q != p && points_[q] == points_[p];
        }
        // (n - 1) for a lone first, -(n - 1) for a lone last; ties take their mean
        u[p] = int(int64_t(win) * ((n - 1) - (2 * ahead + level)) / (n - 1));
      }
      return u;
    }
    if (active_players() != 1) return u;  // a draw
    for (int p = 0; p < pos_.players(); ++p) u[p] = status(p) == ACTIVE ? win : status(p) == OUT ? -win : 0;
    return u;
  }

  // Free-for-all: with two players left, a lead of 21 points ends the game (rules §2.4).
  bool points_lead() const {
    if (rules_ != Rules::FREE_FOR_ALL || active_players() != 2) return false;
    int first = -1;
    for (int p = 0; p < pos_.players(); ++p) {
      if (status(p) != ACTIVE) continue;
      if (first < 0) first = p;
      else return std::abs(points_[p] - points_[first]) >= POINTS_LEAD;
    }
    return false;
  }

  // The root player's score where the game is over for him: lost if he is out (in
  // free-for-all his points would still rank him, but playing as if being mated were a loss
  // scored better against the baselines), else the game's result.
  int decided_score(int ply) const { return status(root_) == OUT ? -(MATE - ply) : outcome(ply)[root_]; }

  // A repetition, taken as the draw it leads to. In three-player chess everyone still in
  // shares first place, which the root player takes only when he stands worse than the
  // contempt (against weaker players a draw gives away a better place); in free-for-all the
  // game ends with 10 points for each player still in, and the points rank (rules §2.4).
  int draw_score(int ply) {
    if (rules_ == Rules::ELIMINATION) return -DRAW_CONTEMPT;
    return rules_ == Rules::FREE_FOR_ALL ? draw_values(ply)[root_] : 0;
  }

  Values draw_values(int ply) {
    Values u{};
    if (rules_ == Rules::ELIMINATION) u[root_] = -DRAW_CONTEMPT;
    if (rules_ != Rules::FREE_FOR_ALL) return u;
    const Values saved = points_;
    for (int p = 0; p < pos_.players(); ++p) points_[p] += status(p) == ACTIVE ? DRAW_POINTS : 0;
    u = outcome(ply);
    points_ = saved;
    return u;
  }

  // Whether the root player's game is decided here without searching: he is out, everyone
  // else is, or a free-for-all has ended on a points lead. Multi-player games only.
  bool decided() const {
    return rules_ != Rules::TWO_SIDES && (status(root_) == OUT || active_players() <= 1 || points_lead());
  }

  // ---- moves ---------------------------------------------------------------------------

  // Plays a move, counting FFA points for a captured live piece.
  void play(Move m) {
    if (rules_ == Rules::FREE_FOR_ALL) {
      points_stack_.push_back(points_);
      const int victim_cell = move_type(m) == EN_PASSANT ? pos_.topo().landing_of_skipped[move_to(m)] : move_to(m);
      const Piece victim = pos_.piece_at(victim_cell);
      if (victim && pos_.meta().controller[colour_of(victim)] != NOBODY)
        points_[pos_.turn()] += CAPTURE_POINTS[kind_of(victim)];
    }
    pos_.make(m);
  }

  void take_back() {
    pos_.unmake();
    if (rules_ == Rules::FREE_FOR_ALL) {
      points_ = points_stack_.back();
      points_stack_.pop_back();
    }
  }

  void check_limits() {
    const uint64_t all_nodes = shared_nodes_.fetch_add(1024, std::memory_order_relaxed) + 1024;
    if (stop_.load(std::memory_order_relaxed)) stopped_ = true;
    if (limits_.nodes && all_nodes >= limits_.nodes) stopped_ = true;
    if (limits_.seconds > 0 && std::chrono::duration<double>(Clock::now() - start_).count() >= limits_.seconds)
      stopped_ = true;
  }

  // Counts a node; false once the search must stop.
  bool visit(int ply) {
    pv_length_[ply] = ply;
    if ((++nodes_ & 1023) == 0) check_limits();
    return !stopped_;
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

  // Score of a two-sided position whose mover has no legal move.
  int terminal(int ply) const {
    if (!in_check()) return 0;  // stalemate
    return on_root_side(pos_.turn()) ? -(MATE - ply) : MATE - ply;
  }

  bool is_capture(Move m) const { return pos_.piece_at(move_to(m)) != NO_PIECE || move_type(m) == EN_PASSANT; }

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

  // A quiet move that refuted the position: remembered for ordering elsewhere.
  void reward(Move m, int depth, int ply) {
    if (m == MOVE_NONE || is_capture(m)) return;
    if (killers_[ply][0] != m) {
      killers_[ply][1] = killers_[ply][0];
      killers_[ply][0] = m;
    }
    (*move_history_)[move_from(m)][move_to(m)] += depth * depth;
  }

  void extend_pv(int ply, Move m) {
    pv_[ply][ply] = m;
    for (int j = ply + 1; j < pv_length_[ply + 1]; ++j) pv_[ply][j] = pv_[ply + 1][j];
    pv_length_[ply] = std::max(pv_length_[ply + 1], ply + 1);
  }

  uint64_t tt_key() const { return pos_.key() ^ salt_; }

  static int to_tt(int score, int ply) {
    return score > WIN_BAND ? score + ply : score < -WIN_BAND ? score - ply : score;
  }
  static int from_tt(int score, int ply) {
    return score > WIN_BAND ? score - ply : score < -WIN_BAND ? score + ply : score;
  }

  // ---- alpha-beta: two sides, paranoid, best-reply -------------------------------------

  int search(int depth, int alpha, int beta, int ply) {
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

    const bool maximizing = on_root_side(pos_.turn());
    // (A frozen root player never moves again: the opponents' turns do not come back to him.)
    if (algorithm_ == Algorithm::BRS && !maximizing && status(root_) == ACTIVE)
      return best_reply(depth, alpha, beta, ply, moves, n, tt_move, key);
    const bool checked = in_check();

    // Null move, where the sides alternate (standard chess, four-player teams): if passing
    // still fails high for this side, a real move will too.
    if (rules_ == Rules::TWO_SIDES && ply > 0 && depth >= 4 && !checked && has_pieces(pos_.turn())) {
      pos_.make_null();
      const int reduced = depth - 3;
      const int score =
          maximizing ? search(reduced, beta - 1, beta, ply + 1) : search(reduced, alpha, alpha + 1, ply + 1);
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
      play(m);
      tt_.prefetch(tt_key());
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
        reward(m, depth, ply);
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

  // Best-reply search's opponents' layer: every opponent in turn order offers his moves (the
  // others passing), and the one worst for the root player is taken; then the root player
  // moves again. `moves` holds the first opponent's moves. An opponent after the first who
  // is already mated is eliminated first, as he would be when his turn came.
  int best_reply(int depth, int alpha, int beta, int ply, Move* moves, int n, Move tt_move, uint64_t key) {
    if (int mated[MAX_PLAYERS], found = later_mated_opponents(mated); found) {
      Resolution done[MAX_PLAYERS];
      bool over = false;
      for (int i = 0; i < found; ++i) over |= (done[i] = resolve(mated[i], true, root_)).over;
      const int score = over || decided() ? decided_score(ply) : search(depth, alpha, beta, ply + 1);
      for (int i = found - 1; i >= 0; --i) undo(done[i]);
      pv_length_[ply] = ply;
      return score;
    }
    const int beta0 = beta;
    int best = INFINITE_SCORE;
    Move best_move = MOVE_NONE;
    int passes = 0;
    bool cut = false;
    while (!cut) {
      sort_moves(moves, n, tt_move, ply);
      for (int i = 0; i < n && !cut; ++i) {
        const Move m = moves[i];
        play(m);
        int skipped = 0;
        for (; pos_.turn() != root_ && status(root_) == ACTIVE && active_players() > 1; ++skipped) pos_.make_null();
        int score = search(depth - 1, i == 0 ? alpha : beta - 1, beta, ply + 1);
        if (i > 0 && score < beta && score > alpha) score = search(depth - 1, alpha, beta, ply + 1);
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
          reward(m, depth, ply);
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
    tt_.store(key, best_move, to_tt(best, ply), depth, bound);
    return best;
  }

  // The opponents after the one to move who have no legal move while in check.
  int later_mated_opponents(int* mated) {
    int found = 0, passes = 0;
    for (pos_.make_null(), ++passes; passes < pos_.players() && !on_root_side(pos_.turn()); pos_.make_null(), ++passes)
      if (in_check() && count_legal_moves(pos_) == 0) mated[found++] = pos_.turn();
    for (; passes; --passes) pos_.unmake();
    return found;
  }

  // The player to move has no legal move. Where two sides play, the game is over; in the
  // multi-player games the rules decide his fate and, unless that ends the game, the next
  // player moves (in the main search, qply < 0, or in quiescence).
  int stuck(int depth, int alpha, int beta, int ply, int qply) {
    if (rules_ == Rules::TWO_SIDES) return terminal(ply);
    const Resolution r = resolve_stuck();
    int score;
    if (r.over || decided()) score = decided_score(ply);
    else if (qply < 0) score = search(depth, alpha, beta, ply + 1);
    else score = quiesce(alpha, beta, ply + 1, qply + 1);
    undo(r);
    pv_length_[ply] = ply;
    return score;
  }

  // Captures and promotions only, with the static value as a floor for the mover; in its first
  // plies every answer to a check as well. Its depth is capped: with three or four players
  // capture sequences can otherwise run on for dozens of plies.
  int quiesce(int alpha, int beta, int ply, int qply) {
    if (!visit(ply)) return 0;
    if (decided()) return decided_score(ply);
    if (ply >= MAX_PLY - 1 || qply >= MAX_QUIESCENCE_PLIES) return evaluate();
    const bool maximizing = on_root_side(pos_.turn());
    const bool checked = qply < QUIESCENCE_CHECK_PLIES && in_check();
    int best = maximizing ? -INFINITE_SCORE : INFINITE_SCORE;
    if (!checked) {
      // Stand pat before generating anything: most of these nodes end here. Lazy
      // evaluation: material and placement alone settle a cut-off when they pass the bound
      // by more than the positional terms can take back.
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
    if (checked && n == 0) return stuck(0, alpha, beta, ply, qply);
    sort_moves(moves, n, MOVE_NONE, ply);
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

  // ---- max^n ---------------------------------------------------------------------------

  // Every player picks the move best for his own component. Scores are not zero-sum once
  // games end, so nothing is pruned; the table only orders moves.
  Values maxn(int depth, int ply) {
    if (!visit(ply)) return {};
    if (decided()) return outcome_or_lost(ply);
    if (ply >= MAX_PLY - 1) return utilities(ply);
    if (ply > 0 && repeats()) return draw_values(ply);
    if (depth <= 0) return maxn_quiesce(ply, 0);

    const uint64_t key = tt_key();
    TTEntry e;
    const Move tt_move = tt_.probe(key, e) ? e.move : MOVE_NONE;
    Move moves[MAX_MOVES];
    const int n = legal_moves(pos_, moves);
    if (n == 0) return maxn_stuck(depth, ply, -1);

    const int me = pos_.turn();
    sort_moves(moves, n, tt_move, ply);
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
    reward(best_move, depth, ply);
    tt_.store(key, best_move, to_tt(best[me], ply), depth, BOUND_EXACT);
    return best;
  }

  Values maxn_quiesce(int ply, int qply) {
    if (!visit(ply)) return {};
    if (decided()) return outcome_or_lost(ply);
    if (ply >= MAX_PLY - 1 || qply >= MAXN_QUIESCENCE_PLIES) return utilities(ply);
    const int me = pos_.turn();
    const bool checked = qply < QUIESCENCE_CHECK_PLIES && in_check();
    Move moves[MAX_MOVES];
    const int n = checked ? legal_moves(pos_, moves) : legal_captures(pos_, moves);
    if (checked && n == 0) return maxn_stuck(0, ply, qply);
    Values best{};
    best[me] = -INFINITE_SCORE;
    if (!checked) best = utilities(ply);
    sort_moves(moves, n, MOVE_NONE, ply);
    for (int i = 0; i < n; ++i) {
      play(moves[i]);
      const Values v = maxn_quiesce(ply + 1, qply + 1);
      take_back();
      if (stopped_) return {};
      if (v[me] > best[me]) best = v;
    }
    return best;
  }

  Values maxn_stuck(int depth, int ply, int qply) {
    const Resolution r = resolve_stuck();
    Values v;
    if (r.over || decided()) v = outcome_or_lost(ply);
    else if (qply < 0) v = maxn(depth, ply + 1);
    else v = maxn_quiesce(ply + 1, qply + 1);
    undo(r);
    pv_length_[ply] = ply;
    return v;
  }

  // The end of the game, or the root player out while the others play on.
  Values outcome_or_lost(int ply) const {
    if (status(root_) != OUT || active_players() <= 1) return outcome(ply);
    Values u = utilities(ply);
    u[root_] = decided_score(ply);
    return u;
  }

  Position<W> pos_;
  std::vector<Move> line_;  // the principal line of the last completed iteration
  TranspositionTable& tt_;
  SearchLimits limits_;
  const std::atomic<bool>& stop_;
  std::atomic<uint64_t>& shared_nodes_;
  const int first_depth_;
  const EvalTables<W>& eval_;
  const int root_;
  const Rules rules_;
  const Algorithm algorithm_;
  const uint64_t salt_;
  Values points_;
  std::vector<Values> points_stack_;
  const int opposing_sides_;
  bool out_at_root_[MAX_PLAYERS] = {};
  int in_at_root_ = 0;
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
  // Lazy SMP: helper threads search the same root with their own histories, sharing only
  // the table, which they fill with results the main thread then finds; the main thread's
  // result is the answer. Half the helpers start one iteration deeper, so the threads
  // spread over depths instead of repeating each other.
  tt.new_search();
  std::atomic<uint64_t> shared_nodes{0};
  std::atomic<bool> helpers_stop{false};
  SearchLimits helper_limits = limits;
  helper_limits.nodes = 0;  // helpers stop with the main thread
  helper_limits.seconds = 0.0;
  std::vector<std::unique_ptr<Searcher<W>>> helpers;
  for (int i = 1; i < limits.threads; ++i)
    helpers.push_back(std::make_unique<Searcher<W>>(root, tt, helper_limits, helpers_stop, shared_nodes, 1 + (i & 1)));
  // Stops and joins the helpers however the main search ends: an exception thrown by the
  // main thread (a callback's, an allocation's) must not leave joinable threads behind.
  struct HelperThreads {
    std::atomic<bool>& stop;
    std::vector<std::thread> threads;
    void join() {
      stop = true;
      for (auto& t : threads) t.join();
      threads.clear();
    }
    ~HelperThreads() { join(); }
  } running{helpers_stop, {}};
  for (auto& helper : helpers) running.threads.emplace_back([&helper] { helper->run(nullptr); });
  auto main = std::make_unique<Searcher<W>>(root, tt, limits, stop, shared_nodes, 1);
  SearchReport report = main->run(on_iteration);
  running.join();
  for (auto& helper : helpers) report.nodes += helper->nodes();
  return report;
}

template SearchReport search<1>(const Position<1>&, TranspositionTable&, const SearchLimits&, const std::atomic<bool>&,
                                const IterationCallback&);
template SearchReport search<2>(const Position<2>&, TranspositionTable&, const SearchLimits&, const std::atomic<bool>&,
                                const IterationCallback&);
template SearchReport search<3>(const Position<3>&, TranspositionTable&, const SearchLimits&, const std::atomic<bool>&,
                                const IterationCallback&);

}  // namespace polychess
