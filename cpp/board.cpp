#include "board.h"

#include "errors.h"
#include "evaluate.h"
#include "game.h"
#include "perft.h"

namespace polychess {
namespace {

template <int W>
class BoardOf final : public Board {
 public:
  explicit BoardOf(Position<W> pos) : pos_(std::move(pos)) {}

  std::unique_ptr<Board> clone() const override { return std::make_unique<BoardOf>(pos_); }
  const Variant& variant() const override { return pos_.variant(); }
  bool neutrality() const override { return pos_.rules().neutrality; }
  std::string text() const override { return pos_.text(); }

  int legal_moves(Move* out) const override { return polychess::legal_moves(pos_, out); }
  int legal_captures(Move* out) const override { return polychess::legal_captures(pos_, out); }
  uint64_t count_legal_moves() const override { return polychess::count_legal_moves(pos_); }
  void make(Move move) override { pos_.make(move); }
  void unmake() override { pos_.unmake(); }
  const std::vector<Undo>& history() const override { return pos_.history(); }

  std::unique_ptr<Game> start_game(const RuleSet& rules, const std::array<int, MAX_PLAYERS>& points,
                                   bool judge_start) override {
    return make_game(pos_, rules, points, judge_start);
  }
  std::unique_ptr<Game> copy_game(const Game& other) override { return polychess::copy_game(pos_, other); }
  std::vector<PlayoutResult> playouts(const RuleSet& rules, const PlayoutOptions& options) const override {
    return run_playouts(pos_, rules, options);
  }

  std::array<int, MAX_PLAYERS> evaluate() const override { return evaluate_players(pos_, eval_tables(pos_.topo())); }
  PlayerFeatures evaluation_features() const override {
    return polychess::evaluation_features(pos_, eval_tables(pos_.topo()));
  }
  const EvalWeights& evaluation_weights() const override { return pos_.evaluation().weights; }

  uint64_t perft(int depth, const std::atomic<bool>* stop) const override {
    Position<W> copy = pos_;
    copy.reserve_history(size_t(depth) + 1);
    return polychess::perft(copy, depth, stop);
  }
  uint64_t perft_full(int depth) const override {
    Position<W> copy = pos_;
    copy.reserve_history(size_t(depth) + 1);
    return polychess::perft_full(copy, depth);
  }
  std::vector<std::pair<Move, uint64_t>> divide(int depth, const std::atomic<bool>* stop) const override {
    Position<W> copy = pos_;
    copy.reserve_history(size_t(depth) + 1);
    return polychess::divide(copy, depth, stop);
  }

  const Meta& meta() const override { return pos_.meta(); }
  Piece piece_at(int cell) const override { return pos_.piece_at(cell); }
  int count(Kind kind) const override { return pos_.kind_bb(kind).count(); }
  int king_of(int player) const override { return pos_.king_of(player); }
  uint64_t compute_key() const override { return pos_.compute_key(); }

  std::vector<int> checkers() const override {
    std::vector<int> cells;
    for_each_cell(polychess::checkers(pos_), [&](int c) { cells.push_back(c); });
    return cells;
  }
  int mated_by() const override { return polychess::mated_by(pos_); }
  std::vector<int> attackers(int cell, int player) const override {
    std::vector<int> cells;
    for_each_cell(pos_.attackers_to(cell, pos_.pieces_of(player)), [&](int c) { cells.push_back(c); });
    return cells;
  }

 protected:
  void event_set_controller(int colour, int player) override { pos_.event_set_controller(colour, player); }
  void event_remove_king(int colour) override { pos_.event_remove_king(colour); }
  void event_set_status(int player, Status status) override { pos_.event_set_status(player, status); }
  void event_eliminate(int player, int by, bool keep_king) override { pos_.event_eliminate(player, by, keep_king); }

 private:
  Position<W> pos_;
};

template <int W>
std::unique_ptr<Board> make_board(const Variant& v, const std::string* text, GameRules rules) {
  return std::make_unique<BoardOf<W>>(text ? Position<W>(v, *text, rules) : Position<W>(v, rules));
}

std::unique_ptr<Board> dispatch(const Variant& v, const std::string* text, GameRules rules) {
  if (rules.neutrality && v.name != "three-player")
    throw std::invalid_argument("the neutrality option is for three-player chess, not " + v.name);
  switch (v.words) {
    case 1:
      return make_board<1>(v, text, rules);
    case 2:
      return make_board<2>(v, text, rules);
    case 3:
      return make_board<3>(v, text, rules);
  }
  throw std::logic_error("unsupported board width");
}

}  // namespace

std::unique_ptr<Board> Board::create(const Variant& variant, GameRules rules) {
  return dispatch(variant, nullptr, rules);
}
std::unique_ptr<Board> Board::create(const Variant& variant, const std::string& text, GameRules rules) {
  return dispatch(variant, &text, rules);
}

Move Board::find_legal(const MoveText& m, const std::string& text) const {
  Move moves[MAX_MOVES];
  const int n = legal_moves(moves);
  bool needs_promotion = false;
  for (int i = 0; i < n; ++i) {
    const Move mv = moves[i];
    if (move_from(mv) != m.from || move_to(mv) != m.to) continue;
    const Kind promo = move_promotion(mv);
    if (promo == m.promotion) return mv;
    if (m.promotion == NO_KIND) needs_promotion = true;
  }
  const Variant& v = variant();
  const std::string who = v.colour_names[meta().turn] + " to move";
  if (needs_promotion) throw IllegalMove("move " + quoted(text) + " needs a promotion letter (" + who + ")");
  throw IllegalMove("illegal move " + quoted(text) + " (" + who + ")");
}

Move Board::parse_move(const std::string& text) const { return find_legal(parse_move_text(variant(), text), text); }

void Board::set_controller(int colour, int player) {
  if (colour < 0 || colour >= variant().colours()) throw std::invalid_argument("no colour " + std::to_string(colour));
  if (player < -1 || player >= variant().players) throw std::invalid_argument("no player " + std::to_string(player));
  event_set_controller(colour, player < 0 ? NOBODY : player);
}

void Board::remove_king(int colour) {
  if (colour < 0 || colour >= variant().colours()) throw std::invalid_argument("no colour " + std::to_string(colour));
  bool found = false;
  for (int cell = 0; cell < variant().layout.cell_count && !found; ++cell)
    found = piece_at(cell) == make_piece(colour, KING);
  if (!found) throw std::invalid_argument("the " + variant().colour_names[colour] + " king is not on the board");
  event_remove_king(colour);
}

void Board::set_status(int player, Status status) {
  if (player < 0 || player >= variant().players) throw std::invalid_argument("no player " + std::to_string(player));
  event_set_status(player, status);
}

void Board::eliminate(int player, int by, bool keep_king) {
  const int n = variant().players;
  if (player < 0 || player >= n) throw std::invalid_argument("no player " + std::to_string(player));
  if (by < -1 || by >= n || by == player)
    throw std::invalid_argument("player " + std::to_string(player) + " cannot be eliminated by " + std::to_string(by));
  if (meta().status[player] == OUT)
    throw std::invalid_argument("player " + variant().colour_names[player] + " is already out");
  if (keep_king && by >= 0) throw std::invalid_argument("a kept king stays among dead pieces, which nobody controls");
  event_eliminate(player, by < 0 ? NOBODY : by, keep_king);
}

}  // namespace polychess
