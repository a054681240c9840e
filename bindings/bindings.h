// Shared declarations of the binding units.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "board.h"
#include "errors.h"
#include "variant.h"

namespace polychess {

// The Python-side value of a move: the variant and (from, to, promotion), which identify a
// move among the legal moves of any position of that variant.
struct MoveValue {
  const Variant* variant;
  int from, to;
  Kind promotion;
};

void bind_move(pybind11::module_& m);
void bind_board(pybind11::module_& m);
void bind_topology(pybind11::module_& m);
void bind_search(pybind11::module_& m);

// The one shared Move object for (variant, from, to, promotion): legal-move lists hand out
// these cached objects instead of building new ones, which keeps iteration cheap.
pybind11::object move_object(const Variant& variant, uint32_t move);
MoveValue move_value(const Variant& variant, uint32_t move);

// The Python-facing board: the core board plus a stack of Python move objects.
struct PyBoard {
  std::unique_ptr<Board> board;

  const Variant& variant() const { return board->variant(); }

  // The legal move a Move value stands for. A move of another mode or setup of the same game
  // is read by its text (the promotion letter names the piece in this mode).
  Move resolve(const MoveValue& m) const {
    const std::string text = move_text(*m.variant, m.promotion ? make_promotion(m.from, m.to, m.promotion)
                                                               : make_move(m.from, m.to));
    if (m.variant->name != variant().name)
      throw IllegalMove("move " + text + " is a " + m.variant->name + " move, not a " + variant().name + " move");
    if (m.variant != &variant()) return board->parse_move(text);
    return board->find_legal(MoveText{m.from, m.to, m.promotion}, text);
  }

  pybind11::list legal_moves() const {
    Move moves[MAX_MOVES];
    const int n = board->legal_moves(moves);
    pybind11::list out(n);
    for (int i = 0; i < n; ++i) PyList_SET_ITEM(out.ptr(), i, move_object(variant(), moves[i]).release().ptr());
    return out;
  }

  bool has_move() const {
    for (const Undo& u : board->history())
      if (u.move != MOVE_NONE) return true;
    return false;
  }

  // Takes back the events after the last move, then the move itself.
  pybind11::object pop() {
    if (!has_move()) throw pybind11::index_error("pop from a board with no moves");
    while (board->history().back().move == MOVE_NONE) board->unmake();
    const Move last = board->history().back().move;
    board->unmake();
    return move_object(variant(), last);
  }

  pybind11::list move_stack() const {
    pybind11::list out;
    for (const Undo& u : board->history())
      if (u.move != MOVE_NONE) out.append(move_object(variant(), u.move));
    return out;
  }
};


}  // namespace polychess
