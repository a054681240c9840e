#include "selfplay/selfplay.h"

#include <algorithm>
#include <thread>

#include "core/any_width.h"
#include "core/game_state.h"
#include "search/search.h"

namespace polychess {
namespace {

// Each player's share of the other seats he finished ahead of (a tie counting half), times
// 2 * (seats - 1); 0 for a seat nobody sits in. A player with no place yet (the game stopped
// at the ply cap) shares the best place with every other such player.
template <int W>
std::array<uint8_t, MAX_PLAYERS> results_of(const GameState<W>& game) {
  std::array<uint8_t, MAX_PLAYERS> result{};
  const auto& places = game.facts().places;
  auto place = [&](int p) { return places[p] ? int(places[p]) : 0; };
  for (int p = 0; p < game.players(); ++p) {
    if (!game.is_seat(p)) continue;
    int twice = 0;
    for (int q = 0; q < game.players(); ++q)
      if (q != p && game.is_seat(q)) twice += place(q) > place(p) ? 2 : place(q) == place(p) ? 1 : 0;
    result[p] = uint8_t(twice);
  }
  return result;
}

int16_t recorded_score(int score) {
  if (score > MATE - MAX_PLY) return MATE_SCORE;
  if (score < -(MATE - MAX_PLY)) return int16_t(-MATE_SCORE);
  return int16_t(std::clamp(score, -(MATE_SCORE - 1), MATE_SCORE - 1));
}

template <int W>
TrainingGame play_one(const Variant& variant, const Rules& rules, const std::string& start,
                      const SelfPlayOptions& options, TranspositionTable& tt, const std::atomic<bool>& stop) {
  Position<W> pos(variant, start, rules);
  GameState<W> game(pos);
  TrainingGame record;
  record.start = start;
  record.players = game.players();
  SearchLimits limits;
  limits.nodes = options.nodes;
  limits.network = options.network;
  limits.algorithm = options.algorithm;
  tt.clear();
  while (!game.is_terminal() && game.facts().ply < options.max_plies && !stop) {
    int n = 0;
    game.judged_moves(n);
    if (n == 0) break;  // nobody can move and no rule ended the game
    const SearchReport report = search(game, tt, limits, stop, {});
    if (report.best == MOVE_NONE) break;
    record.moves.push_back(TrainingMove{training_move(report.best), recorded_score(report.score)});
    game.apply(report.best);
  }
  record.result = results_of(game);
  return record;
}

}  // namespace

std::vector<TrainingGame> self_play(const Variant& variant, const Rules& rules, const std::vector<std::string>& starts,
                                    const SelfPlayOptions& options, const std::atomic<bool>* stop) {
  if (options.threads < 1 || options.threads > 256) throw std::invalid_argument("threads must be between 1 and 256");
  if (options.nodes < 1) throw std::invalid_argument("nodes must be at least 1");
  if (options.network) options.network->check_game(variant);
  // Every start is read before any game is played, so that a bad one fails the batch at once.
  for (const std::string& start : starts) make_position(variant, &start, rules);
  static const std::atomic<bool> never{false};
  const std::atomic<bool>& stopped = stop ? *stop : never;
  std::vector<TrainingGame> games(starts.size());
  std::vector<char> done(starts.size(), 0);  // (not vector<bool>: threads write neighbours)
  std::atomic<size_t> next{0};
  auto work = [&] {
    TranspositionTable tt(options.hash_mb);
    for (size_t i = next++; i < starts.size() && !stopped; i = next++) {
      switch (variant.words) {
        case 1:
          games[i] = play_one<1>(variant, rules, starts[i], options, tt, stopped);
          break;
        case 2:
          games[i] = play_one<2>(variant, rules, starts[i], options, tt, stopped);
          break;
        default:
          games[i] = play_one<3>(variant, rules, starts[i], options, tt, stopped);
          break;
      }
      done[i] = !stopped;
    }
  };
  std::vector<std::thread> workers;
  for (int t = 1; t < std::min<int>(options.threads, int(starts.size())); ++t) workers.emplace_back(work);
  work();
  for (auto& w : workers) w.join();
  std::vector<TrainingGame> finished;
  for (size_t i = 0; i < games.size(); ++i)
    if (done[i]) finished.push_back(std::move(games[i]));
  return finished;
}

}  // namespace polychess
