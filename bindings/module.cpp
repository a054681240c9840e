// The compiled module polychess._core: exceptions, Move, Board, Topology, Engine, GameState.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.h"
#include "errors.h"
#include "variant.h"

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
  m.doc() = "polychess core: topology, positions, move generation and perft in C++";
  py::register_exception<polychess::InvalidPosition>(m, "InvalidPositionError", PyExc_ValueError);
  py::register_exception<polychess::InvalidMove>(m, "InvalidMoveError", PyExc_ValueError);
  py::register_exception<polychess::IllegalMove>(m, "IllegalMoveError", PyExc_ValueError);
  m.def("variant_names", &polychess::variant_names, "Names of the variants the core knows.");
  polychess::bind_move(m);
  polychess::bind_board(m);
  polychess::bind_topology(m);
  polychess::bind_search(m);
  polychess::bind_game(m);
  polychess::bind_actions(m);
  polychess::bind_batch(m);
}
