// The network's input features, derived from the board as everything else is: for each
// player's perspective, one feature per piece, indexed by
//   (the piece's controller seen from the perspective, the piece's kind, its cell seen from
//    the perspective's seat)
// The cell is turned into the perspective's frame (Layout::turned: the hexagon's rotations,
// the cross's quarter turns, standard chess's mirror), and the controller is counted in seats
// after the perspective (0 is his own pieces, 1 the next seat's, ...; `players` is a dead
// army's, which nobody controls). So one set of weights reads every seat alike, and the
// sizes follow from the board: standard 2 x 6 x 64 plus the dead slot, three-player
// 4 x 6 x 96, the cross 5 x 6 x 160.
//
// With king buckets, each perspective's features are read by one of KING_BUCKETS sets of
// weights, chosen by where the perspective's own king stands, so that a piece can mean one
// thing beside a castled king and another in front of an exposed one. The buckets come from
// the seat's castling cells, as the rules declare them: the king near its start, near its
// king-side or queen-side castled cell (within two king steps, the nearest anchor winning,
// the start first), and elsewhere (or gone).
//
// A one-point queen (four-player free-for-all's promoted queen) moves as a queen and is read
// as one; what it is worth in points the search adds from the game's facts.
#pragma once

#include <string>
#include <vector>

#include "base/types.h"
#include "games/variant.h"

namespace polychess {

constexpr int NETWORK_KINDS = 6;  // pawn, knight, bishop, rook, queen, king
constexpr int KING_BUCKETS = 4;   // near the start, king side, queen side, elsewhere

struct FeatureSet {
  int cells = 0;
  int players = 0;
  int slots = 0;                   // controllers a piece can have: each seat, and nobody
  int buckets = 1;                 // 1, or KING_BUCKETS
  int inputs = 0;                  // buckets * slots * NETWORK_KINDS * cells
  std::vector<int16_t> turned;     // [perspective * cells + cell] -> the cell in that seat's frame
  std::vector<uint8_t> king_zone;  // [perspective * cells + cell] -> the bucket of his king there

  // The bucket of the perspective whose king stands on `king_cell` (NO_CELL: he has none).
  int bucket(int perspective, int king_cell) const {
    return king_cell == NO_CELL ? buckets - 1 : king_zone[perspective * cells + king_cell];
  }

  // The perspective's feature, in king bucket `bucket`, of a piece of kind `kind` on `cell`
  // whose colour `controller` (a player, or NOBODY) controls.
  int index(int perspective, int bucket, int cell, Kind kind, int controller) const {
    const int slot = controller == NOBODY ? players : (controller - perspective + players) % players;
    const int k = kind == ONE_POINT_QUEEN ? QUEEN - 1 : kind - 1;
    return ((bucket * slots + slot) * NETWORK_KINDS + k) * cells + turned[perspective * cells + cell];
  }
};

// `buckets`: 1 (no king buckets) or KING_BUCKETS; std::invalid_argument otherwise.
FeatureSet feature_set(const Variant& variant, int buckets = 1);

// The name a game's networks go by: the variant, and the mode where it has modes
// ("four-player-teams"); a setup shares its mode's networks, as it shares its weights.
std::string network_game(const Variant& variant);
// The variant whose networks and training data go by `game` (network_game), or null.
const Variant* variant_of_network_game(const std::string& game);

}  // namespace polychess
