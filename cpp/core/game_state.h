// The game state: a position plus everything the rules keep beside it (points, places,
// eliminations with who, how and when, repetition history, the outcome), and the resolver
// that executes a Rules (rules.h) on it. Applying a move applies every event it causes (king
// capture, transfer, mate, freeze, dead army, points, places, the end) as one step that
// undo() takes back whole. Game (Python), the playouts and the search share it.
//
// The interface is the one game frameworks use (OpenSpiel): the player to move, his legal
// moves, apply, undo, whether the game is over and per-player results. Players are indices.
//
// The state works on a position it does not own (a Board's, or a playout's local one), so a
// Python Board can show the game's position without copies.
#pragma once

#include <array>
#include <bit>
#include <string>
#include <utility>
#include <vector>

#include "core/movegen.h"
#include "core/notation.h"
#include "games/rules.h"

namespace polychess {

struct EliminationRecord {
  uint8_t player;
  Reason reason;
  int8_t by;     // the mater or king capturer; -1 for nobody
  uint32_t ply;  // moves played when it happened
};

// A step of the game: a move or an event that is not a move.
enum class StepKind : uint8_t { MOVE, RESIGNATION, TIME_FORFEIT, DRAW_AGREED, MATED_OUT_OF_TURN };

struct GameStep {
  StepKind kind;
  uint8_t player;  // who moved, resigned, lost on time or was mated out of turn (for a draw: the player to move)
  Move move;
  uint32_t fullmove = 0;  // the position's move number when the step was taken
};

// What a step changes besides the position: saved whole before it, restored by undo().
struct GameFacts {
  std::array<int, MAX_PLAYERS> points{};
  // Places fixed so far (0: none yet); once the game is over, every seat's final place.
  std::array<uint8_t, MAX_PLAYERS> places{};
  Termination termination = Termination::NONE;
  uint32_t ply = 0;
  uint32_t eliminations = 0;
  uint32_t counted_positions = 0;   // length of the repetition history
  uint32_t since_irreversible = 0;  // where in it the last capture or pawn move starts a new stretch
  // Players who may be in check after the step (a bit each; more is safe): where armies die,
  // a move that touches no line or step to a king cannot newly check it.
  uint8_t maybe_checked = 0xF;
};

// GameState::serialize()'s text as its start position and its steps; InvalidPosition if it is
// not two lines.
std::pair<std::string, std::string> split_serialized(const std::string& text);

// The return of a place among `seats` players: +1 for a sole first place down to -1 for a sole
// last place, linear in the place (a uniform score for learning agents; 0 with one seat).
inline double place_return(int place, int seats) { return seats > 1 ? 1.0 - 2.0 * (place - 1) / (seats - 1) : 0.0; }

template <int W>
class GameState {
  // How a game that ends is ranked: places as fixed (everyone not out shares first), a draw
  // (with the draw bonus where points rank), or by points.
  enum class End { PLACES, DRAW, BY_POINTS };

 public:
  // Starts a game by the position's rules from the position as it stands (its seats are the
  // players not out) and judges it as a position after a move is judged, so a game over before
  // the first move says so. `points` are the points scored before this position (a position
  // read from a record). `judge_start` false leaves the start unjudged: its player to move
  // moves from it with the position's own legal moves (a bare board searched by its game's
  // rules); every position after a move is judged as usual. Throws std::invalid_argument for
  // rule limits out of range or a player to move who is not active.
  explicit GameState(Position<W>& pos, const std::array<int, MAX_PLAYERS>& points = {}, bool judge_start = true);
  // A copy of `other` playing on `pos`, which must be a copy of other's position.
  GameState(Position<W>& pos, const GameState& other);
  // Becomes a copy of `other`, still playing on its own position, which the caller has made a
  // copy of other's position.
  void restart_from(const GameState& other) {
    Position<W>* own = pos_;
    *this = other;
    pos_ = own;
  }

  const Position<W>& position() const { return *pos_; }
  const Rules& rules() const { return rules_; }
  int players() const { return pos_->players(); }
  uint32_t seats() const { return seats_; }  // a bit per player seated at the start
  bool is_seat(int player) const { return seats_ >> player & 1; }
  int seat_count() const { return std::popcount(seats_); }
  int current_player() const { return pos_->turn(); }
  bool is_terminal() const { return facts_.termination != Termination::NONE; }
  const GameFacts& facts() const { return facts_; }
  // How often the position stands in the repetition history since the last capture or pawn
  // move, itself included (1 the first time; 0 where repetitions are not counted).
  int occurrences() const {
    int n = 0;
    const uint64_t key = pos_->key();
    for (size_t i = facts_.since_irreversible; i < counted_positions_.size(); ++i) n += counted_positions_[i] == key;
    return n;
  }
  const std::vector<EliminationRecord>& eliminations() const { return eliminations_; }
  size_t step_count() const { return saved_.size(); }
  const GameStep& step(size_t i) const { return saved_[i].step; }
  const std::string& start_text() const { return start_text_; }
  // Step i as game records write it: the move text, resign(colour), timeout(colour) or draw.
  std::string step_token(size_t i) const;
  // The start position and every step's token, one line each: what replay() reads back.
  std::string serialize() const;
  // Plays serialize()'s second line (split_serialized) from here; throws InvalidMove, IllegalMove or
  // std::invalid_argument naming the bad step.
  void replay(const std::string& steps);
  // Throws GameOver, naming how the game ended, once it has.
  void require_running() const;
  // The player's status in the game: the position's, except that a game decided by its first
  // player out ends on the position he went out in (his king and army still on the board), and
  // counts him out.
  Status status_of(int player) const;

