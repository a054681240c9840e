// Action codes (cpp/learn/actions.h) for Python: the space of a game, and the codes of a board's
// legal moves, as lists or written into a caller's buffer (no numpy needed by the core).
#include <pybind11/stl.h>

#include <climits>

#include "bindings.h"
#include "core/notation.h"
#include "learn/actions.h"

namespace py = pybind11;

namespace polychess {
namespace {

// A Python value as a message shows it: its repr in ASCII, cut when it is long.
std::string shown(py::handle value) {
  const auto text = py::reinterpret_steal<py::object>(PyObject_ASCII(value.ptr()));
  if (!text) {  // its repr failed (an int of more digits than Python writes, say)
    PyErr_Clear();
    return std::string("a value of type ") + Py_TYPE(value.ptr())->tp_name;
  }
  const std::string whole = text.cast<std::string>();
  return whole.size() > 60 ? whole.substr(0, 60) + "..." : whole;
}

// A number given from Python as an action code: any whole number (an int, or one of numpy's
// integers, which have __index__; not a bool), as a 64-bit number. Those beyond 64 bits
// saturate, which keeps them out of range. Anything else is an IllegalMove naming the codes.
long long whole_number(const ActionSpace& space, py::handle value) {
  py::object number;
  if (!PyBool_Check(value.ptr())) number = py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()));
  if (!number) {
    PyErr_Clear();  // PyNumber_Index's TypeError: the value is no whole number
    throw IllegalMove(not_an_action(space, shown(value)));
  }
  int overflow = 0;
  const long long whole = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
  return overflow > 0 ? LLONG_MAX : overflow < 0 ? LLONG_MIN : whole;
}

// The action code a Python value stands for; an IllegalMove naming the codes if it is none.
int action_code(const ActionSpace& space, py::handle value) {
  const long long whole = whole_number(space, value);
  if (!is_action_code(space, whole)) throw IllegalMove(not_an_action(space, shown(value)));
  return int(whole);
}

struct PyActionSpace {
  const Variant* variant;
  const ActionSpace* space;

  void check_board(const PyBoard& b) const {
    if (&b.variant() != variant)
      throw std::invalid_argument("this action space is " + variant->name + "'s, not the board's (" + b.variant().name +
                                  ")");
  }
  // The board's legal moves, into `moves` (room for MAX_MOVES).
  int legal_moves(const PyBoard& b, Move* moves) const {
    check_board(b);
    return b.legal_moves(moves);
  }
  // The board's legal move with this code, MOVE_NONE if none has it (also for a number that is no code).
  Move find(const PyBoard& b, long long code) const {
    Move moves[MAX_MOVES];
    const int n = legal_moves(b, moves);
    return is_action_code(*space, code) ? decode_action(*space, b.meta().turn, int(code), moves, n) : MOVE_NONE;
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
          [](const PyActionSpace& s, py::handle value) {
            return move_text(*s.variant, action_move(*s.space, action_code(*s.space, value)));
          },
          py::arg("code"), "The action as a move of seat 0 (the first seat's view of the board).")
      .def(
          "encode",
          [](const PyActionSpace& s, const PyBoard& b, py::handle move) {
            s.check_board(b);
            return encode_action(*s.space, b.meta().turn, b.legal_move(move));
          },
          py::arg("board"), py::arg("move"), "The code of a legal move of the board.")
      .def(
          "decode",
          [](const PyActionSpace& s, const PyBoard& b, py::handle value) {
            const int code = action_code(*s.space, value);
            const Move m = s.find(b, code);
            if (m == MOVE_NONE) throw IllegalMove("action " + std::to_string(code) + " is not a legal move here");
            return move_object(*s.variant, m);
          },
          py::arg("board"), py::arg("code"), "The legal move of the board with this code.")
      .def(
          "is_legal",
          [](const PyActionSpace& s, const PyBoard& b, py::handle value) {
            return s.find(b, whole_number(*s.space, value)) != MOVE_NONE;
          },
          py::arg("board"), py::arg("code"),
          "Whether the code is a legal move of the board (any whole number may be asked; anything else raises "
          "IllegalMoveError).")
      .def(
          "legal_actions",
          [](const PyActionSpace& s, const PyBoard& b) {
            Move moves[MAX_MOVES];
            return action_codes(*s.space, b.meta().turn, moves, s.legal_moves(b, moves));
          },
          py::arg("board"), "The codes of the board's legal moves, in increasing order.")
      .def(
          "write_mask",
          [](const PyActionSpace& s, const PyBoard& b, const py::buffer& out) {
            Move moves[MAX_MOVES];
            const int n = s.legal_moves(b, moves);
            auto* mask =
                static_cast<int8_t*>(buffer_items(out, size_t(s.space->size), {"B", "b", "?"}, "one-byte", "the mask"));
            write_action_mask(*s.space, b.meta().turn, moves, n, mask);
          },
          py::arg("board"), py::arg("out"), "Sets out[code] to 1 for every legal move, 0 elsewhere.");
}

}  // namespace polychess
