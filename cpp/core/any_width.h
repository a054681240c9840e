// Positions and game states of any board width as one type each: what an embedder holds when
// the game is chosen at run time (the Python bindings do). std::visit calls the width's
// templates directly, so a capability of the core needs no forwarding layer in between.
#pragma once

#include <array>
#include <string>
#include <variant>

#include "core/game_state.h"
#include "core/position.h"

namespace polychess {

using AnyPosition = std::variant<Position<1>, Position<2>, Position<3>>;
using AnyGameState = std::variant<GameState<1>, GameState<2>, GameState<3>>;

// The variant's start position (text null) or the position the text gives, played by `rules`
// (Position's constructors: InvalidPosition for a bad text).
AnyPosition make_position(const Variant& variant, const std::string* text, const Rules& rules);

// A game on `pos` from where it stands (GameState's constructor); `pos` must outlive it.
AnyGameState make_game_state(AnyPosition& pos, const std::array<int, MAX_PLAYERS>& points, bool judge_start);

// A copy of `other` that plays on `pos`, a copy of other's position.
AnyGameState copy_game_state(AnyPosition& pos, const AnyGameState& other);

}  // namespace polychess