  // The legal moves of the player to move, none once the game is over (room for MAX_MOVES).
  int legal_moves(Move* out) const;
  // The same list, kept from the last judgement: valid until the next step.
  const Move* judged_moves(int& n) const;
  // The legal move that `m` names (from, to, promotion), found among the judged moves; throws
  // IllegalMove naming `text` and the player to move (GameOver once the game is over).
  Move legal_move(const MoveText& m, const std::string& text) const;

  // Plays a legal move (not checked) and everything it causes.
  void apply(Move move) {
    play(move);
    settle(-1);
  }
  // The search's two halves of apply(): play() applies the move and what it causes at once
  // (king capture, points, mates judged after the move, the move limit); settle() judges the
  // player whose turn comes, given his number of legal moves (-1: not known), and the ending
  // rules after him. Until settle() the step is pending; undo() takes back both halves.
  void play(Move move);
  void settle(int legal_count);
  bool pending() const { return pending_; }
  // The search's best-reply layer: an opponent who is mated out of turn goes out now, credited
  // to `mater`, as one step.
  void mate_out_of_turn(int player, int mater);
  // Room for `steps` more steps without allocating (the search's tree).
  void reserve(size_t steps);
  // The search finds repetitions itself (any earlier occurrence, in the tree or the game):
  // the state stops counting them.
  void leave_repetitions_to_caller() { counts_repetitions_ = false; }
  // A player still in resigns or loses on time: out, as if mated now, his king removed and
  // his other pieces inert (or dead, where armies die). Throws std::invalid_argument if he is
  // not playing.
  void leave(int player, Reason reason);
  void agree_draw();
  // Takes back the last step with everything it entailed; false if there is none.
  bool undo();

  // The facts as a draw now would leave them (places, points): what a repetition in the
  // search's tree leads to.
  GameFacts facts_if_drawn() const {
    GameFacts drawn = facts_;
    if (drawn.termination == Termination::NONE) end_game(drawn, Termination::THREEFOLD_REPETITION, End::DRAW);
    return drawn;
  }

  // Per seat: +1 for a sole first place down to -1 for a sole last place, linear in the place
  // (0 for everyone while the game runs).
  std::array<double, MAX_PLAYERS> returns() const;
  // The seats whose place is fixed, a bit each: the players out with a place so far (a
  // free-for-all ranks its players out only at the end), every seat once the game is over.
  uint32_t settled_players() const {
    uint32_t settled = 0;
    for (int p = 0; p < players(); ++p)
      if (is_seat(p) && (is_terminal() || facts_.places[p] != 0)) settled |= 1u << p;
    return settled;
  }
  // A settled player's return, as returns() will give it at the end.
  double return_of(int player) const { return place_return(facts_.places[player], seat_count()); }

 private:
  struct Saved {
    GameFacts facts;
    size_t position_history;
    GameStep step;
  };

  void begin_step(GameStep step);
  void judge() {
    judge_before_turn();
    settle(-1);
  }
  void judge_before_turn();
  bool decided_at_start();
  bool may_end_drawn() const;
  void resolve_turn();
  void check_move_limit();
  void check_draws();
  void check_points_lead();
  void score_move(Move move, int mover, const uint8_t* statuses, const uint8_t* controllers, bool king_captured);
  int checks_bonus(Move move);
  void confirm_mates(int mover, uint32_t candidates);
  void eliminate_on_board(int player, int by);
  void record_out(int player, Reason reason, int by);
  void record_frozen(int player);
  void finish(Termination termination, End end) { end_game(facts_, termination, end); }
  void end_game(GameFacts& facts, Termination termination, End end) const;
  bool insufficient_material() const;
  int active_players() const;
  bool in_check(int player) const;

