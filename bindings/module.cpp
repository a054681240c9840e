// The compiled module polychess._core: exceptions, Move, Board, Topology, Engine, GameState.
// It is linked once per instruction-set level as polychess._core_<level> (CMakeLists.txt), and
// names itself polychess._core, the name python/polychess/_core.py gives the one it loads: its
// classes, functions and exceptions are polychess._core's whichever level runs (pickles too).
// Compiled once: each level's entry point (level_module.cpp) calls its initialisation.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "base/errors.h"
#include "bindings.h"
#include "games/variant.h"

namespace py = pybind11;

extern "C" const char polychess_level[];  // the level linked with it (level_module.cpp)

PYBIND11_MODULE(_core, m) {
  m.attr("__name__") = "polychess._core";  // before anything is defined: pybind11 names them from it
  m.doc() = "polychess core: topology, positions, move generation and perft in C++";
  m.attr("LEVEL") = py::str(static_cast<const char*>(polychess_level));
  py::register_exception<polychess::InvalidPosition>(m, "InvalidPositionError", PyExc_ValueError);
  py::register_exception<polychess::InvalidMove>(m, "InvalidMoveError", PyExc_ValueError);
  py::register_exception<polychess::IllegalMove>(m, "IllegalMoveError", PyExc_ValueError);
  py::register_exception<polychess::GameOver>(m, "GameOverError", PyExc_ValueError);
  m.def(
      "variants",
      [] {
        std::vector<py::tuple> out;
        for (const polychess::Variant* v : polychess::variants())
          out.push_back(py::make_tuple(v->name, v->mode, v->setup, v->layout.geometry->name(), v->colour_names,
                                       v->teams, v->default_algorithm, polychess::rules_text(v->rules),
                                       v->record_format, v->record_suffix, v->uci_variant, v->record_variant));
        return out;
      },
      "Every game the core knows, as (variant, mode, setup, board shape, colour names, whether players p and p + 2 "
      "are partners, the search algorithm the engine plays it by, its rules as text (rules_text), its record "
      "format and that format's file suffix, its UCI_Variant name and its records' Variant tag (each empty where it "
      "has none of its own)), in its listed order (the catalogue).");
  m.def(
      "resolve_variant",
      [](const polychess::NameText& name, const polychess::NameText& mode, const polychess::NameText& setup) {
        const polychess::Variant& v = polychess::find_variant(name, mode, setup);
        return py::make_tuple(v.name, v.mode, v.setup);
      },
      py::arg("name"), py::arg("mode") = "", py::arg("setup") = "",
      "(variant, mode, setup) of the game these name, the defaults filled in; ValueError for an unknown one.");
  polychess::bind_move(m);
  polychess::bind_board(m);
  polychess::bind_topology(m);
  polychess::bind_network(m);  // before the search, which takes a network
  polychess::bind_search(m);
  polychess::bind_game(m);
  polychess::bind_actions(m);
  polychess::bind_batch(m);
  polychess::bind_training(m);
}
