// Action codes (cpp/actions.h) for Python: the space of a game, and the codes of a board's
// legal moves, as lists or written into a caller's buffer (no numpy needed by the core).
#include <pybind11/stl.h>

#include <algorithm>

#include "actions.h"
#include "bindings.h"
#include "notation.h"

namespace py = pybind11;

namespace polychess {
namespace {

struct PyActionSpace {
  const Variant* variant;
  const ActionSpace* space;

  void check_board(const PyBoard& b) const {
    if (&b.variant() != variant)
      throw std::invalid_argument("this action space is " + variant->name + "'s, not the board's (" + b.variant().name +
                                  ")");
  }
  int seat(const PyBoard& b) const { return b.board->meta().turn; }
  // The board's legal move with this code, MOVE_NONE if none has it.
  Move find(const PyBoard& b, int code) const {
    check_board(b);
    Move moves[MAX_MOVES];
    const int n = b.board->legal_moves(moves);
    return decode_action(*space, seat(b), code, moves, n);
  }
};

}  // namespace

void bind_actions(py::module_& m) {
  py::class_<PyActionSpace>(m, "ActionSpace", "The action codes of a game (low-level; see polychess.rl).")
      .def(py::init([](const std::string& variant, const std::string& mode, const std::string& setup) {
             const Variant& v = find_variant(variant, mode, setup);
             return PyActionSpace{&v, &action_space(v)};
           }),
           py::arg("variant"), py::arg("mode") = "", py::arg("setup") = "")
      .def_property_readonly("size", [](const PyActionSpace& s) { return s.space->size; })
      .def(
          "action",
          [](const PyActionSpace& s, int code) {
            if (code < 0 || code >= s.space->size)
              throw py::index_error("no action " + std::to_string(code) + " (0 to " +
                                    std::to_string(s.space->size - 1) + ")");
            const Kind k = Kind(s.space->promotion[code]);
            const Move m = k == NO_KIND ? make_move(s.space->from[code], s.space->to[code])
                                        : make_promotion(s.space->from[code], s.space->to[code], k);
            return move_text(*s.variant, m);
          },
          py::arg("code"), "The action as a move of seat 0 (the first seat's view of the board).")
      .def(
          "encode",
          [](const PyActionSpace& s, const PyBoard& b, const MoveValue& move) {
            s.check_board(b);
            return encode_action(*s.space, s.seat(b), b.resolve(move));
          },
          py::arg("board"), py::arg("move"), "The code of a legal move of the board.")
      .def(
          "decode",
          [](const PyActionSpace& s, const PyBoard& b, int code) {
            const Move m = s.find(b, code);
            if (m == MOVE_NONE)
              throw IllegalMove("action " + std::to_string(code) + " is not a legal move here" +
                                (code < 0 || code >= s.space->size
                                     ? " (the codes are 0 to " + std::to_string(s.space->size - 1) + ")"
                                     : ""));
            return move_object(*s.variant, m);
          },
          py::arg("board"), py::arg("code"), "The legal move of the board with this code.")
      .def(
          "is_legal", [](const PyActionSpace& s, const PyBoard& b, int code) { return s.find(b, code) != MOVE_NONE; },
          py::arg("board"), py::arg("code"), "Whether the code is a legal move of the board.")
      .def(
          "legal_actions",
          [](const PyActionSpace& s, const PyBoard& b) {
            s.check_board(b);
            Move moves[MAX_MOVES];
            const int n = b.board->legal_moves(moves);
            std::vector<int> codes(n);
            for (int i = 0; i < n; ++i) codes[i] = encode_action(*s.space, s.seat(b), moves[i]);
            std::sort(codes.begin(), codes.end());
            return codes;
          },
          py::arg("board"), "The codes of the board's legal moves, in increasing order.")
      .def(
          "write_mask",
          [](const PyActionSpace& s, const PyBoard& b, py::buffer out) {
            s.check_board(b);
            auto* mask =
                static_cast<int8_t*>(buffer_items(out, size_t(s.space->size), {"B", "b", "?"}, "one-byte", "the mask"));
            Move moves[MAX_MOVES];
            const int n = b.board->legal_moves(moves);
            write_action_mask(*s.space, s.seat(b), moves, n, mask);
          },
          py::arg("board"), py::arg("out"), "Sets out[code] to 1 for every legal move, 0 elsewhere.");
}

}  // namespace polychess