  Position<W>* pos_;
  Rules rules_;
  uint32_t seats_ = 0;  // bit per player seated at the start
  std::string start_text_;
  GameFacts facts_;
  std::vector<EliminationRecord> eliminations_;
  std::vector<uint64_t> counted_positions_;  // keys of the positions the draw rules counted
  std::vector<Saved> saved_;
  mutable Move judged_[MAX_MOVES];
  mutable int judged_count_ = -1;  // -1: not judged since the last step
  bool pending_ = false;
  bool counts_repetitions_ = true;
  bool scores_moves_ = false;  // captures or checks score, or mates are judged after the move
  // The ply of the first positions judged, which are judged whole (material included): the
  // start, or those after the first move where the start is left unjudged.
  uint32_t first_judged_ply_ = 0;
};

Termination termination_of(Reason reason);
// The words polychess.Reason and polychess.Termination use ("" for Termination::NONE).
const char* reason_word(Reason reason);
const char* termination_word(Termination termination);

// ---- the hot steps, inline so that the search and the playouts see through them ----------

template <int W>
[[gnu::always_inline]] inline void GameState<W>::begin_step(GameStep step) {
  step.fullmove = pos_->meta().fullmove;
  saved_.push_back(Saved{facts_, pos_->history().size(), step});
  judged_count_ = -1;
}

template <int W>
[[gnu::always_inline]] inline void GameState<W>::play(Move move) {
  const int mover = pos_->turn();
  begin_step(GameStep{StepKind::MOVE, uint8_t(mover), move});
  const Piece target = pos_->piece_at(move_to(move));  // en passant never takes a king
  const bool takes_king = target && kind_of(target) == KING && pos_->meta().controller[colour_of(target)] != NOBODY;
  uint8_t statuses[MAX_PLAYERS], controllers[MAX_COLOURS];
  if (takes_king || scores_moves_) {
    const Meta& meta = pos_->meta();
    std::copy(meta.status, meta.status + MAX_PLAYERS, statuses);
    std::copy(meta.controller, meta.controller + MAX_COLOURS, controllers);
  }
  pos_->make(move);
  ++facts_.ply;
  // A king capture eliminates inside the move (docs/rules.md §1.6); make() moved the army.
  bool king_captured = false;
  if (takes_king)
    for (int p = 0; p < players(); ++p)
      if (statuses[p] != OUT && pos_->meta().status[p] == OUT) {
        king_captured = true;
        record_out(p, Reason::KING_CAPTURE, mover);
      }
  if (scores_moves_ && !is_terminal()) score_move(move, mover, statuses, controllers, king_captured);
  judge_before_turn();
}

template <int W>
[[gnu::always_inline]] inline bool GameState<W>::undo() {
  if (saved_.empty()) return false;
  const Saved& s = saved_.back();
  while (pos_->history().size() > s.position_history) pos_->unmake();
  facts_ = s.facts;
  if (eliminations_.size() != facts_.eliminations) eliminations_.resize(facts_.eliminations);
  if (counted_positions_.size() != facts_.counted_positions) counted_positions_.resize(facts_.counted_positions);
  saved_.pop_back();
  judged_count_ = -1;
  pending_ = false;
  return true;
}

// After every step: the move limit, then the players whose turn comes (settle()), then the
// draw rules. Where mates are judged right after the move, the ending rules come first: a
// player whose turn never comes is not judged.
template <int W>
[[gnu::always_inline]] inline void GameState<W>::judge_before_turn() {
  if (!is_terminal()) check_move_limit();
  if (rules_.mate_judged == MateJudged::AFTER_MOVE && !is_terminal()) {
    if (counts_repetitions_ || may_end_drawn()) check_draws();
    else if (rules_.points.lead > 0) check_points_lead();
  }
  pending_ = true;
}

template <int W>
[[gnu::always_inline]] inline void GameState<W>::settle(int legal_count) {
  if (!pending_) return;
  pending_ = false;
  if (!is_terminal() && legal_count <= 0) resolve_turn();
  if (is_terminal()) return;
  if (rules_.mate_judged == MateJudged::AFTER_MOVE) {
    if (rules_.points.lead > 0) check_points_lead();
  } else if (counts_repetitions_ || may_end_drawn()) {
    check_draws();
  } else if (rules_.points.lead > 0) {
    check_points_lead();
  }
}

// Whether a draw rule other than repetition can end the game now: the quiet moves have run up
// to the limit of one player, material just went (a capture), or the first position is judged.
template <int W>
inline bool GameState<W>::may_end_drawn() const {
  const int halfmove = pos_->meta().halfmove;
  return halfmove == 0 || facts_.ply == first_judged_ply_ ||
         (rules_.quiet_moves_per_player > 0 && halfmove >= rules_.quiet_moves_per_player);
}

template <int W>
inline void GameState<W>::check_move_limit() {
  if (rules_.move_limit > 0 && facts_.ply >= uint32_t(rules_.move_limit)) finish(Termination::MOVE_LIMIT, End::PLACES);
}

}  // namespace polychess
