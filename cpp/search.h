// Search: iterative deepening alpha-beta over the legal-move generator, for every variant.
//
// The search plays for the side of the player to move at the root: his team in standard and
// four-player teams chess (where it is plain minimax), himself against everyone else in the
// multi-player games (the "paranoid" assumption: every opponent minimises the root player's
// score). Each node maximises or minimises by whether its mover is on the root's side, so
// one routine serves all variants.
//
// Scores come from evaluate.h's per-player values: the root side's total minus the
// opponents' total divided by the number of opposing sides. A mate (or a lone surviving
// side) scores MATE less the distance in plies. Search has a transposition table, move
// ordering (table move, captures by victim value then attacker, killer moves, history),
// quiescence on captures, check extensions, and stops on depth, node and time limits or an
// external flag.
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <vector>

#include "position.h"
#include "tt.h"

namespace polychess {

constexpr int MATE = 1000000;
constexpr int INFINITE_SCORE = 2000000;
constexpr int MAX_PLY = 96;

struct SearchLimits {
  int depth = 0;         // 0: no depth limit
  uint64_t nodes = 0;    // 0: no node limit
  double seconds = 0.0;  // 0: no time limit
};

struct SearchReport {
  Move best = MOVE_NONE;
  int score = 0;  // for the root player's side
  int depth = 0;  // last completed iteration
  uint64_t nodes = 0;
  double seconds = 0.0;
  std::vector<Move> pv;
  std::array<int, MAX_PLAYERS> player_values{};  // evaluate.h's values at the end of the PV
};

using IterationCallback = std::function<void(const SearchReport&)>;

template <int W>
SearchReport search(const Position<W>& root, TranspositionTable& tt, const SearchLimits& limits,
                    const std::atomic<bool>& stop, const IterationCallback& on_iteration);

}  // namespace polychess
