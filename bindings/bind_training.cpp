// Training data for Python: self-play batches played by the core (selfplay/selfplay.h) and the
// data files' records (nnue/training_data.h).
#include <pybind11/stl.h>

#include <memory>

#include "bindings.h"
#include "nnue/training_positions.h"
#include "selfplay/selfplay.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace polychess {
namespace {

// The variant whose training data goes by `game` (decode_training_data has refused any other).
const Variant& variant_of_game(const std::string& game) { return *variant_of_network_game(game); }

}  // namespace

template <class T>
py::bytes raw(const std::vector<T>& values) {
  return py::bytes(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

// A data file's records, held for the training to read positions from in batches.
struct PyTrainingData {
  TrainingData data;
  const Variant* variant;
};

void bind_training(py::module_& m) {
  py::register_exception<InvalidTrainingData>(m, "InvalidTrainingDataError", PyExc_ValueError);

  py::class_<PyTrainingData>(m, "TrainingData", "A training data file's records (low-level; see polychess.training).")
      .def(py::init([](const py::bytes& bytes) {
             TrainingData data = decode_training_data(bytes);
             const Variant* variant = &variant_of_game(data.game);
             return PyTrainingData{std::move(data), variant};
           }),
           py::arg("data"))
      .def_property_readonly("game", [](const PyTrainingData& d) { return d.data.game; })
      .def_property_readonly("games", [](const PyTrainingData& d) { return d.data.games.size(); })
      .def_property_readonly("complete_bytes", [](const PyTrainingData& d) { return d.data.complete_bytes; })
      .def_property_readonly("moves",
                             [](const PyTrainingData& d) {
                               size_t n = 0;
                               for (const TrainingGame& g : d.data.games) n += g.moves.size();
                               return n;
                             })
      .def(
          "positions",
          [](const PyTrainingData& d, const Rules& rules, size_t first, size_t count, int skip_plies,
             int king_buckets) {
            TrainingPositions p;
            {
              py::gil_scoped_release release;
              p = training_positions(*d.variant, rules, d.data.games, first, count, skip_plies, king_buckets);
            }
            return py::dict("count"_a = p.count, "players"_a = p.players, "slots"_a = p.slots,
                            "features"_a = raw(p.features), "turn"_a = raw(p.turn), "score"_a = raw(p.score),
                            "result"_a = raw(p.result), "in_game"_a = raw(p.in_game), "points"_a = raw(p.points),
                            "classic"_a = raw(p.classic));
          },
          py::arg("rules_text"), py::arg("first"), py::arg("count"), py::arg("skip_plies"), py::arg("king_buckets") = 1,
          "The training positions of games [first, first + count), replayed by `rules_text`: a dict of their count and "
          "flat little-endian arrays (features int16 [count][players][slots] padded with -1, read with "
          "`king_buckets` king buckets; turn uint8, score int16, result uint8 [count][players] times "
          "2 * (players - 1), in_game uint8, points int32, classic int32: the classic evaluation's values).");

  m.def(
      "self_play",
      [](const NameText& variant, const NameText& mode, const NameText& setup, const Rules& rules,
         const std::vector<std::string>& starts, uint64_t nodes, uint32_t max_plies, int threads, size_t hash_mb,
         const std::shared_ptr<Network>& network, const std::string& algorithm, const StopFlag* stop) {
        const Variant& v = find_variant(variant, mode, setup);
        SelfPlayOptions options{nodes, max_plies, threads, hash_mb, network.get(), algorithm_or_default(algorithm)};
        std::string records;
        {
          py::gil_scoped_release release;
          for (const TrainingGame& game : self_play(v, rules, starts, options, raised_of(stop)))
            records += encode_training_game(game);
        }
        return py::bytes(records);
      },
      py::arg("variant"), py::arg("mode"), py::arg("setup"), py::arg("rules_text"), py::arg("starts"), py::arg("nodes"),
      py::arg("max_plies"), py::arg("threads") = 1, py::arg("hash_mb") = 16, py::arg("network") = py::none(),
      py::arg("algorithm") = "", py::arg("stop") = py::none(),
      "Plays one game from each start position string, every move searched to `nodes` nodes by `algorithm` "
      "where more than two sides play (empty: the game's own), without the GIL; "
      "returns their training records (appended to training_data_header's bytes, a data file). A raised `stop` "
      "ends the batch with the games finished (those in play are left out).");
  m.def(
      "training_data_header", [](const NameText& game) { return py::bytes(training_data_header(game)); },
      py::arg("game"), "The bytes a data file of the game begins with.");
  m.def(
      "read_training_data",
      [](const py::bytes& bytes) {
        const TrainingData data = decode_training_data(bytes);
        const Variant& variant = variant_of_game(data.game);
        py::list games;
        for (const TrainingGame& g : data.games) {
          py::list moves;
          std::vector<int> scores;
          for (const TrainingMove& m : g.moves) {
            moves.append(move_object(variant, m.move));
            scores.push_back(m.score);
          }
          games.append(
              py::make_tuple(g.start, std::vector<int>(g.result.begin(), g.result.begin() + g.players), moves, scores));
        }
        return py::make_tuple(data.game, games, data.complete_bytes);
      },
      py::arg("data"),
      "A data file's (game, [(start, results times 2 * (players - 1), moves, scores)], bytes of its whole "
      "records); InvalidTrainingDataError for data that cannot be read.");
}

}  // namespace polychess
