// What each level's entry point (level_module.cpp) needs of the bindings, which are compiled once.
#pragma once

#include <pybind11/pybind11.h>

namespace polychess {

// Fills the module polychess._core with everything it holds, for the instruction-set level named.
void define_module(pybind11::module_& m, const char* level);

}  // namespace polychess
