#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <atomic>
#include <exception>

#include "bindings.h"
#include "core/evaluate.h"
#include "search/search.h"

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
  d["seldepth"] = r.seldepth;
  d["nodes"] = r.nodes;
  d["seconds"] = r.seconds;
  py::list pv;
  for (Move m : r.pv) pv.append(move_object(v, m));
  d["pv"] = pv;
  py::list values;
  for (int p = 0; p < v.players; ++p) values.append(r.player_values[p]);
  d["player_values"] = values;
  d["mate_moves"] = r.mate_moves;
  return d;
}

}  // namespace

void bind_search(py::module_& m) {
  m.attr("MATE") = MATE;
  m.attr("MAX_DEPTH") = MAX_DEPTH;
  m.attr("MAX_NODES") = MAX_NODES;
  m.attr("MAX_SECONDS") = MAX_SECONDS;
  m.attr("MAX_HASH_MB") = MAX_HASH_MB;
  py::class_<PyEngine>(m, "Engine", "A searcher with its own transposition table (low-level; see polychess.Engine).")
      .def(py::init([](size_t hash_mb) {
             // polychess.Engine bounds the size by the machine's memory; this is the hard cap.
             if (hash_mb > MAX_HASH_MB)
               throw std::invalid_argument("hash_mb must be at most " + std::to_string(MAX_HASH_MB));
             auto e = std::make_unique<PyEngine>();
             e->tt.resize(hash_mb);
             return e;
           }),
           py::arg("hash_mb") = 16)
      .def(
          "search",
          [](PyEngine& e, const PyGame& g, int depth, uint64_t nodes, double seconds,
             std::optional<std::function<void(py::dict)>> info, const NameText& algorithm, int threads, int noise,
             uint64_t noise_seed) {
            // polychess.Engine validates the limits for users (engine.py); this guards the
            // low-level module against values the search cannot honour.
            if (depth < 0 || depth > MAX_DEPTH || nodes > MAX_NODES || !(seconds >= 0 && seconds <= MAX_SECONDS))
              throw std::invalid_argument("search limits out of range (see polychess.Engine.search)");
            SearchLimits limits{depth, nodes, seconds};
            const std::string& name = algorithm;
            if (name == "paranoid") limits.algorithm = Algorithm::PARANOID;
            else if (name == "maxn") limits.algorithm = Algorithm::MAXN;
            else if (name == "brs") limits.algorithm = Algorithm::BRS;
            else throw std::invalid_argument("unknown algorithm " + quoted(name) + " (paranoid, maxn, brs)");
            if (threads < 1 || threads > 256) throw std::invalid_argument("threads must be between 1 and 256");
            limits.threads = threads;
            if (noise < 0 || noise > 10000) throw std::invalid_argument("noise must be between 0 and 10000");
            limits.noise = noise;
            limits.noise_seed = noise_seed;
            if (e.busy.exchange(true)) throw std::invalid_argument("this engine is already searching");
            e.stop = false;
            const Variant& v = g.variant();
            // An exception raised by the Python callback is kept, the search is stopped and
            // ends normally (its threads joined), and the exception is raised afterwards.
            std::exception_ptr callback_error;
            IterationCallback callback;
            if (info) {
              callback = [&](const SearchReport& r) {
                if (callback_error) return;
                py::gil_scoped_acquire gil;
                try {
                  (*info)(report_dict(v, r));
                } catch (...) {
                  callback_error = std::current_exception();
                  e.stop = true;
                }
              };
            }
            SearchReport report;
            try {
              py::gil_scoped_release release;
              report = g.visit([&](const auto& s) { return polychess::search(s, e.tt, limits, e.stop, callback); });
            } catch (...) {
              e.busy = false;
              throw;
            }
            e.busy = false;
            if (callback_error) std::rethrow_exception(callback_error);
            return report_dict(v, report);
          },
          py::arg("game"), py::arg("depth") = 0, py::arg("nodes") = 0, py::arg("seconds") = 0.0,
          py::arg("info") = py::none(), py::arg("algorithm") = "paranoid", py::arg("threads") = 1, py::arg("noise") = 0,
          py::arg("noise_seed") = 0)
      .def(
          "stop", [](PyEngine& e) { e.stop = true; }, "Stops a running search (from another thread).")
      .def(
          "clear", [](PyEngine& e) { e.tt.clear(); }, "Empties the transposition table.")
      .def_property_readonly("hash_entries", [](const PyEngine& e) { return e.tt.size(); });

  m.def(
      "evaluate",
      [](const PyBoard& b) {
        const auto values = b.visit([](const auto& pos) { return evaluate_players(pos, eval_tables(pos.topo())); });
        return std::vector<int>(values.begin(), values.begin() + b.variant().players);
      },
      "The evaluation's value of every player's pieces, in centipawns.");
  m.def(
      "evaluation_features",
      [](const PyBoard& b) {
        const PlayerFeatures f =
            b.visit([](const auto& pos) { return evaluation_features(pos, eval_tables(pos.topo())); });
        std::vector<std::vector<int>> features;
        for (int p = 0; p < b.variant().players; ++p) features.emplace_back(f[p].begin(), f[p].end());
        return features;
      },
      "Every player's evaluation features, in the order of evaluation_terms().");
  m.def(
      "board_evaluation_weights",
      [](const PyBoard& b) {
        const EvalWeights& w = b.visit([](const auto& pos) -> const EvalWeights& { return pos.evaluation().weights; });
        return std::vector<int>(w.begin(), w.end());
      },
      "The weights the board's position was made with, in the order of evaluation_terms().");
  m.def(
      "evaluation_terms", [] { return std::vector<std::string>(EVAL_TERM_NAMES, EVAL_TERM_NAMES + TERM_COUNT); },
      "The names of the evaluation's terms, in the order of its features and weights.");
  m.def(
      "evaluation_weights",
      [](const std::string& variant, const std::string& mode, const std::string& setup) {
        const EvalWeights& w = placement_table(find_variant(variant, mode, setup)).weights;
        return std::vector<int>(w.begin(), w.end());
      },
      py::arg("variant"), py::arg("mode") = "", py::arg("setup") = "",
      "The game's evaluation weights for positions made from now on.");
  m.def(
      "set_evaluation_weights",
      [](const std::string& variant, const std::string& mode, const std::string& setup, const std::vector<int>& w) {
        if (w.size() != size_t(TERM_COUNT))
          throw py::value_error("evaluation weights: " + std::to_string(TERM_COUNT) + " numbers expected, got " +
                                std::to_string(w.size()));
        for (int x : w)
          if (x < -30000 || x > 30000) throw py::value_error("evaluation weight out of range: " + std::to_string(x));
        EvalWeights weights;
        std::copy(w.begin(), w.end(), weights.begin());
        set_evaluation_weights(find_variant(variant, mode, setup), weights);
      },
      py::arg("variant"), py::arg("mode"), py::arg("setup"), py::arg("weights"),
      "Makes `weights` the game's evaluation weights for positions made from now on.");
}

}  // namespace polychess
