#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <exception>

#include "bindings.h"
#include "core/evaluate.h"
#include "search/engine.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace polychess {
namespace {

py::list move_objects(const Variant& v, const std::vector<Move>& moves) {
  py::list list;
  for (Move m : moves) list.append(move_object(v, m));
  return list;
}

py::dict report_dict(const Variant& v, const SearchReport& r) {
  py::list lines;
  for (const SearchLine& line : r.lines)
    lines.append(
        py::dict("move"_a = move_object(v, line.move), "score"_a = line.score, "pv"_a = move_objects(v, line.pv),
                 "player_values"_a = per_player(line.player_values, v.players), "mate_moves"_a = line.mate_moves));
  return py::dict("best"_a = r.best == MOVE_NONE ? py::object(py::none()) : move_object(v, r.best), "score"_a = r.score,
                  "depth"_a = r.depth, "seldepth"_a = r.seldepth, "nodes"_a = r.nodes, "seconds"_a = r.seconds,
                  "pv"_a = move_objects(v, r.pv), "player_values"_a = per_player(r.player_values, v.players),
                  "mate_moves"_a = r.mate_moves, "cutoffs"_a = r.cutoffs, "first_move_cutoffs"_a = r.first_move_cutoffs,
                  "lines"_a = lines);
}

// The legal moves of the game's position that `moves` name (Move objects or move text).
std::vector<Move> named_root_moves(const PyGame& g, const py::list& moves) {
  return g.visit([&](const auto& state) {
    Move legal[MAX_MOVES];
    const int n = state.legal_moves(legal);
    std::vector<Move> named;
    for (py::handle m : moves) named.push_back(named_move(g.variant(), legal, n, state.position().turn(), m));
    return named;
  });
}

}  // namespace

void bind_search(py::module_& m) {
  m.attr("MATE") = MATE;
  m.attr("MAX_DEPTH") = MAX_DEPTH;
  m.attr("MAX_NODES") = MAX_NODES;
  m.attr("MAX_SECONDS") = MAX_SECONDS;
  m.attr("MAX_HASH_MB") = MAX_HASH_MB;
  py::class_<Engine>(m, "Engine", "A searcher with its own transposition table (low-level; see polychess.Engine).")
      .def(py::init<size_t>(), py::arg("hash_mb") = 16)  // polychess.Engine bounds it by the machine's memory too
      .def(
          "search",
          [](Engine& e, const PyGame& g, int depth, uint64_t nodes, double seconds,
             std::optional<std::function<void(py::dict)>> info, const NameText& algorithm, int threads, int noise,
             uint64_t noise_seed, const std::shared_ptr<Network>& network, int multipv,
             const std::optional<py::list>& searchmoves) {
            // (the argument keeps the network alive until the search returns)
            const SearchLimits limits{
                depth,      nodes,
                seconds,    algorithm_or_default(algorithm),
                threads,    noise,
                noise_seed, network.get(),
                multipv,    searchmoves ? named_root_moves(g, *searchmoves) : std::vector<Move>{}};
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
                  e.stop();
                }
              };
            }
            SearchReport report;
            {
              py::gil_scoped_release release;
              report = g.visit([&](const auto& s) { return e.search(s, limits, callback); });
            }
            if (callback_error) std::rethrow_exception(callback_error);
            return report_dict(v, report);
          },
          py::arg("game"), py::arg("depth") = 0, py::arg("nodes") = 0, py::arg("seconds") = 0.0,
          py::arg("info") = py::none(), py::arg("algorithm") = "", py::arg("threads") = 1, py::arg("noise") = 0,
          py::arg("noise_seed") = 0, py::arg("network") = py::none(), py::arg("multipv") = 1,
          py::arg("searchmoves") = py::none())
      .def("stop", &Engine::stop,
           "Stops the running search (from another thread); sent while none runs, it stops the next one at once.")
      .def("allow", &Engine::allow, "Takes back a stop sent while no search ran.")
      .def("clear", &Engine::clear, "Empties the transposition table.");
  m.def(
      "evaluate",
      [](const PyBoard& b) {
        // A cache per thread, as each search has one: a caller evaluating many positions (an
        // analysis, a set of samples) counts each pawn placement once.
        static thread_local PawnStructureCache pawn_cache;
        return per_player(
            b.visit([](const auto& pos) { return evaluate_players(pos, eval_tables(pos.topo()), &pawn_cache); }),
            b.variant().players);
      },
      "The evaluation's value of every player's pieces, in centipawns.");
  m.def(
      "evaluation_features",
      [](const PyBoard& b) {
        return per_player(b.visit([](const auto& pos) { return evaluation_features(pos, eval_tables(pos.topo())); }),
                          b.variant().players);
      },
      "Every player's evaluation features, in the order of evaluation_terms().");
  m.def(
      "evaluation_cell_values",
      [](const PyBoard& b) {
        return per_player(b.visit([](const auto& pos) { return cell_values(pos); }), b.variant().players);
      },
      "Every player's part of the evaluation from the game's cell weights (0 where it has none).");
  m.def(
      "evaluation_cell_features",
      [](const PyBoard& b) {
        std::vector<std::vector<std::pair<int, int>>> features(b.variant().players);
        b.visit([&](const auto& pos) {
          for_each_cell_weight(pos, [&](int player, int index, int count) {
            if (count) features[player].emplace_back(index, count);
          });
        });
        return features;
      },
      "Every player's cell features: (index into the cell weights, count) for each weight his pieces stand on.");
  m.def(
      "board_evaluation_weights",
      [](const PyBoard& b) { return b.visit([](const auto& pos) { return pos.evaluation().weights; }); },
      "The weights the board's position was made with, in the order of evaluation_terms().");
  m.def(
      "evaluation_terms",
      [] {
        std::vector<std::string> names;
        for (int term = 0; term < TERM_COUNT; ++term) names.push_back(eval_term_name(term));
        return names;
      },
      "The names of the evaluation's terms, in the order of its features and weights.");
  m.def(
      "evaluation_weights",
      [](const NameText& variant, const NameText& mode, const NameText& setup) {
        return placement_table(find_variant(variant, mode, setup)).weights;
      },
      py::arg("variant"), py::arg("mode") = "", py::arg("setup") = "",
      "The game's evaluation weights for positions made from now on.");
  m.def(
      "set_evaluation_weights",
      [](const NameText& variant, const NameText& mode, const NameText& setup, const EvalWeights& weights,
         const CellWeights& cells) { set_evaluation_weights(find_variant(variant, mode, setup), weights, cells); },
      py::arg("variant"), py::arg("mode"), py::arg("setup"), py::arg("weights"), py::arg("cells") = CellWeights{},
      "Makes `weights` (one per term of evaluation_terms()) and `cells` (none, or the cell weights: base and late, "
      "kinds pawn to king, cells in seat 0's frame) the game's evaluation weights for positions made from now on.");
  m.def(
      "evaluation_cell_weights",
      [](const NameText& variant, const NameText& mode, const NameText& setup) {
        return placement_table(find_variant(variant, mode, setup)).cells;
      },
      py::arg("variant"), py::arg("mode") = "", py::arg("setup") = "",
      "The game's cell weights for positions made from now on (empty where it has none).");
}

}  // namespace polychess
