#include "learn/game_batch.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#include "base/errors.h"
#include "base/random.h"
#include "core/notation.h"

namespace polychess {
namespace {

template <int W>
class GameBatchOf final : public GameBatch {
  // One game: its own position, and the state playing on it. Neither moves in memory (the
  // state points at the position).
  struct Slot {
    Position<W> pos;
    GameState<W> state;
    uint32_t settled = 0;  // the players already rewarded
    Slot(const Position<W>& start_pos, const GameState<W>& start) : pos(start_pos), state(pos, start) {}
  };

 public:
  GameBatchOf(const GameState<W>& prototype, const BatchOptions& options)
      : options_(options),
        start_pos_(prototype.position()),
        start_(start_pos_, prototype),
        space_(action_space(start_pos_.variant())),
        shape_(observation_shape(prototype)),
        random_{options.seed} {
    if (start_.is_terminal()) throw std::invalid_argument("the game is over before the first step");
    slots_.reserve(size_t(options.games));
    for (int i = 0; i < options.games; ++i) slots_.push_back(std::make_unique<Slot>(start_pos_, start_));
    moves_.resize(size_t(options.games));
  }

  const BatchOptions& options() const override { return options_; }
  const ActionSpace& actions() const override { return space_; }
  ObservationShape shape() const override { return shape_; }
  int players() const override { return start_pos_.variant().players; }

  void reset(const BatchOutputs& out) override {
    for_all_games([&](int i) {
      restart(*slots_[i]);
      write_game(i, out);
      if (out.rewards) std::fill_n(out.rewards + size_t(i) * players(), players(), 0.0f);
      if (out.terminated) out.terminated[i] = 0;
      if (out.truncated) out.truncated[i] = 0;
    });
  }

  void step(const int32_t* actions, const BatchOutputs& out) override {
    for (int i = 0; i < games(); ++i) {
      const GameState<W>& state = slots_[i]->state;
      int n = 0;
      const Move* legal = state.judged_moves(n);
      moves_[i] = decode_action(space_, state.current_player(), actions[i], legal, n);
      if (moves_[i] == MOVE_NONE)
        throw IllegalMove("game " + std::to_string(i) + ": " +
                          (is_action_code(space_, actions[i])
                               ? "action " + std::to_string(actions[i]) + " is not a legal move of " +
                                     start_pos_.variant().colour_names[state.current_player()] + " here"
                               : not_an_action(space_, std::to_string(actions[i]))));
    }
    for_all_games([&](int i) { step_game(i, out); });
  }

  void random_actions(int32_t* out) override {
    for (int i = 0; i < games(); ++i) {
      const GameState<W>& state = slots_[i]->state;
      int n = 0;
      const Move* legal = state.judged_moves(n);
      out[i] = n > 0 ? encode_action(space_, state.current_player(), legal[random_.below(n)]) : -1;
    }
  }

  void reseed(uint64_t seed) override { random_ = SplitMix{seed}; }

  std::string position_text(int game) const override { return slots_.at(size_t(game))->pos.text(); }

 private:
  int games() const { return options_.games; }

  void restart(Slot& slot) {
    slot.pos = start_pos_;
    slot.state.restart_from(start_);
    slot.settled = slot.state.settled_players();
  }

  void step_game(int i, const BatchOutputs& out) {
    Slot& slot = *slots_[i];
    GameState<W>& state = slot.state;
    state.apply(moves_[i]);
    float* rewards = out.rewards ? out.rewards + size_t(i) * players() : nullptr;
    if (rewards) std::fill_n(rewards, players(), 0.0f);
    const uint32_t newly = state.settled_players() & ~slot.settled;
    slot.settled |= newly;
    if (rewards)
      for (int p = 0; p < players(); ++p)
        if (newly >> p & 1) rewards[p] = float(state.return_of(p));
    const bool over = state.is_terminal();
    int legal = 0;
    if (!over) state.judged_moves(legal);
    // A game nobody can move in that no rule has ended (no rule set allows it, but a batch
    // must not stall on one) is cut off as the ply limit cuts games off.
    const bool cut =
        !over && ((options_.max_plies && state.facts().ply - start_.facts().ply >= options_.max_plies) || legal == 0);
    if (out.terminated) out.terminated[i] = over;
    if (out.truncated) out.truncated[i] = cut;
    if (over || cut) restart(slot);
    write_game(i, out);
  }

  void write_game(int i, const BatchOutputs& out) const {
    const GameState<W>& state = slots_[i]->state;
    const int mover = state.current_player();
    const size_t size = size_t(shape_.size());
    if (out.observations) write_observation(state, mover, out.observations + size * i);
    if (out.observations_uint8) write_observation(state, mover, out.observations_uint8 + size * i);
    if (out.to_play) out.to_play[i] = mover;
    if (out.masks) {
      int n = 0;
      const Move* legal = state.judged_moves(n);
      write_action_mask(space_, mover, legal, n, out.masks + size_t(space_.size) * i);
    }
  }

  // Runs job(i) for every game, the games shared among the threads in equal runs.
  template <class Job>
  void for_all_games(const Job& job) {
    const int threads = std::max(1, std::min(options_.threads, games()));
    if (threads == 1) {
      for (int i = 0; i < games(); ++i) job(i);
      return;
    }
    const int per = (games() + threads - 1) / threads;
    std::vector<std::thread> workers;
    workers.reserve(size_t(threads - 1));
    for (int t = 1; t < threads; ++t)
      workers.emplace_back([&, t] {
        for (int i = t * per; i < std::min(games(), (t + 1) * per); ++i) job(i);
      });
    for (int i = 0; i < std::min(games(), per); ++i) job(i);
    for (auto& w : workers) w.join();
  }

  BatchOptions options_;
  Position<W> start_pos_;
  GameState<W> start_;
  const ActionSpace& space_;
  ObservationShape shape_;
  SplitMix random_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<Move> moves_;  // the step's decoded moves
};

}  // namespace

template <int W>
std::unique_ptr<GameBatch> make_batch(const GameState<W>& prototype, const BatchOptions& options) {
  if (options.games < 1) throw std::invalid_argument("games must be at least 1, got " + std::to_string(options.games));
  if (options.threads < 1)
    throw std::invalid_argument("threads must be at least 1, got " + std::to_string(options.threads));
  return std::make_unique<GameBatchOf<W>>(prototype, options);
}

template std::unique_ptr<GameBatch> make_batch<1>(const GameState<1>&, const BatchOptions&);
template std::unique_ptr<GameBatch> make_batch<2>(const GameState<2>&, const BatchOptions&);
template std::unique_ptr<GameBatch> make_batch<3>(const GameState<3>&, const BatchOptions&);

}  // namespace polychess
