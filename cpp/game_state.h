// The game state: a position plus everything the rules keep beside it (points, places,
// eliminations with who, how and when, repetition history, the outcome), and the resolver
// that executes a RuleSet (rules.h) on it. Applying a move applies every event it causes (king
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
#include <string>
#include <vector>

#include "movegen.h"
#include "rules.h"

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
  uint8_t player;  // who resigned or lost on time
  Move move;
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
};

template <int W>
class GameState {
 public:
  // Starts a game from the position as it stands (its seats are the players not out) and
  // judges it as a position after a move is judged, so a game over before the first move
  // says so. Throws std::invalid_argument if the rules and the board disagree.
  GameState(Position<W>& pos, const RuleSet& rules);
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
  const RuleSet& rules() const { return rules_; }
  int players() const { return pos_->players(); }
  bool is_seat(int player) const { return seats_ >> player & 1; }
  int seat_count() const { return __builtin_popcount(seats_); }
  int current_player() const { return pos_->turn(); }
  bool is_terminal() const { return facts_.termination != Termination::NONE; }
  const GameFacts& facts() const { return facts_; }
  const std::vector<EliminationRecord>& eliminations() const { return eliminations_; }
  size_t step_count() const { return saved_.size(); }
  const GameStep& step(size_t i) const { return saved_[i].step; }
  const std::string& start_text() const { return start_text_; }

  // The legal moves of the player to move, none once the game is over (room for MAX_MOVES).
  int legal_moves(Move* out) const;
  // The same list, kept from the last judgement: valid until the next step.
  const Move* judged_moves(int& n) const;

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
  // A player still in resigns or loses on time: out, as if mated now, his king removed and
  // his other pieces inert (or dead, where armies die). Throws std::invalid_argument if he is
  // not playing.
  void leave(int player, Reason reason);
  void agree_draw();
  // Takes back the last step with everything it entailed; false if there is none.
  bool undo();

  // Per seat: +1 for a sole first place down to -1 for a sole last place, linear in the place.
  std::array<double, MAX_PLAYERS> returns() const;

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
  void resolve_turn();
  void check_move_limit();
  void check_draws();
  void check_points_lead();
  // The attackers of every other active player's king before a move: what finds the kings
  // the move puts in check (a king newly attacked, as chess.com scores and marks checks).
  struct KingChecks {
    int count = 0;
    int player[MAX_PLAYERS];
    int king[MAX_PLAYERS];
    Bitboard<W> attackers[MAX_PLAYERS];
  };
  KingChecks king_checks(int mover) const;
  void score_move(Move move, int mover, const uint8_t* statuses, const uint8_t* controllers, bool king_captured);
  int checks_bonus(Move move, int mover, const uint8_t* statuses);
  void confirm_mates(int mover);
  void eliminate_on_board(int player, int by);
  void record_out(int player, Reason reason, int by);
  void record_frozen(int player);
  enum class End { PLACES, DRAW, BY_POINTS };
  void finish(Termination termination, End end);
  bool insufficient_material() const;
  int active_players() const;
  bool in_check(int player) const;

  Position<W>* pos_;
  RuleSet rules_;
  uint32_t seats_ = 0;  // bit per player seated at the start
  std::string start_text_;
  GameFacts facts_;
  std::vector<EliminationRecord> eliminations_;
  std::vector<uint64_t> counted_positions_;  // keys of the positions the draw rules counted
  std::vector<Saved> saved_;
  mutable Move judged_[MAX_MOVES];
  mutable int judged_count_ = -1;  // -1: not judged since the last step
  bool pending_ = false;
};

Termination termination_of(Reason reason);

}  // namespace polychess
