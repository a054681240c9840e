// Shared declarations of the binding units. A board holds its position as an AnyPosition and
// a game its state as an AnyGameState (core/any_width.h): every call visits the width's
// templates of the core directly.
#pragma once

#include <pybind11/pybind11.h>

#include <array>
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "base/errors.h"
#include "core/any_width.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "games/rules.h"
#include "games/variant.h"

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
void bind_game(pybind11::module_& m);
void bind_actions(pybind11::module_& m);
void bind_batch(pybind11::module_& m);
void bind_network(pybind11::module_& m);
void bind_training(pybind11::module_& m);

// The one shared Move object for (variant, from, to, promotion): legal-move lists hand out
// these cached objects instead of building new ones, which keeps iteration cheap.
pybind11::object move_object(const Variant& variant, uint32_t move);
// Moves as a Python list, or tuple, of those objects.
pybind11::list move_list(const Variant& variant, const Move* moves, int n);
pybind11::tuple move_tuple(const Variant& variant, const Move* moves, int n);

// The move among `moves` (the legal moves of a position of `variant`, `turn` to move) that
// `move` names: a Move (one of another mode or setup of the same game is read by its text) or
// move text. InvalidMove or IllegalMove if it names none, TypeError for anything else.
Move named_move(const Variant& variant, const Move* moves, int n, int turn, pybind11::handle move);

// A core index that marks "none" with `none` (NO_CELL, NOBODY, -1): None in Python.
inline std::optional<int> optional_index(int index, int none) {
  if (index == none) return std::nullopt;
  return index;
}

// A core per-player array's entries for the game's `players` players.
template <class T, size_t N>
std::vector<T> per_player(const std::array<T, N>& values, int players) {
  return std::vector<T>(values.begin(), values.begin() + players);
}

// A Python method of a board (PyBoard) or a game (PyGame) that calls `f` on its position or game
// state, of whichever width.
template <class Self, class F>
auto visiting(F f) {
  return [f](const Self& self) { return self.visit(f); };
}

// The Python-facing board: a position of any width, on the heap (a game keeps a pointer to it).
struct PyBoard {
  std::unique_ptr<AnyPosition> position;

  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), std::as_const(*position));
  }
  template <class F>
  decltype(auto) visit(F&& f) {
    return std::visit(std::forward<F>(f), *position);
  }

  PyBoard copy() const { return PyBoard{std::make_unique<AnyPosition>(*position)}; }
  const Variant& variant() const {
    return visit([](const auto& pos) -> const Variant& { return pos.variant(); });
  }
  const Meta& meta() const {
    return visit([](const auto& pos) -> const Meta& { return pos.meta(); });
  }
  const std::vector<Undo>& history() const {
    return visit([](const auto& pos) -> const std::vector<Undo>& { return pos.history(); });
  }
  int legal_moves(Move* out) const {  // room for MAX_MOVES
    return visit([&](const auto& pos) { return polychess::legal_moves(pos, out); });
  }

  // The legal move that a Move or move text names (named_move).
  Move legal_move(pybind11::handle move) const {
    Move moves[MAX_MOVES];
    const int n = legal_moves(moves);
    return named_move(variant(), moves, n, meta().turn, move);
  }
};

// A game and the board (a polychess._core.Board object) whose position it plays on.
struct PyGame {
  PyGame(pybind11::object board, AnyGameState game_state)
      : board_object(std::move(board)), state(std::move(game_state)) {}

  pybind11::object board_object;
  AnyGameState state;
  // Counts the steps taken and taken back: what the legal moves handed to Python were read at.
  uint64_t changes = 0;
  pybind11::object legal;  // the legal moves, a tuple of Move objects, read at `legal_at`
  uint64_t legal_at = ~uint64_t(0);
  // The steps' tokens as Python last read them (GameState._history), only ever appended to: a
  // takeback lowers `tokens_valid`, and the next read starts a new list from the part still
  // true, so a list handed out stays a true record of its moment.
  pybind11::list tokens;
  size_t tokens_valid = 0;

  PyBoard& board() const { return board_object.cast<PyBoard&>(); }
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), state);
  }
  template <class F>
  decltype(auto) visit(F&& f) {
    return std::visit(std::forward<F>(f), state);
  }
  const Variant& variant() const {
    return visit([](const auto& g) -> const Variant& { return g.position().variant(); });
  }
  int player_index(int player) const { return checked_index(player, variant().players, "player"); }
};

