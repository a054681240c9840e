// One interface over the game states of every bitboard width (game_state.h): what the
// bindings use. A Game plays on the position of the Board that started it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "game_batch.h"
#include "game_state.h"
#include "search.h"
#include "variant.h"

namespace polychess {

class Game {
 public:
  virtual ~Game() = default;

  virtual const Variant& variant() const = 0;
  virtual const RuleSet& rules() const = 0;
  virtual int current_player() const = 0;
  virtual bool is_terminal() const = 0;
  virtual int legal_moves(Move* out) const = 0;  // room for MAX_MOVES
  virtual bool is_seat(int player) const = 0;
  virtual void apply(Move move) = 0;  // assumes legality
  virtual void leave(int player, Reason reason) = 0;
  virtual void agree_draw() = 0;
  virtual bool undo() = 0;
  virtual const GameFacts& facts() const = 0;
  virtual const std::vector<EliminationRecord>& eliminations() const = 0;
  virtual std::array<double, MAX_PLAYERS> returns() const = 0;
  virtual uint32_t settled_players() const = 0;    // GameState::settled_players
  virtual double return_of(int player) const = 0;  // a settled player's return
  virtual size_t step_count() const = 0;
  virtual const GameStep& step(size_t i) const = 0;
  virtual const std::string& start_text() const = 0;
  // The observation of `viewer` (observation.h), into room for shape.size() values.
  virtual void observe(int viewer, float* out) const = 0;
  virtual void observe(int viewer, uint8_t* out) const = 0;
  // Copies of the game as it stands, stepped together (game_batch.h).
  virtual std::unique_ptr<GameBatch> batch(const BatchOptions& options) const = 0;
  // Searches the game's position for the player to move, inside a copy of the game (search.h).
  virtual SearchReport search(TranspositionTable& tt, const SearchLimits& limits, const std::atomic<bool>& stop,
                              const IterationCallback& on_iteration) const = 0;

  // The start position and every step, one line: what restore() replays.
  std::string serialize() const;
  // Replays serialized steps on a game in the start position; throws InvalidMove or
  // std::invalid_argument naming the bad step.
  void replay(const std::string& steps);
};

// The factories Board uses to start a game on its own position, or to copy one onto a copy
// of that position.
template <int W>
std::unique_ptr<Game> make_game(Position<W>& pos, const RuleSet& rules, const std::array<int, MAX_PLAYERS>& points,
                                bool judge_start);
template <int W>
std::unique_ptr<Game> copy_game(Position<W>& pos, const Game& other);

}  // namespace polychess
