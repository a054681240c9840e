// Shared declarations of the binding units.
#pragma once

#include <pybind11/pybind11.h>

#include "variant.h"

namespace polychess {

// The Python-side value of a move: the variant and (from, to, promotion), which identify a
// move among the legal moves of any position of that variant.
struct MoveValue {
  const Variant* variant;
  int from, to;
  Kind promotion;
};

void bind_move(pybind11::module_& m);
void bind_board(pybind11::module_& m);
void bind_topology(pybind11::module_& m);

// The one shared Move object for (variant, from, to, promotion): legal-move lists hand out
// these cached objects instead of building new ones, which keeps iteration cheap.
pybind11::object move_object(const Variant& variant, uint32_t move);
MoveValue move_value(const Variant& variant, uint32_t move);

}  // namespace polychess
