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
// A one-point queen (four-player free-for-all's promoted queen) moves as a queen and is read
// as one; what it is worth in points the search adds from the game's facts.
#pragma once

#include <string>
#include <vector>

#include "board/variant.h"
#include "core/types.h"

namespace polychess {

constexpr int NETWORK_KINDS = 6;  // pawn, knight, bishop, rook, queen, king

struct FeatureSet {
  int cells = 0;
  int players = 0;
  int slots = 0;                // controllers a piece can have: each seat, and nobody
  int inputs = 0;               // slots * NETWORK_KINDS * cells
  std::vector<int16_t> turned;  // [perspective * cells + cell] -> the cell in that seat's frame

  // The perspective's feature of a piece of kind `kind` on `cell` whose colour `controller`
  // (a player, or NOBODY) controls.
  int index(int perspective, int cell, Kind kind, int controller) const {
    const int slot = controller == NOBODY ? players : (controller - perspective + players) % players;
    const int k = kind == ONE_POINT_QUEEN ? QUEEN - 1 : kind - 1;
    return (slot * NETWORK_KINDS + k) * cells + turned[perspective * cells + cell];
  }
};

FeatureSet feature_set(const Variant& variant);

// The name a game's networks go by: the variant, and the mode where it has modes
// ("four-player-teams"); a setup shares its mode's networks, as it shares its weights.
std::string network_game(const Variant& variant);

}  // namespace polychess
