// Networks for Python: polychess._core.Network (a quantized network, read from or written to
// its file format, or quantized from float arrays) and NetworkEvaluator (the core's
// incrementally updated evaluation with one), plus the features a position activates.
#include <pybind11/stl.h>

#include <memory>
#include <variant>

#include "bindings.h"
#include "nnue/evaluator.h"

namespace py = pybind11;

namespace polychess {
namespace {

using NetworkPtr = std::shared_ptr<Network>;

// An evaluator for boards of one game; it keeps its network alive.
struct PyNetworkEvaluator {
  NetworkPtr network;
  const Variant* variant;
  std::variant<std::unique_ptr<NetworkEvaluator<1>>, std::unique_ptr<NetworkEvaluator<2>>,
               std::unique_ptr<NetworkEvaluator<3>>>
      evaluator;

  PyNetworkEvaluator(NetworkPtr net, const PyBoard& board) : network(std::move(net)), variant(&board.variant()) {
    board.visit([&](const auto& pos) {
      constexpr int W = std::decay_t<decltype(pos)>::WIDTH;
      evaluator = std::make_unique<NetworkEvaluator<W>>(*network, pos.variant());
    });
  }

  template <class Call>
  std::vector<int> evaluate(const PyBoard& board, Call call) {
    if (network_game(board.variant()) != network_game(*variant) ||
        board.variant().layout.cell_count != variant->layout.cell_count)
      throw InvalidNetwork("this evaluator evaluates " + network_game(*variant) + ", not " +
                           network_game(board.variant()));
    return board.visit([&](const auto& pos) {
      constexpr int W = std::decay_t<decltype(pos)>::WIDTH;
      auto& ev = std::get<std::unique_ptr<NetworkEvaluator<W>>>(evaluator);
      return per_player(call(*ev, pos), pos.players());
    });
  }
};

std::vector<int> active_features(const PyBoard& board, int perspective, int king_buckets) {
  const FeatureSet f = feature_set(board.variant(), king_buckets);
  checked_index(perspective, f.players, "player");
  std::vector<int> out;
  board.visit([&](const auto& pos) {
    const int bucket = f.bucket(perspective, pos.king_of(perspective));
    for (int cell = 0; cell < f.cells; ++cell) {
      const Piece piece = pos.piece_at(cell);
      if (piece != NO_PIECE)
        out.push_back(f.index(perspective, bucket, cell, kind_of(piece), pos.meta().controller[colour_of(piece)]));
    }
  });
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

void bind_network(py::module_& m) {
  py::register_exception<InvalidNetwork>(m, "InvalidNetworkError", PyExc_ValueError);
  m.attr("NETWORK_HEADER_BYTES") = NETWORK_HEADER_BYTES;

  py::class_<Network, NetworkPtr>(m, "Network", "A quantized network (low-level; see polychess.nnue).")
      .def_static(
          "from_bytes", [](const py::bytes& data) { return std::make_shared<Network>(read_network(data)); },
          py::arg("data"), "The network a file's bytes hold; InvalidNetworkError saying what is wrong with them.")
      .def_static(
          "file_size", [](const py::bytes& head) { return network_file_size(head); }, py::arg("head"),
          "The size of the network file whose first bytes (at least its header) are `head`, from its header; "
          "InvalidNetworkError for a header that cannot be a network's.")
      .def_static(
          "quantize",
          [](const NameText& variant, const NameText& mode, const NameText& setup, int hidden,
             const std::vector<float>& ft_bias, const std::vector<float>& ft_weight,
             const std::vector<float>& out_weight, const std::vector<float>& out_bias, int scale, bool on_classic,
             int king_buckets) {
            return std::make_shared<Network>(quantize_network(find_variant(variant, mode, setup), king_buckets, hidden,
                                                              ft_bias, ft_weight, out_weight, out_bias, scale,
                                                              on_classic));
          },
          py::arg("variant"), py::arg("mode"), py::arg("setup"), py::arg("hidden"), py::arg("ft_bias"),
          py::arg("ft_weight"), py::arg("out_weight"), py::arg("out_bias"), py::arg("scale"), py::arg("on_classic"),
          py::arg("king_buckets") = 1, "Quantizes a float network of the game (flat arrays in the file's order).")
      .def(
          "to_bytes", [](const Network& n) { return py::bytes(write_network(n)); }, "The network file's bytes.")
      .def_property_readonly("game", [](const Network& n) { return n.game; })
      .def_property_readonly("cells", [](const Network& n) { return n.cells; })
      .def_property_readonly("players", [](const Network& n) { return n.players; })
      .def_property_readonly("slots", [](const Network& n) { return n.slots; })
      .def_property_readonly("king_buckets", [](const Network& n) { return n.buckets; })
      .def_property_readonly("hidden", [](const Network& n) { return n.hidden; })
      .def_property_readonly("inputs", &Network::inputs)
      .def_property_readonly("scale", [](const Network& n) { return n.scale; })
      .def_property_readonly("on_classic", [](const Network& n) { return n.on_classic; })
      .def_property_readonly("hash", &Network::hash);

  py::class_<PyNetworkEvaluator>(m, "NetworkEvaluator",
                                 "A network's evaluation of one game's boards, its accumulators updated from the last "
                                 "board it evaluated.")
      .def(py::init<NetworkPtr, const PyBoard&>(), py::arg("network"), py::arg("board"),
           "An evaluator of `board`'s game; InvalidNetworkError if the network is another game's.")
      .def(
          "evaluate",
          [](PyNetworkEvaluator& e, const PyBoard& b) {
            return e.evaluate(b, [](auto& ev, const auto& pos) { return ev.evaluate(pos); });
          },
          py::arg("board"), "Every player's value in centipawns, the accumulators updated incrementally.")
      .def(
          "evaluate_afresh",
          [](PyNetworkEvaluator& e, const PyBoard& b) {
            return e.evaluate(b, [](auto& ev, const auto& pos) { return ev.evaluate_afresh(pos); });
          },
          py::arg("board"), "Every player's value in centipawns, the accumulators computed from scratch.")
      .def_property_readonly("refreshes",
                             [](const PyNetworkEvaluator& e) {
                               return std::visit([](const auto& ev) { return ev->refreshes(); }, e.evaluator);
                             })
      .def_property_readonly("updates", [](const PyNetworkEvaluator& e) {
        return std::visit([](const auto& ev) { return ev->updates(); }, e.evaluator);
      });

  m.def("network_features", active_features, py::arg("board"), py::arg("perspective"), py::arg("king_buckets") = 1,
        "The features the board's pieces activate for a player's perspective, sorted.");
  m.def(
      "network_inputs",
      [](const NameText& v, const NameText& mode, int king_buckets) {
        return feature_set(find_variant(v, mode), king_buckets).inputs;
      },
      py::arg("variant"), py::arg("mode") = "", py::arg("king_buckets") = 1,
      "The number of a game's network features per perspective.");
  m.attr("king_buckets") = KING_BUCKETS;
  m.attr("network_kernels") = simd::KERNELS;
}

}  // namespace polychess
