#include "core/any_width.h"

#include <stdexcept>

namespace polychess {

AnyPosition make_position(const Variant& variant, const std::string* text, const Rules& rules) {
  switch (variant.words) {
    case 1:
      return text ? AnyPosition(std::in_place_type<Position<1>>, variant, *text, rules)
                  : AnyPosition(std::in_place_type<Position<1>>, variant, rules);
    case 2:
      return text ? AnyPosition(std::in_place_type<Position<2>>, variant, *text, rules)
                  : AnyPosition(std::in_place_type<Position<2>>, variant, rules);
    case 3:
      return text ? AnyPosition(std::in_place_type<Position<3>>, variant, *text, rules)
                  : AnyPosition(std::in_place_type<Position<3>>, variant, rules);
  }
  throw std::logic_error("unsupported board width");
}

AnyGameState make_game_state(AnyPosition& pos, const std::array<int, MAX_PLAYERS>& points, bool judge_start) {
  return std::visit(
      [&](auto& p) -> AnyGameState {
        using State = GameState<std::decay_t<decltype(p)>::WIDTH>;
        return AnyGameState(std::in_place_type<State>, p, points, judge_start);
      },
      pos);
}

AnyGameState copy_game_state(AnyPosition& pos, const AnyGameState& other) {
  return std::visit(
      [&](auto& p) -> AnyGameState {
        using State = GameState<std::decay_t<decltype(p)>::WIDTH>;
        return AnyGameState(std::in_place_type<State>, p, std::get<State>(other));
      },
      pos);
}

}  // namespace polychess
