// One interface over the positions of every bitboard width: what the bindings (and any other
// embedder) use. Each call does a whole job in C++; nothing here is on the hot path.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "notation.h"
#include "playouts.h"
#include "position.h"
#include "rules.h"
#include "search.h"

namespace polychess {

class Game;

class Board {
 public:
  // The variant's start position, or the given position string. Throws std::invalid_argument
  // for an unknown variant and InvalidPosition for a bad position string.
  static std::unique_ptr<Board> create(const Variant& variant, GameRules rules = {});
  static std::unique_ptr<Board> create(const Variant& variant, const std::string& text, GameRules rules = {});
  virtual ~Board() = default;
  virtual std::unique_ptr<Board> clone() const = 0;

  virtual const Variant& variant() const = 0;
  virtual bool neutrality() const = 0;
  virtual std::string text() const = 0;

  // Moves
  virtual int legal_moves(Move* out) const = 0;     // room for MAX_MOVES
  virtual int legal_captures(Move* out) const = 0;  // captures and promotions only
  virtual uint64_t count_legal_moves() const = 0;
  // The legal move matching the text; throws InvalidMove / IllegalMove.
  Move parse_move(const std::string& text) const;
  Move find_legal(const MoveText& m, const std::string& text) const;
  virtual void make(Move move) = 0;  // assumes legality
  virtual void unmake() = 0;         // the last move or event
  virtual const std::vector<Undo>& history() const = 0;

  // A game (game.h) played on this board's position from where it stands, by the rules; the
  // board must outlive it (`judge_start`: GameState's constructor). copy_game() gives `other`,
  // a game on a board this one is a copy of, to this board.
  virtual std::unique_ptr<Game> start_game(const RuleSet& rules, const std::array<int, MAX_PLAYERS>& points,
                                           bool judge_start) = 0;
  virtual std::unique_ptr<Game> copy_game(const Game& other) = 0;
  // Whole games from this position (playouts.h), run on copies.
  virtual std::vector<PlayoutResult> playouts(const RuleSet& rules, const PlayoutOptions& options) const = 0;

  // The evaluation's per-player values of the position (evaluate.h).
  virtual std::array<int, MAX_PLAYERS> evaluate() const = 0;
  // Every player's evaluation features (evaluate.h): the evaluation is their dot product
  // with the weights the position was made with.
  virtual PlayerFeatures evaluation_features() const = 0;
  virtual const EvalWeights& evaluation_weights() const = 0;

  // Counting (run with a copy of the position, so the board may be used meanwhile).
  virtual uint64_t perft(int depth, const std::atomic<bool>* stop = nullptr) const = 0;
  virtual uint64_t perft_full(int depth) const = 0;
  virtual std::vector<std::pair<Move, uint64_t>> divide(int depth, const std::atomic<bool>* stop = nullptr) const = 0;

  // State
  virtual const Meta& meta() const = 0;
  virtual Piece piece_at(int cell) const = 0;
  virtual int count(Kind kind) const = 0;  // pieces of that kind on the board, every colour
  virtual int king_of(int player) const = 0;
  virtual uint64_t compute_key() const = 0;

  // Check and mate for the player to move (docs/rules.md §1.6, §1.7).
  virtual std::vector<int> checkers() const = 0;
  bool is_check() const { return !checkers().empty(); }
  // Cells of the pieces of `player` that attack `cell` (what scoring checks needs: which kings
  // a move checks and with which pieces).
  virtual std::vector<int> attackers(int cell, int player) const = 0;
  // If the player to move is checkmated, who gave the mate (the attacking enemy who moved most
  // recently); else -1.
  virtual int mated_by() const = 0;

  // Events for the game layer (validated; throw std::invalid_argument).
  void set_controller(int colour, int player);  // player -1: nobody
  void remove_king(int colour);
  void set_status(int player, Status status);
  // by -1: his pieces become inert; keep_king leaves his king on the board among them (the
  // dead pieces of four-player free-for-all).
  void eliminate(int player, int by, bool keep_king = false);

 protected:
  virtual void event_set_controller(int colour, int player) = 0;
  virtual void event_remove_king(int colour) = 0;
  virtual void event_set_status(int player, Status status) = 0;
  virtual void event_eliminate(int player, int by, bool keep_king) = 0;
};

}  // namespace polychess
