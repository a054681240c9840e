#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <atomic>

#include "bindings.h"

namespace py = pybind11;

namespace polychess {
namespace {

// One engine: its transposition table and the flag another thread sets to stop a search.
struct PyEngine {
  TranspositionTable tt;
  std::atomic<bool> stop{false};
  std::atomic<bool> busy{false};
};

py::dict report_dict(const Variant& v, const SearchReport& r) {
  py::dict d;
  d["best"] = r.best == MOVE_NONE ? py::object(py::none()) : move_object(v, r.best);
  d["score"] = r.score;
  d["depth"] = r.depth;
  d["nodes"] = r.nodes;
  d["seconds"] = r.seconds;
  py::list pv;
  for (Move m : r.pv) pv.append(move_object(v, m));
  d["pv"] = pv;
  py::list values;
  for (int p = 0; p < v.players; ++p) values.append(r.player_values[p]);
  d["player_values"] = values;
  return d;
}

}  // namespace

void bind_search(py::module_& m) {
  m.attr("MATE") = MATE;
  py::class_<PyEngine>(m, "Engine", "A searcher with its own transposition table (low-level; see polychess.Engine).")
      .def(py::init([](size_t hash_mb) {
             if (hash_mb > 65536) throw std::invalid_argument("hash_mb must be at most 65536");
             auto e = std::make_unique<PyEngine>();
             e->tt.resize(hash_mb);
             return e;
           }),
           py::arg("hash_mb") = 16)
      .def("search",
           [](PyEngine& e, const PyBoard& b, int depth, uint64_t nodes, double seconds,
              std::optional<std::function<void(py::dict)>> info) {
             if (depth < 0 || nodes > (uint64_t(1) << 62) || seconds < 0)
               throw std::invalid_argument("limits must be >= 0");
             if (e.busy.exchange(true)) throw std::invalid_argument("this engine is already searching");
             e.stop = false;
             const Variant& v = b.variant();
             IterationCallback callback;
             if (info) {
               callback = [&](const SearchReport& r) {
                 py::gil_scoped_acquire gil;
                 (*info)(report_dict(v, r));
               };
             }
             SearchReport report;
             try {
               py::gil_scoped_release release;
               report = b.board->search(e.tt, SearchLimits{depth, nodes, seconds}, e.stop, callback);
             } catch (...) {
               e.busy = false;
               throw;
             }
             e.busy = false;
             return report_dict(v, report);
           },
           py::arg("board"), py::arg("depth") = 0, py::arg("nodes") = 0, py::arg("seconds") = 0.0,
           py::arg("info") = py::none())
      .def("stop", [](PyEngine& e) { e.stop = true; }, "Stops a running search (from another thread).")
      .def("clear", [](PyEngine& e) { e.tt.clear(); }, "Empties the transposition table.")
      .def_property_readonly("hash_entries", [](const PyEngine& e) { return e.tt.size(); });

  m.def("evaluate", [](const PyBoard& b) {
    const auto values = b.board->evaluate();
    return std::vector<int>(values.begin(), values.begin() + b.variant().players);
  }, "The evaluation's value of every player's pieces, in centipawns.");
}

}  // namespace polychess
