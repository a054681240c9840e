// Whole games played out in C++ from one call: random or greedy moves, every rule applied by
// the resolver (game_state.h). For benchmarks, tests, openings and self-play data.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "games/rules.h"

namespace polychess {

enum class Policy : uint8_t {
  RANDOM,  // a legal move drawn uniformly
  GREEDY,  // the capture of the most valuable piece (ties drawn at random), else a random move
};

// The policy a name ("random", "greedy") stands for; std::invalid_argument otherwise.
Policy policy_named(const std::string& name);

struct PlayoutOptions {
  int games = 1;
  uint64_t seed = 0;  // game i is fixed by (seed, i), whatever the number of threads
  Policy policy = Policy::RANDOM;
  uint32_t max_plies = 0;  // 0: until the game ends
  bool record_moves = false;
  int threads = 1;
};

struct PlayoutResult {
  Termination termination = Termination::NONE;  // NONE: stopped at max_plies
  uint32_t plies = 0;
  std::array<uint8_t, MAX_PLAYERS> places{};  // 0 for a seat nobody sits in, or an unfinished game
  std::array<int, MAX_PLAYERS> points{};
  std::array<double, MAX_PLAYERS> returns{};
  std::vector<Move> moves;  // with record_moves
};

template <int W>
class Position;

// Plays options.games games from `start`, by its rules; std::invalid_argument for options it
// cannot honour (fewer than 0 games, fewer than 1 thread).
template <int W>
std::vector<PlayoutResult> run_playouts(const Position<W>& start, const PlayoutOptions& options);

}  // namespace polychess