// The memory of a buffer (a numpy array, say) that the core fills (`writable`) or reads:
// C-contiguous, of `count` items whose buffer format is one of `formats` (struct module codes,
// such as "f" for float32). Anything else is a std::invalid_argument naming `what` and what it
// must be.
inline void* buffer_items(const pybind11::buffer& buffer, size_t count, std::initializer_list<const char*> formats,
                          const char* item_name, const std::string& what, bool writable = true) {
  pybind11::buffer_info info;
  try {
    info = buffer.request(writable);
  } catch (const pybind11::error_already_set&) {
    throw std::invalid_argument(what + (writable ? " must be a writable array" : " must be an array"));
  }
  bool contiguous = true;  // in C order: each axis steps over the whole of the axes after it
  pybind11::ssize_t step = info.itemsize;
  for (pybind11::ssize_t axis = info.ndim - 1; axis >= 0; --axis) {
    contiguous = contiguous && (info.shape[axis] == 1 || info.strides[axis] == step);
    step *= info.shape[axis];
  }
  bool format = false;
  for (const char* f : formats) format = format || info.format == f;
  if (!format || size_t(info.size) != count || !contiguous)
    throw std::invalid_argument(what + (writable ? " must be a writable, contiguous " : " must be a contiguous ") +
                                item_name + " array of " + std::to_string(count) + " items");
  return info.ptr;
}

// An observation array of `count` items for the core to write: float32, or uint8 (which holds
// the counting planes' counts).
struct ObservationBuffer {
  float* floats = nullptr;
  uint8_t* bytes = nullptr;

  ObservationBuffer(const pybind11::buffer& buffer, size_t count, const std::string& what) {
    if (buffer.request().format == "B")
      bytes = static_cast<uint8_t*>(buffer_items(buffer, count, {"B"}, "uint8", what));
    else floats = static_cast<float*>(buffer_items(buffer, count, {"f"}, "float32 or uint8", what));
  }
};

// A text argument from Python, converted by the caster below: a str that is valid Unicode.
// pybind11's own std::string conversion answers a lone surrogate ("\ud800") with a TypeError
// that echoes the whole input; this one raises the project's error for that kind of text
// (`Error`), says where the bad character is and never echoes more than a few words.
template <class Error>
struct Text {
  std::string value;
  operator const std::string&() const { return value; }
};
template <class Error>
constexpr const char* text_name() {
  if constexpr (std::is_same_v<Error, InvalidPosition>) return "the position string";
  else if constexpr (std::is_same_v<Error, InvalidMove>) return "the move text";
  else return "the text";
}
using PositionText = Text<InvalidPosition>;
using MoveTextArg = Text<InvalidMove>;
using NameText = Text<std::invalid_argument>;  // names of variants, modes, setups, cells, options

// Set by another thread to end a long call early (a count, a self-play batch): the call runs
// without the GIL, so it reads an atomic, not a Python object.
struct StopFlag {
  std::atomic<bool> raised{false};
};

inline const std::atomic<bool>* raised_of(const StopFlag* stop) { return stop ? &stop->raised : nullptr; }

}  // namespace polychess

namespace pybind11::detail {

// A game's rules cross as their text (games/rules.h: parse_rules, rules_text).
template <>
struct type_caster<polychess::Rules> {
  PYBIND11_TYPE_CASTER(polychess::Rules, const_name("str"));

  bool load(handle src, bool) {
    if (!PyUnicode_Check(src.ptr())) return false;
    value = polychess::parse_rules(src.cast<std::string>());
    return true;
  }
  static handle cast(const polychess::Rules& rules, return_value_policy, handle) {
    return str(polychess::rules_text(rules)).release();
  }
};

template <class Error>
struct type_caster<polychess::Text<Error>> {
  PYBIND11_TYPE_CASTER(polychess::Text<Error>, const_name("str"));

  bool load(handle src, bool) {
    if (!PyUnicode_Check(src.ptr())) return false;
    Py_ssize_t size = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(src.ptr(), &size);
    if (!utf8) {  // a lone surrogate, whose index the UnicodeEncodeError holds
      const error_already_set error;
      throw Error(std::string(polychess::text_name<Error>()) +
                  " holds a lone surrogate (not a Unicode character) at index " +
                  str(error.value().attr("start")).cast<std::string>());
    }
    value.value.assign(utf8, size_t(size));
    return true;
  }
};

}  // namespace pybind11::detail
