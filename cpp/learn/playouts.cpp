#include "learn/playouts.h"

#include <thread>

#include "base/errors.h"
#include "base/random.h"
#include "core/game_state.h"
#include "core/placement.h"

namespace polychess {
namespace {

template <int W>
int pick(const Position<W>& pos, const Move* moves, int n, Policy policy, SplitMix& rng) {
  if (policy == Policy::GREEDY) {
    int best_value = 0, ties = 0, chosen = -1;
    for (int i = 0; i < n; ++i) {
      const Piece victim = move_type(moves[i]) == EN_PASSANT ? make_piece(0, PAWN) : pos.piece_at(move_to(moves[i]));
      const int value = victim ? PIECE_VALUE[kind_of(victim)] + 1 : 0;
      if (value > best_value) {
        best_value = value;
        ties = 1;
        chosen = i;
      } else if (value == best_value && value > 0 && rng.below(++ties) == 0) {
        chosen = i;  // reservoir sampling among equal captures
      }
    }
    if (chosen >= 0) return chosen;
  }
  return rng.below(n);
}

template <int W>
void play_range(const Position<W>& start, const GameState<W>& prototype, const PlayoutOptions& options, int first,
                int last, PlayoutResult* results) {
  Position<W> pos = start;
  GameState<W> game(pos, prototype);
  for (int g = first; g < last; ++g) {
    SplitMix rng{options.seed ^ (uint64_t(g) * 0xD1B54A32D192ED03ull)};
    rng.next();
    PlayoutResult& r = results[g];
    while (!game.is_terminal() && (options.max_plies == 0 || game.facts().ply < options.max_plies)) {
      int n = 0;
      const Move* moves = game.judged_moves(n);
      if (n == 0) break;  // nobody can move and no rule ended the game
      const Move m = moves[pick(pos, moves, n, options.policy, rng)];
      if (options.record_moves) r.moves.push_back(m);
      game.apply(m);
    }
    r.termination = game.facts().termination;
    r.plies = game.facts().ply;
    r.points = game.facts().points;
    if (game.is_terminal()) r.places = game.facts().places;
    r.returns = game.returns();
    while (game.undo()) {}
  }
}

}  // namespace

Policy policy_named(const std::string& name) {
  if (name == "random") return Policy::RANDOM;
  if (name == "greedy") return Policy::GREEDY;
  throw std::invalid_argument("unknown policy " + quoted(name) + " (random or greedy)");
}

template <int W>
std::vector<PlayoutResult> run_playouts(const Position<W>& start, const PlayoutOptions& options) {
  if (options.games < 0) throw std::invalid_argument("games must be >= 0, got " + std::to_string(options.games));
  if (options.threads < 1) throw std::invalid_argument("threads must be >= 1, got " + std::to_string(options.threads));
  Position<W> start_pos = start;
  const GameState<W> prototype(start_pos);  // judges the start once, throws for bad rules
  std::vector<PlayoutResult> results(size_t(options.games));
  const int threads = std::max(1, std::min(options.threads, options.games));
  std::vector<std::thread> workers;
  const int per = (options.games + threads - 1) / threads;
  for (int t = 1; t < threads; ++t) {
    const int first = t * per, last = std::min(options.games, first + per);
    if (first < last)
      workers.emplace_back(
          [&, first, last] { play_range(start_pos, prototype, options, first, last, results.data()); });
  }
  play_range(start_pos, prototype, options, 0, std::min(options.games, per), results.data());
  for (auto& w : workers) w.join();
  return results;
}

template std::vector<PlayoutResult> run_playouts<1>(const Position<1>&, const PlayoutOptions&);
template std::vector<PlayoutResult> run_playouts<2>(const Position<2>&, const PlayoutOptions&);
template std::vector<PlayoutResult> run_playouts<3>(const Position<3>&, const PlayoutOptions&);

}  // namespace polychess
