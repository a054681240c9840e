// Batches of games for the vector environment (cpp/learn/game_batch.h): polychess._core.GameBatch.
// Every call that steps or writes releases the GIL; the arrays are the caller's (numpy).
#include <pybind11/stl.h>

#include <cctype>
#include <string_view>
#include <vector>

#include "bindings.h"
#include "learn/actions.h"
#include "learn/game_batch.h"

namespace py = pybind11;

namespace polychess {
namespace {

// Copies a step's actions, whole numbers of type Int, into `codes`, each checked to be an action
// code (a wider number must not wrap around onto one).
template <class Int>
void copy_codes(const void* items, const ActionSpace& space, std::vector<int32_t>& codes) {
  const Int* actions = static_cast<const Int*>(items);
  for (size_t i = 0; i < codes.size(); ++i) {
    if (!is_action_code(space, actions[i]))
      throw IllegalMove("game " + std::to_string(i) + ": " + not_an_action(space, std::to_string(actions[i])));
    codes[i] = int32_t(actions[i]);
  }
}

struct PyGameBatch {
  std::unique_ptr<GameBatch> batch;
  std::vector<int32_t> codes;  // a step's actions, copied before the GIL goes (the caller's array may change)

  size_t games() const { return size_t(batch->options().games); }

  // Reads a step's actions into `codes`: an array of any of numpy's integer types (struct
  // formats b, h, i, l, q and their unsigned capitals), one action code per game.
  void read_actions(const py::buffer& actions) {
    const ActionSpace& space = batch->actions();
    const py::buffer_info info = actions.request();
    const std::string& format = info.format;
    if (format.size() != 1 || std::string_view("bBhHiIlLqQ").find(format[0]) == std::string_view::npos)
      throw IllegalMove("the actions must be an array of whole numbers, not of buffer format '" + format + "' (" +
                        action_codes_text(space) + ")");
    const void* items = buffer_items(actions, games(), {format.c_str()}, "integer", "actions", /*writable=*/false);
    const bool is_signed = std::islower(static_cast<unsigned char>(format[0]));
    switch (info.itemsize) {
      case 1:
        return is_signed ? copy_codes<int8_t>(items, space, codes) : copy_codes<uint8_t>(items, space, codes);
      case 2:
        return is_signed ? copy_codes<int16_t>(items, space, codes) : copy_codes<uint16_t>(items, space, codes);
      case 4:
        return is_signed ? copy_codes<int32_t>(items, space, codes) : copy_codes<uint32_t>(items, space, codes);
      case 8:
        return is_signed ? copy_codes<int64_t>(items, space, codes) : copy_codes<uint64_t>(items, space, codes);
      default:
        throw std::invalid_argument("actions: whole numbers of " + std::to_string(info.itemsize) + " bytes");
    }
  }

  // The outputs the caller passed (None: not written), checked against the batch's sizes.
  BatchOutputs outputs(const py::object& observations, const py::object& masks, const py::object& to_play,
                       const py::object& rewards, const py::object& terminated, const py::object& truncated) const {
    BatchOutputs out;
    const size_t n = games();
    if (!observations.is_none()) {
      const ObservationBuffer items(observations.cast<py::buffer>(), n * size_t(batch->shape().size()), "observations");
      out.observations = items.floats;
      out.observations_uint8 = items.bytes;
    }
    auto items = [](const py::object& array, size_t count, std::initializer_list<const char*> formats,
                    const char* item_name, const char* what) {
      return array.is_none() ? nullptr : buffer_items(array.cast<py::buffer>(), count, formats, item_name, what);
    };
    const size_t actions = size_t(batch->actions().size), players = size_t(batch->players());
    out.masks = static_cast<int8_t*>(items(masks, n * actions, {"b", "B", "?"}, "one-byte", "action masks"));
    out.to_play = static_cast<int32_t*>(items(to_play, n, {"i"}, "int32", "to_play"));
    out.rewards = static_cast<float*>(items(rewards, n * players, {"f"}, "float32", "rewards"));
    out.terminated = static_cast<uint8_t*>(items(terminated, n, {"?", "B", "b"}, "one-byte", "terminated"));
    out.truncated = static_cast<uint8_t*>(items(truncated, n, {"?", "B", "b"}, "one-byte", "truncated"));
    return out;
  }
};

}  // namespace

void bind_batch(py::module_& m) {
  py::class_<PyGameBatch>(m, "GameBatch", "Copies of a game stepped together (low-level; see polychess.rl.vector_env).")
      .def(py::init([](const PyGame& game, int games, uint32_t max_plies, int threads, uint64_t seed) {
             const BatchOptions options{games, max_plies, threads, seed};
             return PyGameBatch{game.visit([&](const auto& s) { return make_batch(s, options); }),
                                std::vector<int32_t>(size_t(games))};
           }),
           py::arg("game"), py::arg("games"), py::arg("max_plies") = 0, py::arg("threads") = 1, py::arg("seed") = 0)
      .def_property_readonly("games", &PyGameBatch::games)
      .def_property_readonly("players", [](const PyGameBatch& b) { return b.batch->players(); })
      .def_property_readonly("action_count", [](const PyGameBatch& b) { return b.batch->actions().size; })
      .def_property_readonly("observation_shape", [](const PyGameBatch& b) { return b.batch->shape().dims(); })
      .def(
          "reset",
          [](PyGameBatch& b, py::object observations, py::object masks, py::object to_play) {
            const BatchOutputs out = b.outputs(observations, masks, to_play, py::none(), py::none(), py::none());
            py::gil_scoped_release release;
            b.batch->reset(out);
          },
          py::arg("observations"), py::arg("masks"), py::arg("to_play"),
          "Every game back to its start; writes the observations, masks and players to move.")
      .def(
          "step",
          [](PyGameBatch& b, py::buffer actions, py::object observations, py::object masks, py::object to_play,
             py::object rewards, py::object terminated, py::object truncated) {
            b.read_actions(actions);
            const BatchOutputs out = b.outputs(observations, masks, to_play, rewards, terminated, truncated);
            py::gil_scoped_release release;
            b.batch->step(b.codes.data(), out);
          },
          py::arg("actions"), py::arg("observations"), py::arg("masks"), py::arg("to_play"), py::arg("rewards"),
          py::arg("terminated"), py::arg("truncated"),
          "One move per game (actions: an array of whole numbers of any integer type); games that end start "
          "again. Raises IllegalMoveError naming the first game whose action is no code or illegal, before any "
          "game moves.")
      .def(
          "random_actions",
          [](PyGameBatch& b, py::buffer out) {
            auto* codes = static_cast<int32_t*>(buffer_items(out, b.games(), {"i"}, "int32", "the actions"));
            py::gil_scoped_release release;
            b.batch->random_actions(codes);
          },
          py::arg("out"), "A uniformly drawn legal action per game.")
      .def(
          "reseed", [](PyGameBatch& b, uint64_t seed) { b.batch->reseed(seed); }, py::arg("seed"))
      .def(
          "position_text",
          [](const PyGameBatch& b, int game) {
            if (game < 0 || size_t(game) >= b.games()) throw py::index_error("no game " + std::to_string(game));
            return b.batch->position_text(game);
          },
          py::arg("game"));
}

}  // namespace polychess
