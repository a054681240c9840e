// The rules of a game as data, whole: which captures the rule of neutrality forbids, what a
// checkmate, a stalemate and a king capture do, how the players are ranked, the points table
// and the end and draw conditions. Each game declares its rules in its definition (variant.h);
// the Python layer reads them as text (rules_text below: polychess.rules' dataclass view) and
// hands back a game's, its options applied, the same way (parse_rules). A position carries its
// rules from its making (position.h: the moves and a king capture follow them) and the resolver
// (game_state.h) executes them for Game, the playouts and the search alike. Nothing here names a
// variant.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "base/types.h"

namespace polychess {

// Where the pieces of a player who goes out end up.
enum class Army : uint8_t {
  PASSES,  // the king leaves the board; the rest passes to the mater (nobody's after a resignation)
  DEAD,    // every piece, king included, stays as a dead piece that nobody controls
};

// When a player's checkmate is established.
enum class MateJudged : uint8_t {
  AT_TURN,     // when his turn comes and he has no legal move; credited to the attacker who moved last
  AFTER_MOVE,  // right after any move, for every other player in turn order; credited to the mover
};

// What a player with no legal move who is not in check suffers.
enum class StalemateEffect : uint8_t { FREEZE, OUT, DRAW };

enum class Ranking : uint8_t {
  ORDER_OUT,  // by the order in which players go out; the last ones in share first place
  POINTS,     // by points; equal points share a place
};

enum class Insufficient : uint8_t {
  NEVER,       // no draw by material
  BARE_KINGS,  // only kings left
  FIDE,        // bare kings, king and one minor piece against king, bishops all on one colour
};

// Why a player left the game (values as polychess.Reason lists them).
enum class Reason : uint8_t { CHECKMATE, KING_CAPTURE, STALEMATE, RESIGNATION, TIME_FORFEIT };

// Why the game ended (values as polychess.Termination lists them).
enum class Termination : uint8_t {
  NONE,
  CHECKMATE,
  KING_CAPTURE,
  STALEMATE,
  POINTS_LEAD,
  MOVE_LIMIT,
  AGREEMENT,
  THREEFOLD_REPETITION,
  FIFTY_MOVES,
  INSUFFICIENT_MATERIAL,
  RESIGNATION,
  TIME_FORFEIT,
  DECIDED,  // the start position: the players out in it have decided the game already
};

struct PointsTable {
  std::array<int, KIND_NB> capture{};  // for capturing a live piece, by kind
  int mate = 0;                        // to the mater or king capturer
  int stalemate = 0;                   // to the stalemated player himself
  int draw = 0;                        // to every player still in when the game is drawn
  // A move that puts several kings in check at once: [0] two kings, [1] three; `by_queens`
  // when every checking piece is a queen.
  std::array<int, 2> checks{};
  std::array<int, 2> checks_by_queens{};
  int lead = 0;  // with two players left, a lead of this many points ends the game (0: never)

  bool scores_checks() const { return checks[0] || checks[1] || checks_by_queens[0] || checks_by_queens[1]; }
};

struct Rules {
  // The rule of neutrality (docs/rules.md §1.11): no capture of a player who captured none of
  // the mover's pieces on his last move, while a third player is in; for three players.
  bool neutrality = false;
  Army army = Army::PASSES;
  MateJudged mate_judged = MateJudged::AT_TURN;
  StalemateEffect stalemate = StalemateEffect::FREEZE;
  // The first player out decides the game: the eliminator's side first and everyone else
  // after it, or, when nobody eliminated him (a resignation), his side last.
  bool first_out_decides = false;
  // A player going out while another is frozen ends the game: the active first, the frozen
  // and the one out share the next place (three-player, docs/rules.md §1.9).
  bool out_after_freeze_ends = false;
  Ranking ranking = Ranking::ORDER_OUT;
  PointsTable points;
  int move_limit = 0;               // plies; 0: none. Reaching it ends the game ranked as it stands
  int repetitions = 3;              // occurrences of a position that draw; 0: never
  int quiet_moves_per_player = 50;  // moves without capture or pawn move, per active player; 0: never
  Insufficient insufficient = Insufficient::BARE_KINGS;
};

// Rules as text, the way they cross from a declaration to the core: a "name=value" word per rule,
// in polychess.rules' names and words ("-" for a space), e.g. "army=dead mate_judged=after-move
// points.capture=0,1,3,5,5,9,0,1 points.checks=5,20 neutrality=no" (lists by kind index, 0
// unused, and by number of kings checked, two then three). A rule left out keeps Rules{}'s
// value; std::invalid_argument names an unknown rule or a bad value.
Rules parse_rules(const std::string& text);
// Every rule, as parse_rules() reads it back.
std::string rules_text(const Rules& rules);

}  // namespace polychess
