// The positions of training records (training_data.h), replayed by the rules and read as the
// network reads them: each player's features (features.h), the player to move, the mover's
// search score, every player's result, who is still in and the points. What the training
// (polychess.training) takes in batches, as flat arrays, with the classic evaluation's values of
// each position to measure the network against.
//
// Left out, as the classic tuning leaves them out: positions whose mover is in check or whose
// last move captured (their static value says little before the exchange or the escape is
// played out), the first `skip_plies` of each game (the random opening), and positions whose
// score is a found win or loss (no evaluation needs to learn those).
#pragma once

#include <cstdint>
#include <vector>

#include "games/rules.h"
#include "games/variant.h"
#include "nnue/training_data.h"

namespace polychess {

struct TrainingPositions {
  int players = 0;
  int slots = 0;  // feature slots per perspective: the most pieces the board holds
  size_t count = 0;
  std::vector<int16_t> features;  // [count][players][slots], padded with -1
  std::vector<uint8_t> turn;      // [count]
  std::vector<int16_t> score;     // [count], the mover's side's
  std::vector<uint8_t> result;    // [count][players], times 2 * (players - 1)
  std::vector<uint8_t> in_game;   // [count][players], 1 for a player not out
  std::vector<int32_t> points;    // [count][players]
  std::vector<int32_t> classic;   // [count][players], the classic evaluation's values (a baseline)
};

// The positions of games [first, first + count) of `games`, replayed by `rules` from their
// starts, their features read with `buckets` king buckets (features.h); InvalidTrainingData
// for a record whose move is not legal where it stands.
TrainingPositions training_positions(const Variant& variant, const Rules& rules, const std::vector<TrainingGame>& games,
                                     size_t first, size_t count, int skip_plies, int buckets = 1);

}  // namespace polychess
