// Search: iterative deepening over the legal-move generator, for every variant.
//
// Where two sides alternate (standard chess, four-player teams) it is alpha-beta minimax
// with principal-variation search, null-move pruning and late-move reductions. In the
// multi-player games (three-player, four-player free-for-all) the algorithm is selectable:
//  - paranoid: every opponent minimises the root player's score (alpha-beta applies);
//  - max^n: every player maximises his own component of a score vector (no pruning);
//  - best-reply search (BRS): the opponents' turns collapse into one layer holding the best
//    reply of any opponent, so the root player's plans are seen twice as deep.
// The search plays inside a copy of the game state (game_state.h) with the game's declared
// rules, so a mate or stalemate inside the tree is played out as the game plays it (the mated
// army passes to the mater or dies, a stalemated player freezes, points are counted) and the
// game's end is scored by the places the rules give each player.
//
// Scores come from evaluate.h's per-player values (plus points where they rank): for one player, his
// value minus the opponents' total divided by the number of opposing sides. A won game
// scores MATE less the distance in plies. Search has a transposition table, aspiration
// windows, move ordering (move_order.h: table move, captures by static exchange and victim,
// killers, counter-moves, quiet checks, history), quiescence on captures, check extensions,
// late-move reductions (and in standard chess the pruning of alphabeta.cpp), and stops on
// depth, node and time limits or an external flag.
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/position.h"
#include "nnue/network.h"
#include "search/tt.h"

namespace polychess {

constexpr int MATE = 1000000;
constexpr int INFINITE_SCORE = 2000000;
constexpr int MAX_PLY = 96;
// The largest limits a search takes (deeper iterations stop at the ply cap anyway).
constexpr int MAX_DEPTH = MAX_PLY - 8;
constexpr uint64_t MAX_NODES = uint64_t(1) << 62;
constexpr double MAX_SECONDS = 1e9;  // about 31 years: "no limit" is 0, not a huge number

enum class Algorithm : uint8_t { PARANOID, MAXN, BRS };

struct SearchLimits {
  int depth = 0;                       // 0: no depth limit
  uint64_t nodes = 0;                  // 0: no node limit
  double seconds = 0.0;                // 0: no time limit
  std::optional<Algorithm> algorithm;  // for the multi-player games; none: the game's own (Variant)
  int threads = 1;                     // more: helper threads share the table (lazy SMP); results vary run to run
  // Strength levels: every player's evaluation is off by up to `noise` centipawns, the same
  // for a position and seed in every search, so that a weakened engine stays consistent.
  int noise = 0;
  uint64_t noise_seed = 0;
  // The learned evaluation (nnue/network.h), of the searched game; null: the classic one
  // (evaluate.h). The caller keeps it alive through the search.
  const Network* network = nullptr;
  // Analysis: how many best lines to find, each with a different first move (MultiPV), and the
  // root moves to choose among (empty: every legal move; UCI's searchmoves).
  int multipv = 1;
  std::vector<Move> searchmoves;
};

// One of the best lines: its first move, the root side's score, the line as far as it is a
// game line, its end's mate count and evaluation (as in SearchReport).
struct SearchLine {
  Move move = MOVE_NONE;
  int score = 0;
  std::vector<Move> pv;
  int mate_moves = -1;
  std::array<int, MAX_PLAYERS> player_values{};
};

// The algorithm a name ("paranoid", "maxn", "brs") stands for; std::invalid_argument otherwise.
Algorithm algorithm_named(const std::string& name);
// The same, where an empty name stands for the game's own (none: Variant::default_algorithm).
std::optional<Algorithm> algorithm_or_default(const std::string& name);

struct SearchReport {
  Move best = MOVE_NONE;
  int score = 0;     // for the root player's side
  int depth = 0;     // last completed iteration
  int seldepth = 0;  // the deepest ply that iteration reached, quiescence included
  uint64_t nodes = 0;
  double seconds = 0.0;
  std::vector<Move> pv;                          // best-reply search's lines skip turns: the PV stops at the first skip
  int mate_moves = -1;                           // the root player's moves in a principal line ending in his mate
  std::array<int, MAX_PLAYERS> player_values{};  // the evaluation's values at the end of the PV
  // How well the moves are ordered: the cutoffs of the alpha-beta search (quiescence not
  // counted), and how many of them the first move searched gave (two-sided engines reach 90%).
  uint64_t cutoffs = 0, first_move_cutoffs = 0;
  // The last completed iteration's best lines, best first (SearchLimits::multipv of them, fewer
  // where fewer moves may be played); the first is the one above. Empty where no iteration
  // completed.
  std::vector<SearchLine> lines;
};

using IterationCallback = std::function<void(const SearchReport&)>;

template <int W>
class GameState;

// Searches the state's position for the player to move; std::invalid_argument for limits it
// cannot honour.
template <int W>
SearchReport search(const GameState<W>& root, TranspositionTable& tt, const SearchLimits& limits,
                    const std::atomic<bool>& stop, const IterationCallback& on_iteration);

}  // namespace polychess
