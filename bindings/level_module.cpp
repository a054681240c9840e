// The entry point of one level's module, polychess._core_<level>: the one file of the bindings
// compiled per level (CMakeLists.txt), for the module's name and its LEVEL.
#include <pybind11/pybind11.h>

#include "module.h"

PYBIND11_MODULE(POLYCHESS_MODULE, m) { polychess::define_module(m, POLYCHESS_LEVEL); }
