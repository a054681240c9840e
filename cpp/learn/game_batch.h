// Many games stepped together for learning agents (docs/rl.md, "Vector environment"): one
// call plays one move in each game and writes what the agents see next (observations, legal
// action masks, rewards) into caller-owned arrays. The Python vector environment
// (polychess.rl.vector_env) is this class; the bindings release the GIL around its calls.
//
// Rewards follow a player's place: a player whose place becomes fixed (out with a place, or
// the game over) receives his return at that step (GameState::return_of), so a player's
// rewards over a game add up to the game's returns. A game that ends, or reaches the ply
// limit, is started again at once: its step reports the end, and the arrays show the new game.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/game_state.h"
#include "learn/actions.h"
#include "learn/observation.h"

namespace polychess {

// Where a call writes; any of them may be null (not written). Per game i, at offset i times:
struct BatchOutputs {
  float* observations = nullptr;          // shape.size() floats: the player to move's view
  uint8_t* observations_uint8 = nullptr;  // or the same as uint8 (observation.h)
  int8_t* masks = nullptr;                // actions.size bytes: 1 at the legal actions' codes
  int32_t* to_play = nullptr;             // 1: the player to move (whom the observation is for)
  float* rewards = nullptr;               // players floats
  uint8_t* terminated = nullptr;          // 1: the game ended by the rules at this step
  uint8_t* truncated = nullptr;           // 1: the game reached the ply limit at this step
};

struct BatchOptions {
  int games = 1;
  uint32_t max_plies = 0;  // plies after which a game is cut off (truncated); 0: none
  int threads = 1;         // threads sharing a step's games
  uint64_t seed = 0;       // of random_actions()
};

class GameBatch {
 public:
  virtual ~GameBatch() = default;

  virtual const BatchOptions& options() const = 0;
  virtual const ActionSpace& actions() const = 0;
  virtual ObservationShape shape() const = 0;
  virtual int players() const = 0;

  // Every game back to the start; writes what step() writes, with no rewards and no ends.
  virtual void reset(const BatchOutputs& out) = 0;
  // One move in every game: actions[i] is the code of game i's move for its player to move.
  // Throws IllegalMove naming the first game whose code is not a legal move there, before any
  // game has moved.
  virtual void step(const int32_t* actions, const BatchOutputs& out) = 0;
  // A uniformly drawn legal action per game, into out[games].
  virtual void random_actions(int32_t* out) = 0;
  virtual void reseed(uint64_t seed) = 0;
  // Game i's position string (what Board reads: to show it, or to go on with it).
  virtual std::string position_text(int game) const = 0;
};

// A batch of copies of `prototype` in its current state (the state each game restarts from).
template <int W>
std::unique_ptr<GameBatch> make_batch(const GameState<W>& prototype, const BatchOptions& options);

}  // namespace polychess
