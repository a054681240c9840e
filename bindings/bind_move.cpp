#include <pybind11/stl.h>

#include <array>
#include <functional>

#include "base/errors.h"
#include "bindings.h"
#include "core/notation.h"

namespace py = pybind11;

namespace polychess {
namespace {

std::string text_of(const MoveValue& m) {
  Move code = m.promotion ? make_promotion(m.from, m.to, m.promotion) : make_move(m.from, m.to);
  return move_text(*m.variant, code);
}

// One variant's Move objects, a slot per (from, to, promotion), made when first asked for. They
// live until the interpreter exits and are deliberately never freed, so no destructor runs
// after Python has shut down. The few variants are searched in a short array (a legal-move list
// asks once for all its moves).
std::vector<PyObject*>& cache_of(const Variant& v) {
  struct Cache {
    const Variant* variant;
    std::vector<PyObject*> moves;
  };
  static auto* caches = new std::array<Cache, 16>();
  for (Cache& c : *caches) {
    if (c.variant == &v) return c.moves;
    if (c.variant == nullptr) {
      c.variant = &v;
      c.moves.assign(size_t(v.layout.cell_count) * v.layout.cell_count * 8, nullptr);
      return c.moves;
    }
  }
  throw std::logic_error("more variants than move caches");
}

// The Move object of `move`, borrowed from the cache.
PyObject* cached_move(std::vector<PyObject*>& cache, const Variant& v, uint32_t move) {
  const MoveValue value{&v, move_from(move), move_to(move), move_promotion(move)};
  PyObject*& slot = cache[(size_t(value.from) * v.layout.cell_count + value.to) * 8 + value.promotion];
  if (!slot) slot = py::cast(value).release().ptr();
  return slot;
}

}  // namespace

py::object move_object(const Variant& v, uint32_t move) {
  return py::reinterpret_borrow<py::object>(cached_move(cache_of(v), v, move));
}

Move named_move(const Variant& v, const Move* moves, int n, int turn, py::handle move) {
  if (PyUnicode_Check(move.ptr())) {
    const std::string text = move.cast<MoveTextArg>();
    return find_move(v, moves, n, parse_move_text(v, text), text, turn);
  }
  py::detail::make_caster<MoveValue> caster;  // one lookup of the type: this is every push's path
  if (!caster.load(move, false))
    throw py::type_error(std::string("expected a Move or move text, got ") + Py_TYPE(move.ptr())->tp_name);
  const MoveValue& m = py::detail::cast_op<const MoveValue&>(caster);
  return find_move_of(v, moves, n, turn, *m.variant, {m.from, m.to, m.promotion});
}

py::list move_list(const Variant& v, const Move* moves, int n) { return py::list(move_tuple(v, moves, n)); }

py::tuple move_tuple(const Variant& v, const Move* moves, int n) {
  auto& cache = cache_of(v);
  py::tuple out(n);
  for (int i = 0; i < n; ++i) {
    PyObject* move = cached_move(cache, v, moves[i]);
    Py_INCREF(move);
    PyTuple_SET_ITEM(out.ptr(), i, move);
  }
  return out;
}

void bind_move(py::module_& m) {
  py::class_<MoveValue>(m, "Move", "A move: from-cell, to-cell and an optional promotion (immutable).")
      .def_static(
          "from_text",
          [](const MoveTextArg& text, const NameText& variant, const NameText& mode) {
            const Variant& v = find_variant(variant, mode);
            const MoveText t = parse_move_text(v, text);
            return MoveValue{&v, t.from, t.to, t.promotion};
          },
          py::arg("text"), py::arg("variant"), py::arg("mode") = "",
          "Reads move text such as 'E2E4' or 'e7e8q' (docs/rules.md §4); raises InvalidMoveError.")
      .def_property_readonly("variant", [](const MoveValue& m) { return m.variant->name; })
      .def_property_readonly("from_cell", [](const MoveValue& m) { return m.variant->layout.names[m.from]; })
      .def_property_readonly("to_cell", [](const MoveValue& m) { return m.variant->layout.names[m.to]; })
      .def_property_readonly("from_index", [](const MoveValue& m) { return m.from; })
      .def_property_readonly("to_index", [](const MoveValue& m) { return m.to; })
      .def_property_readonly(
          "promotion",
          [](const MoveValue& m) -> py::object {
            if (!m.promotion) return py::none();
            return py::str(std::string(1, written_promotion(*m.variant, m.promotion)));
          },
          "The promotion letter as the move's text writes it (str(move) ends with it), or None.")
      .def("__str__", &text_of)
      .def("__repr__",
           [](const MoveValue& m) {
             const std::string mode =
                 m.variant->mode.empty() || m.variant->mode == "teams" ? "" : ", mode='" + m.variant->mode + "'";
             return "Move.from_text('" + text_of(m) + "', '" + m.variant->name + "'" + mode + ")";
           })
      .def(
          "__eq__",  // an operator: against anything but a Move it answers NotImplemented, so == is False
          [](const MoveValue& a, const MoveValue& b) {
            return a.variant == b.variant && a.from == b.from && a.to == b.to && a.promotion == b.promotion;
          },
          py::is_operator())
      .def("__hash__",
           [](const MoveValue& m) {
             return std::hash<std::string>()(m.variant->name) ^ size_t((m.from * 256 + m.to) * 8 + m.promotion);
           })
      .def(py::pickle(
          [](const MoveValue& m) {
            return py::make_tuple(text_of(m), m.variant->name, m.variant->mode, m.variant->setup);
          },
          [](py::tuple t) {
            const Variant& v = find_variant(t[1].cast<NameText>(), t[2].cast<NameText>(), t[3].cast<NameText>());
            const MoveText mt = parse_move_text(v, t[0].cast<MoveTextArg>());
            return MoveValue{&v, mt.from, mt.to, mt.promotion};
          }));
}

}  // namespace polychess
