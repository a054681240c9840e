// Self-play for the networks' training data (nnue/training_data.h): the engine plays every seat
// of one game per start position, searching each move to a fixed node budget, and the game's
// record keeps each move with its search score and every player's result. One call plays a
// batch on its own threads; each game is fixed by its start position and the options,
// whatever the threads.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "games/rules.h"
#include "games/variant.h"
#include "nnue/network.h"
#include "nnue/training_data.h"
#include "search/search.h"

namespace polychess {

struct SelfPlayOptions {
  uint64_t nodes = 5000;     // per move
  uint32_t max_plies = 300;  // a game still on here is recorded as a draw among those in
  int threads = 1;
  size_t hash_mb = 16;                 // per thread, cleared before each game
  const Network* network = nullptr;    // the evaluation to play with; null: the classic one
  std::optional<Algorithm> algorithm;  // where more than two sides play; none: the game's own
};

// One game from each start position string of `variant`, by `rules`; InvalidPosition for a
// bad start, std::invalid_argument for options it cannot honour. `stop`, when raised, ends the
// batch after the games in play (they are left out).
std::vector<TrainingGame> self_play(const Variant& variant, const Rules& rules, const std::vector<std::string>& starts,
                                    const SelfPlayOptions& options, const std::atomic<bool>* stop = nullptr);

}  // namespace polychess
