// Board topology for Python: polychess._core.Layout, the cells of a board and every relation
// between them, by cell index (an IndexError for a wrong cell or colour).
#include <pybind11/stl.h>

#include "bindings.h"

namespace py = pybind11;

namespace polychess {
namespace {

// A Python method reading a layout's table by cell, or by colour, or by colour and cell (the
// entry itself, not a copy, which Python then converts).
template <class T>
auto by_cell(const std::vector<T> Layout::* table) {
  return [table](const Layout& lay, int cell) -> decltype(auto) {
    return (lay.*table)[checked_index(cell, lay.cell_count, "cell")];
  };
}
template <class T>
auto by_colour(const std::vector<T> Layout::* table) {
  return [table](const Layout& lay, int colour) -> decltype(auto) {
    return (lay.*table)[checked_index(colour, lay.colour_count, "colour")];
  };
}
// A cell of a [colour][cell] table of cells, None where the table has NO_CELL.
auto cell_by_colour_and_cell(const std::vector<std::vector<int>> Layout::* table) {
  return [table](const Layout& lay, int colour, int cell) {
    return optional_index(
        (lay.*table)[checked_index(colour, lay.colour_count, "colour")][checked_index(cell, lay.cell_count, "cell")],
        NO_CELL);
  };
}

}  // namespace

void bind_topology(py::module_& m) {
  py::class_<Layout>(m, "Layout", "The cells of a board and every relation between them (by cell index).")
      .def(py::init([](const NameText& variant, const NameText& mode, const NameText& setup) {
             return find_variant(variant, mode, setup).layout;
           }),
           py::arg("variant"), py::kw_only(), py::arg("mode") = "", py::arg("setup") = "")
      .def_readonly("cell_count", &Layout::cell_count)
      .def_readonly("colour_count", &Layout::colour_count)
      .def_readonly("names", &Layout::names)
      .def_readonly("rows", &Layout::rows)
      .def("index",
           [](const Layout& lay, const NameText& name) {
             const int cell = lay.cell_index(name);
             if (cell == NO_CELL) throw py::key_error("no cell named " + quoted(name));
             return cell;
           })
      .def("is_dark", by_cell(&Layout::dark))
      .def("rook_rays", by_cell(&Layout::rook_rays))
      .def("bishop_rays", by_cell(&Layout::bishop_rays))
      .def("king_targets", by_cell(&Layout::king_targets))
      .def("knight_targets", by_cell(&Layout::knight_targets))
      .def("pawn_push", cell_by_colour_and_cell(&Layout::pawn_push))
      .def("pawn_double_step", cell_by_colour_and_cell(&Layout::pawn_double_step))
      .def("pawn_captures",
           [](const Layout& lay, int colour, int cell) {
             return by_colour(&Layout::pawn_captures)(lay, colour)[checked_index(cell, lay.cell_count, "cell")];
           })
      .def("promotion_cells", by_colour(&Layout::promotion_cells))
      .def("turned",
           [](const Layout& lay, int colour, int cell) {
             return by_colour(&Layout::turned)(lay, colour)[checked_index(cell, lay.cell_count, "cell")];
           })
      .def("castling",
           [](const Layout& lay, int colour, int side) {
             const auto& c = by_colour(&Layout::castling)(lay, colour)[checked_index(side, 2, "side")].cells;
             return py::make_tuple(c.king_from, c.king_to, c.rook_from, c.rook_to);
           })
      .def("lines", [](const Layout& lay) {
        py::list out;
        for (const Line& line : lay.lines) out.append(py::make_tuple(line.diagonal, line.cells));
        return out;
      });
}

}  // namespace polychess
