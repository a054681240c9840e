// Iterative deepening, the search report and the parallel search (lazy SMP).
#include <algorithm>
#include <bit>
#include <functional>
#include <string>
#include <thread>

#include "base/errors.h"
#include "search/searcher.h"

namespace polychess {

template <int W>
Searcher<W>::Searcher(const GameState<W>& root, TranspositionTable& tt, const SearchLimits& limits,
                      const std::atomic<bool>& stop, ThreadShare& share, int first_depth)
    : pos_(root.position()),
      state_(pos_, root),
      tt_(tt),
      limits_(limits),
      stop_(stop),
      share_(share),
      busy_(share.busy.get()),
      first_depth_(first_depth),
      eval_(eval_tables(pos_.topo())),
      network_(limits.network ? std::make_unique<NetworkEvaluator<W>>(*limits.network, pos_.variant()) : nullptr),
      root_(pos_.turn()),
      two_sides_(alternating_sides(pos_)),
      algorithm_(two_sides_         ? Algorithm::PARANOID
                 : limits.algorithm ? *limits.algorithm
                                    : algorithm_named(pos_.variant().default_algorithm)),
      counts_points_(root.rules().ranking == Ranking::POINTS),
      opposing_sides_(opposing_sides(pos_)),
      contempt_(root.rules().ranking == Ranking::ORDER_OUT && opposing_sides(pos_) > 1 ? DRAW_CONTEMPT : 0) {
  for (int p = 0; p < pos_.players(); ++p) {
    out_at_root_[p] = pos_.meta().status[p] == OUT;
    in_at_root_ += !out_at_root_[p];
  }
  salt_ = table_salt();
  table_sign_ = two_sides_ && !on_root_side(0) ? -1 : 1;
  // Every ply can add a move, passes (best-reply search, null moves) and elimination events:
  // room for all of them, so that the search itself allocates nothing.
  pos_.reserve_history(size_t(MAX_PLY) * (2 * MAX_PLAYERS + 1));
  state_.reserve(size_t(MAX_PLY) * (MAX_PLAYERS + 1));
  state_.leave_repetitions_to_caller();
  while (limits_.nodes && check_mask_ > 0 && (check_mask_ + 1) * 64 > limits_.nodes) check_mask_ >>= 1;
  start_ = SearchClock::now();
}

template <int W>
SearchReport Searcher<W>::run(const IterationCallback& on_iteration) {
  SearchReport report;
  Move moves[MAX_MOVES];
  line_count_ = 0;
  const int n = keep_root_moves(moves, state_.legal_moves(moves));
  if (n == 0) return finish(report);
  report.best = moves[0];
  const int lines_wanted = std::min(limits_.multipv, n);
  std::vector<SearchLine> lines;
  lines.reserve(size_t(lines_wanted));
  const int max_depth = limits_.depth > 0 ? std::min(limits_.depth, MAX_DEPTH) : MAX_DEPTH;
  for (int depth = std::min(first_depth_, max_depth); depth <= max_depth; ++depth) {
    seldepth_ = 0;
    lines.clear();
    line_count_ = 0;
    // Each line searches the root without the first moves of the lines found before it.
    while (int(lines.size()) < lines_wanted) {
      const int k = int(lines.size());
      const int previous = k < int(report.lines.size()) ? report.lines[k].score : report.score;
      const int score = algorithm_ == Algorithm::MAXN ? maxn(depth, 0)[root_] : aspiration(depth, previous);
      if (stopped_ && (report.depth > 0 || k > 0)) break;  // an unfinished line is not trusted
      line_.assign(pv_[0], pv_[0] + pv_length_[0]);
      if (two_sides_) extend_line_from_table(depth);
      SearchLine line = describe_line(score);
      if (line.move == MOVE_NONE)  // stopped before a move was searched: the first one left
        line.move = *std::find_if(moves, moves + n, [&](Move m) {
          return std::find(lines_found_, lines_found_ + line_count_, m) == lines_found_ + line_count_;
        });
      lines_found_[line_count_++] = line.move;
      lines.push_back(std::move(line));
      if (stopped_) break;
    }
    // An unfinished iteration is not trusted, unless it is the first.
    if (lines.empty() || (int(lines.size()) < lines_wanted && report.depth > 0)) break;
    std::stable_sort(lines.begin(), lines.end(),
                     [](const SearchLine& a, const SearchLine& b) { return a.score > b.score; });
    report.lines = lines;
    const SearchLine& best = lines[0];
    report.best = best.move;
    report.score = best.score;
    report.pv = best.pv;
    report.mate_moves = best.mate_moves;
    report.player_values = best.player_values;
    report.depth = depth;
    report.seldepth = std::max(seldepth_, depth);
    finish(report);
    if (busy_) {
      const std::lock_guard<std::mutex> lock(share_.deepest_mutex);
      if (depth > share_.deepest.depth) share_.deepest = report;
      if (depth == max_depth) share_.last_depth_done = true;
    }
    if (on_iteration) on_iteration(report);
    // A decided score ends the deepening, unless a depth was asked for: that search reports
    // the depth (a table carried over from an earlier search can prove a mate early). With
    // several lines, the others may still be open.
    if (stopped_ || (std::abs(report.score) > WIN_BAND && limits_.depth == 0 && lines_wanted == 1)) break;
  }
  return finish(report);
}

// A table hit ends a principal line early: a search repeated over the table of the one before
// finds its first reply's result there, and the line it reports was one move long. Where two
// sides alternate (a position's moves are the game's), the line goes on with the table's
// moves while they are legal, up to the iteration's depth.
template <int W>
void Searcher<W>::extend_line_from_table(int depth) {
  Position<W> end = pos_;
  for (const Move m : line_) end.make(m);
  Move moves[MAX_MOVES];
  while (int(line_.size()) < depth) {
    TTEntry e;
    // (keyed without the points: where they rank, the line ends here)
    if (!tt_.probe(end.key() ^ salt_, e) || e.move == MOVE_NONE) break;
    const int n = legal_moves(end, moves);
    if (std::find(moves, moves + n, e.move) == moves + n) break;
    end.make(e.move);
    line_.push_back(e.move);
  }
}

// What a table entry's score depends on besides the position (searcher.h): mixed into every key.
template <int W>
uint64_t Searcher<W>::table_salt() const {
  uint64_t salt = 0;
  auto mix = [&salt](uint64_t value) {  // splitmix64's finaliser over the running salt
    uint64_t z = (salt ^ value) + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    salt = z ^ (z >> 31);
  };
  const Variant& variant = pos_.variant();
  mix(std::hash<std::string>{}(variant.name + '/' + variant.mode + '/' + variant.setup));
  mix(std::hash<std::string>{}(rules_text(state_.rules())));
  mix(uint64_t(algorithm_));
  // The evaluation: the network's weights (by their hash) or the classic evaluation's table, and the noise.
  mix(network_ ? limits_.network->hash() : uint64_t(reinterpret_cast<uintptr_t>(&pos_.evaluation())));
  mix(uint64_t(limits_.noise));
  mix(limits_.noise ? limits_.noise_seed : 0);
  if (!two_sides_) {  // the root player's own scores, against the opponents in at the root
    mix(uint64_t(root_) + 1);
    for (int p = 0; p < pos_.players(); ++p) mix(out_at_root_[p]);
  }
  return salt;
}

// An alpha-beta iteration in a window around the previous iteration's score, widened on the
// side it fails on until the score falls inside: a narrow window prunes more.
template <int W>
int Searcher<W>::aspiration(int depth, int previous) {
  if (depth < ASPIRATION_DEPTH || std::abs(previous) > WIN_BAND)
    return alphabeta(depth, -INFINITE_SCORE, INFINITE_SCORE, 0);
  int delta = ASPIRATION_WINDOW;
  int alpha = std::max(-INFINITE_SCORE, previous - delta), beta = std::min(INFINITE_SCORE, previous + delta);
  for (;;) {
    const int score = alphabeta(depth, alpha, beta, 0);
    if (stopped_) return score;
    delta *= 2;
    if (score <= alpha) alpha = score - delta < -WIN_BAND ? -INFINITE_SCORE : score - delta;
    else if (score >= beta) beta = score + delta > WIN_BAND ? INFINITE_SCORE : score + delta;
    else return score;
  }
}

// Describes the principal line, replayed in a copy of the game. A best-reply line skips turns:
// it is replayed passing the turn to whoever moves next in it, and reported only as far as it
// is a game line. A line in which the root player mates an opponent reports his moves up to
// that mate.
template <int W>
SearchLine Searcher<W>::describe_line(int score) const {
  SearchLine line;
  line.score = score;
  if (!line_.empty()) line.move = line_[0];
  Position<W> end = pos_;
  GameState<W> game(end, state_);
  size_t game_line = line_.size();
  int root_moves = 0;
  auto moves_own_piece = [](const Position<W>& pos, Move m) {
    const Piece piece = pos.piece_at(move_from(m));
    return piece && pos.meta().controller[colour_of(piece)] == pos.turn();
  };
  for (size_t i = 0; i < line_.size() && !game.is_terminal(); ++i) {
    const Move m = line_[i];
    for (int passes = 0; passes < end.players() && !moves_own_piece(end, m); ++passes) {
      end.make_null();
      game_line = std::min(game_line, i);
    }
    const bool root_moves_now = end.turn() == root_;
    root_moves += root_moves_now;
    const size_t out_before = game.eliminations().size();
    game.apply(m);
    for (size_t e = out_before; e < game.eliminations().size() && root_moves_now && line.mate_moves < 0; ++e)
      if (game.eliminations()[e].reason == Reason::CHECKMATE && game.eliminations()[e].by == root_)
        line.mate_moves = root_moves;
  }
  line.pv.assign(line_.begin(), line_.begin() + game_line);
  line.player_values = network_ ? network_->evaluate(end) : evaluate_players(end, eval_, &pawn_cache_);
  if (line.mate_moves < 0 && root_moves > 0 && delivers_mate(end)) line.mate_moves = root_moves;
  return line;
}

// The counts and the time.
template <int W>
SearchReport& Searcher<W>::finish(SearchReport& report) {
  report.nodes = nodes_;
  report.cutoffs = cutoffs_;
  report.first_move_cutoffs = first_move_cutoffs_;
  report.seconds = std::chrono::duration<double>(SearchClock::now() - start_).count();
  return report;
}

// Whether some opponent of the root player is mated by him at the end of a line.
template <int W>
bool Searcher<W>::delivers_mate(const Position<W>& end) const {
  for (int p = 0; p < end.players(); ++p)
    if (end.is_enemy(root_, p) && end.meta().status[p] == ACTIVE && mated_by(end.as_turn_of(p), root_) == root_)
      return true;
  return false;
}

template <int W>
void Searcher<W>::check_limits() {
  const uint64_t all_nodes = share_.nodes.fetch_add(check_mask_ + 1, std::memory_order_relaxed) + check_mask_ + 1;
  if (stop_.load(std::memory_order_relaxed) || share_.last_depth_done.load(std::memory_order_relaxed)) stopped_ = true;
  if (limits_.nodes && all_nodes >= limits_.nodes) stopped_ = true;
  if (limits_.seconds > 0 && std::chrono::duration<double>(SearchClock::now() - start_).count() >= limits_.seconds)
    stopped_ = true;
}

// Whether the players alternate between two sides (every player's successor is an enemy).
template <int W>
bool Searcher<W>::alternating_sides(const Position<W>& pos) {
  for (int p = 0; p < pos.players(); ++p)
    if (!pos.is_enemy(p, (p + 1) % pos.players())) return false;
  return pos.players() == 2 || pos.variant().teams;
}

// Opposing sides of the root player: teams count once, solo players each.
template <int W>
int Searcher<W>::opposing_sides(const Position<W>& pos) {
  uint32_t teams = 0;
  for (int p = 0; p < pos.players(); ++p) {
    if (!pos.is_enemy(pos.turn(), p) || pos.meta().status[p] == OUT) continue;
    int team = p;
    for (int q = 0; q < p; ++q)
      if (!pos.is_enemy(p, q)) team = q;
    teams |= 1u << team;
  }
  return std::max(1, std::popcount(teams));
}

Algorithm algorithm_named(const std::string& name) {
  if (name == "paranoid") return Algorithm::PARANOID;
  if (name == "maxn") return Algorithm::MAXN;
  if (name == "brs") return Algorithm::BRS;
  throw std::invalid_argument("unknown algorithm " + quoted(name) + " (paranoid, maxn, brs)");
}

std::optional<Algorithm> algorithm_or_default(const std::string& name) {
  if (name.empty()) return std::nullopt;
  return algorithm_named(name);
}

template <int W>
SearchReport search(const GameState<W>& root, TranspositionTable& tt, const SearchLimits& limits,
                    const std::atomic<bool>& stop, const IterationCallback& on_iteration) {
  if (limits.depth < 0 || limits.depth > MAX_DEPTH || limits.nodes > MAX_NODES ||
      !(limits.seconds >= 0 && limits.seconds <= MAX_SECONDS))
    throw std::invalid_argument("search limits out of range (depth 0 to " + std::to_string(MAX_DEPTH) +
                                ", seconds 0 to " + std::to_string(int(MAX_SECONDS)) + ")");
  if (limits.threads < 1 || limits.threads > 256) throw std::invalid_argument("threads must be between 1 and 256");
  if (limits.noise < 0 || limits.noise > 10000) throw std::invalid_argument("noise must be between 0 and 10000");
  if (limits.multipv < 1 || limits.multipv > MAX_MOVES)
    throw std::invalid_argument("multipv must be between 1 and " + std::to_string(MAX_MOVES));
  if (!limits.searchmoves.empty()) {
    Move legal[MAX_MOVES];
    const int n = root.legal_moves(legal);
    for (const Move m : limits.searchmoves)
      if (std::find(legal, legal + n, m) == legal + n)
        throw std::invalid_argument("searchmoves holds a move that is not legal here");
  }
  if (limits.network) limits.network->check_game(root.position().variant());
  // Lazy SMP: helper threads search the same root with their own histories, sharing the table,
  // which they fill with results the main thread then finds, and the moves each is searching,
  // which the others put off (thread_share.h). The deepest iteration completed is the answer.
  // Half the helpers start one iteration deeper, so the threads spread over depths instead of
  // repeating each other.
  tt.new_search();
  auto share = std::make_unique<ThreadShare>();
  if (limits.threads > 1) share->busy = std::make_unique<BusyMoves>();
  std::atomic<bool> helpers_stop{false};
  SearchLimits helper_limits = limits;
  helper_limits.nodes = 0;  // helpers stop with the main thread
  helper_limits.seconds = 0.0;
  helper_limits.multipv = 1;  // they only fill the table: the main thread finds the lines
  std::vector<std::unique_ptr<Searcher<W>>> helpers;
  for (int i = 1; i < limits.threads; ++i)
    helpers.push_back(std::make_unique<Searcher<W>>(root, tt, helper_limits, helpers_stop, *share, 1 + (i & 1)));
  // Stops and joins the helpers however the main search ends: an exception thrown by the main
  // thread (a callback's, an allocation's) must not leave joinable threads behind.
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
  auto main = std::make_unique<Searcher<W>>(root, tt, limits, stop, *share, 1);
  SearchReport report = main->run(on_iteration);
  running.join();
  if (share->deepest.depth > report.depth && limits.multipv == 1) {
    const SearchReport main_report = report;
    report = share->deepest;
    report.nodes = main_report.nodes;
    report.cutoffs = main_report.cutoffs;
    report.first_move_cutoffs = main_report.first_move_cutoffs;
    report.seconds = main_report.seconds;
  }
  for (auto& helper : helpers) {
    report.nodes += helper->nodes();
    report.cutoffs += helper->cutoffs();
    report.first_move_cutoffs += helper->first_move_cutoffs();
  }
  return report;
}

#define POLYCHESS_DRIVER(W)                                                                      \
  template Searcher<W>::Searcher(const GameState<W>&, TranspositionTable&, const SearchLimits&,  \
                                 const std::atomic<bool>&, ThreadShare&, int);                   \
  template SearchReport Searcher<W>::run(const IterationCallback&);                              \
  template int Searcher<W>::aspiration(int, int);                                                \
  template void Searcher<W>::check_limits();                                                     \
  template SearchReport search<W>(const GameState<W>&, TranspositionTable&, const SearchLimits&, \
                                  const std::atomic<bool>&, const IterationCallback&);
POLYCHESS_DRIVER(1)
POLYCHESS_DRIVER(2)
POLYCHESS_DRIVER(3)

}  // namespace polychess
