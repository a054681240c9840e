#include "game.h"

#include <sstream>
#include <stdexcept>

#include "errors.h"
#include "notation.h"
#include "observation.h"

namespace polychess {
namespace {

template <int W>
class GameOf final : public Game {
 public:
  GameOf(Position<W>& pos, const RuleSet& rules, const std::array<int, MAX_PLAYERS>& points, bool judge_start)
      : state_(pos, rules, points, judge_start) {}
  GameOf(Position<W>& pos, const GameOf& other) : state_(pos, other.state_) {}

  const Variant& variant() const override { return state_.position().variant(); }
  const RuleSet& rules() const override { return state_.rules(); }
  int current_player() const override { return state_.current_player(); }
  bool is_terminal() const override { return state_.is_terminal(); }
  int legal_moves(Move* out) const override { return state_.legal_moves(out); }
  bool is_seat(int player) const override { return state_.is_seat(player); }
  void apply(Move move) override { state_.apply(move); }
  void leave(int player, Reason reason) override { state_.leave(player, reason); }
  void agree_draw() override { state_.agree_draw(); }
  bool undo() override { return state_.undo(); }
  const GameFacts& facts() const override { return state_.facts(); }
  const std::vector<EliminationRecord>& eliminations() const override { return state_.eliminations(); }
  std::array<double, MAX_PLAYERS> returns() const override { return state_.returns(); }
  size_t step_count() const override { return state_.step_count(); }
  const GameStep& step(size_t i) const override { return state_.step(i); }
  const std::string& start_text() const override { return state_.start_text(); }
  uint32_t settled_players() const override { return state_.settled_players(); }
  double return_of(int player) const override { return state_.return_of(player); }
  void observe(int viewer, float* out) const override { write_observation(state_, viewer, out); }
  void observe(int viewer, uint8_t* out) const override { write_observation(state_, viewer, out); }
  std::unique_ptr<GameBatch> batch(const BatchOptions& options) const override { return make_batch(state_, options); }
  SearchReport search(TranspositionTable& tt, const SearchLimits& limits, const std::atomic<bool>& stop,
                      const IterationCallback& on_iteration) const override {
    return polychess::search(state_, tt, limits, stop, on_iteration);
  }

 private:
  GameState<W> state_;
};

const char* step_word(StepKind kind) {
  switch (kind) {
    case StepKind::RESIGNATION:
      return "resign";
    case StepKind::TIME_FORFEIT:
      return "timeout";
    default:
      return "draw";
  }
}

}  // namespace

template <int W>
std::unique_ptr<Game> make_game(Position<W>& pos, const RuleSet& rules, const std::array<int, MAX_PLAYERS>& points,
                                bool judge_start) {
  return std::make_unique<GameOf<W>>(pos, rules, points, judge_start);
}

template <int W>
std::unique_ptr<Game> copy_game(Position<W>& pos, const Game& other) {
  return std::make_unique<GameOf<W>>(pos, dynamic_cast<const GameOf<W>&>(other));
}

template std::unique_ptr<Game> make_game<1>(Position<1>&, const RuleSet&, const std::array<int, MAX_PLAYERS>&, bool);
template std::unique_ptr<Game> make_game<2>(Position<2>&, const RuleSet&, const std::array<int, MAX_PLAYERS>&, bool);
template std::unique_ptr<Game> make_game<3>(Position<3>&, const RuleSet&, const std::array<int, MAX_PLAYERS>&, bool);
template std::unique_ptr<Game> copy_game<1>(Position<1>&, const Game&);
template std::unique_ptr<Game> copy_game<2>(Position<2>&, const Game&);
template std::unique_ptr<Game> copy_game<3>(Position<3>&, const Game&);

// Steps are written as game records write them: the move text, resign(colour),
// timeout(colour) or draw.
std::string Game::serialize() const {
  std::string out = start_text();
  out += '\n';
  for (size_t i = 0; i < step_count(); ++i) {
    const GameStep& s = step(i);
    if (i) out += ' ';
    if (s.kind == StepKind::MOVE) out += move_text(variant(), s.move);
    else if (s.kind == StepKind::DRAW_AGREED) out += step_word(s.kind);
    else out += std::string(step_word(s.kind)) + "(" + variant().colour_names[s.player] + ")";
  }
  return out;
}

void Game::replay(const std::string& steps) {
  std::istringstream words(steps);
  std::string word;
  while (words >> word) {
    if (is_terminal()) throw std::invalid_argument("step " + quoted(word) + " comes after the end of the game");
    if (word == "draw") {
      agree_draw();
      continue;
    }
    const size_t open = word.find('(');
    if (open != std::string::npos && word.back() == ')') {
      const std::string kind = word.substr(0, open), who = word.substr(open + 1, word.size() - open - 2);
      int player = -1;
      for (int p = 0; p < variant().players; ++p)
        if (variant().colour_names[p] == who) player = p;
      if ((kind != "resign" && kind != "timeout") || player < 0)
        throw std::invalid_argument("unknown step " + quoted(word) +
                                    " (expected a move, resign(colour), "
                                    "timeout(colour) or draw)");
      leave(player, kind == "resign" ? Reason::RESIGNATION : Reason::TIME_FORFEIT);
      continue;
    }
    const MoveText m = parse_move_text(variant(), word);
    Move moves[MAX_MOVES];
    const int n = legal_moves(moves);
    Move found = MOVE_NONE;
    for (int i = 0; i < n && found == MOVE_NONE; ++i)
      if (move_from(moves[i]) == m.from && move_to(moves[i]) == m.to && move_promotion(moves[i]) == m.promotion)
        found = moves[i];
    if (found == MOVE_NONE) throw IllegalMove("illegal move " + quoted(word) + " in the serialized game");
    apply(found);
  }
}

}  // namespace polychess
