// The game's events as a user gives them (the Python Board's set_controller and the like): each
// checked, std::invalid_argument naming what is wrong, then applied. Position's event_* take
// their arguments as valid, as the game state gives them.
#pragma once

#include <stdexcept>
#include <string>

#include "core/position.h"

namespace polychess {

template <int W>
void require_player(const Position<W>& pos, int player) {
  if (player < 0 || player >= pos.players()) throw std::invalid_argument("no player " + std::to_string(player));
}

template <int W>
void require_colour(const Position<W>& pos, int colour) {
  if (colour < 0 || colour >= pos.colours()) throw std::invalid_argument("no colour " + std::to_string(colour));
}

// Gives a colour's pieces to a player (NOBODY: to nobody).
template <int W>
void give_colour(Position<W>& pos, int colour, int player) {
  require_colour(pos, colour);
  if (player != NOBODY) require_player(pos, player);
  pos.event_set_controller(colour, player);
}

template <int W>
void remove_king(Position<W>& pos, int colour) {
  require_colour(pos, colour);
  if (!(pos.colour_bb(colour) & pos.kind_bb(KING)))
    throw std::invalid_argument("the " + pos.variant().colour_names[colour] + " king is not on the board");
  pos.event_remove_king(colour);
}

template <int W>
void set_status(Position<W>& pos, int player, Status status) {
  require_player(pos, player);
  pos.event_set_status(player, status);
}

// Puts a player out: his king removed (kept among dead pieces with keep_king) and his pieces
// given to `by` (NOBODY: inert).
template <int W>
void eliminate(Position<W>& pos, int player, int by, bool keep_king) {
  require_player(pos, player);
  if (by != NOBODY && (by == player || by < 0 || by >= pos.players()))
    throw std::invalid_argument("player " + std::to_string(player) + " cannot be eliminated by " + std::to_string(by));
  if (pos.meta().status[player] == OUT)
    throw std::invalid_argument("player " + pos.variant().colour_names[player] + " is already out");
  if (keep_king && by != NOBODY)
    throw std::invalid_argument("a kept king stays among dead pieces, which nobody controls");
  pos.event_eliminate(player, by, keep_king);
}

}  // namespace polychess
