// The evaluation's weights: one number per term, in centipawns per unit of the term's
// feature. The features are counted on the board from its topology (evaluate.h and
// placement.cpp say what each one counts), so the same terms serve every board; the weights
// are per game. Each game's set is data (python/polychess/data/evaluation/, fitted by
// `polychess tune`) that the package hands to the core before it makes any position of that
// game; the defaults below serve until then.
#pragma once

#include <array>
#include <string>

#include "base/types.h"

namespace polychess {

enum EvalTerm : int {
  // material, per piece
  PAWN_VALUE,
  KNIGHT_VALUE,
  BISHOP_VALUE,
  ROOK_VALUE,
  QUEEN_VALUE,
  // placement, per piece: pawn pushes made toward promotion (and their square, which grows
  // near the promotion cells), closeness to the board's centre by kind (king steps), cells
  // reached on an empty board
  PAWN_ADVANCE,
  PAWN_ADVANCE_SQUARED,
  PAWN_CENTRE,
  KNIGHT_CENTRE,
  BISHOP_CENTRE,
  ROOK_CENTRE,
  QUEEN_CENTRE,
  KING_CENTRE,
  KNIGHT_REACH,
  BISHOP_REACH,
  ROOK_REACH,
  QUEEN_REACH,
  // mobility: cells a piece attacks that its owner does not occupy
  KNIGHT_MOBILITY,
  BISHOP_MOBILITY,
  ROOK_MOBILITY,
  QUEEN_MOBILITY,
  // king safety: enemy pieces (not pawns) within two king steps, own pawns beside the king
  // (at most three), enemy attacks on the cells beside the king by attacker kind; then what
  // makes an attack more than the sum of its attackers: cells beside the king that two or more
  // enemy pieces attack, and a ring that the pieces of two enemy players attack at once
  KING_ZONE_ENEMIES,
  KING_SHIELD,
  KING_RING_PAWN_ATTACKS,
  KING_RING_MINOR_ATTACKS,
  KING_RING_ROOK_ATTACKS,
  KING_RING_QUEEN_ATTACKS,
  KING_RING_DOUBLE_ATTACKS,
  KING_RING_JOINT_ATTACK,
  // threats: own pieces attacked by a cheaper enemy kind, and attacked but not defended
  THREATENED_BY_PAWN,
  THREATENED_BY_MINOR,
  THREATENED_BY_ROOK,
  HANGING,
  // pawn structure: passed pawns (no enemy pawn stands on the way to promotion or can take on
  // it), the pushes left to a passed pawn counted up from PASSED_NEAR_STEPS (more as it nears
  // the end), pawns with an own pawn on their way (doubled)
  PASSED_PAWN,
  PASSED_PAWN_NEAR,
  DOUBLED_PAWN,
  // a pair of bishops or more
  BISHOP_PAIR,
  BASE_TERM_COUNT,
  // Every term above has a late twin, BASE_TERM_COUNT places on: the same feature times how
  // few enemy pieces (beside pawns and kings) the player faces, counted down from LATE_PIECES
  // (evaluate.h). A term's weight is then its own plus its twin's times that lateness: the
  // evaluation tapers from the middlegame to the endgame (the king walks out, the pawns run,
  // king attacks matter less), one weight pair per term as in every classic engine, counted
  // from the pieces a player faces so that it means the same with three or four players.
  TERM_COUNT = 2 * BASE_TERM_COUNT
};

constexpr int late_twin(int term) { return term + BASE_TERM_COUNT; }

using EvalWeights = std::array<int, TERM_COUNT>;
using PlayerFeatures = std::array<std::array<int, TERM_COUNT>, MAX_PLAYERS>;

// The term names used in the data files, in EvalTerm order; a late twin is its term's name
// followed by "_late" (eval_term_name).
constexpr const char* EVAL_TERM_NAMES[BASE_TERM_COUNT] = {
    "pawn_value",
    "knight_value",
    "bishop_value",
    "rook_value",
    "queen_value",
    "pawn_advance",
    "pawn_advance_squared",
    "pawn_centre",
    "knight_centre",
    "bishop_centre",
    "rook_centre",
    "queen_centre",
    "king_centre",
    "knight_reach",
    "bishop_reach",
    "rook_reach",
    "queen_reach",
    "knight_mobility",
    "bishop_mobility",
    "rook_mobility",
    "queen_mobility",
    "king_zone_enemies",
    "king_shield",
    "king_ring_pawn_attacks",
    "king_ring_minor_attacks",
    "king_ring_rook_attacks",
    "king_ring_queen_attacks",
    "king_ring_double_attacks",
    "king_ring_joint_attack",
    "threatened_by_pawn",
    "threatened_by_minor",
    "threatened_by_rook",
    "hanging",
    "passed_pawn",
    "passed_pawn_near",
    "doubled_pawn",
    "bishop_pair",
};

inline std::string eval_term_name(int term) {
  return term < BASE_TERM_COUNT ? EVAL_TERM_NAMES[term]
                                : std::string(EVAL_TERM_NAMES[term - BASE_TERM_COUNT]) + "_late";
}

// Hand-set weights: the engine's evaluation before any fit.
constexpr EvalWeights DEFAULT_EVAL_WEIGHTS = {
    100, 300, 330, 500, 900,      // material
    10,  0,                       // pawn advance
    2,   3,   2,   1,   1,   -6,  // centre
    4,   2,   1,   1,             // reach (the queen's counts rook and bishop cells)
    4,   3,   2,   1,             // mobility
    -15, 8,                       // king zone enemies, shield
    0,   0,   0,   0,             // king ring attacks
    0,   0,                       // king ring double and joint attacks
    0,   0,   0,   0,             // threats
    0,   0,   0,                  // pawn structure
    0,                            // bishop pair
                                  // the late twins: none
};

// Material alone, per kind (NO_KIND, PAWN, ..., ONE_POINT_QUEEN), from a weight set.
inline int material_weight(const EvalWeights& w, int kind) {
  constexpr int TERM_OF_KIND[] = {-1, PAWN_VALUE, KNIGHT_VALUE, BISHOP_VALUE, ROOK_VALUE, QUEEN_VALUE, -1, QUEEN_VALUE};
  return TERM_OF_KIND[kind] < 0 ? 0 : w[TERM_OF_KIND[kind]];
}

}  // namespace polychess
