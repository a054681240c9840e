#include <pybind11/stl.h>

#include "bindings.h"

namespace py = pybind11;

namespace polychess {
namespace {

const Layout& layout_of(const std::string& variant, const std::string& mode, const std::string& setup) {
  return find_variant(variant, mode, setup).layout;
}

void check_cell(const Layout& lay, int cell) {
  if (cell < 0 || cell >= lay.cell_count) throw py::index_error("no cell " + std::to_string(cell));
}
void check_colour(const Layout& lay, int colour) {
  if (colour < 0 || colour >= lay.colour_count) throw py::index_error("no colour " + std::to_string(colour));
}

}  // namespace

void bind_topology(py::module_& m) {
  py::class_<Layout>(m, "Layout", "The cells of a board and every relation between them (by cell index).")
      .def(py::init([](const NameText& variant, const NameText& mode, const NameText& setup) {
             return layout_of(variant, mode, setup);
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
      .def("is_dark",
           [](const Layout& lay, int cell) {
             check_cell(lay, cell);
             return bool(lay.dark[cell]);
           })
      .def("rook_rays",
           [](const Layout& lay, int cell) {
             check_cell(lay, cell);
             return lay.rook_rays[cell];
           })
      .def("bishop_rays",
           [](const Layout& lay, int cell) {
             check_cell(lay, cell);
             return lay.bishop_rays[cell];
           })
      .def("king_targets",
           [](const Layout& lay, int cell) {
             check_cell(lay, cell);
             return lay.king_targets[cell];
           })
      .def("knight_targets",
           [](const Layout& lay, int cell) {
             check_cell(lay, cell);
             return lay.knight_targets[cell];
           })
      .def("pawn_push",
           [](const Layout& lay, int colour, int cell) -> std::optional<int> {
             check_colour(lay, colour);
             check_cell(lay, cell);
             const int c = lay.pawn_push[colour][cell];
             if (c == NO_CELL) return std::nullopt;
             return c;
           })
      .def("pawn_double_step",
           [](const Layout& lay, int colour, int cell) -> std::optional<int> {
             check_colour(lay, colour);
             check_cell(lay, cell);
             const int c = lay.pawn_double_step[colour][cell];
             if (c == NO_CELL) return std::nullopt;
             return c;
           })
      .def("pawn_captures",
           [](const Layout& lay, int colour, int cell) {
             check_colour(lay, colour);
             check_cell(lay, cell);
             return lay.pawn_captures[colour][cell];
           })
      .def("promotion_cells",
           [](const Layout& lay, int colour) {
             check_colour(lay, colour);
             return lay.promotion_cells[colour];
           })
      .def("castling",
           [](const Layout& lay, int colour, int side) {
             check_colour(lay, colour);
             if (side != 0 && side != 1) throw py::index_error("side is 0 (short) or 1 (long)");
             const auto& c = lay.castling[colour][side].cells;
             return py::make_tuple(c.king_from, c.king_to, c.rook_from, c.rook_to);
           })
      .def("lines", [](const Layout& lay) {
        py::list out;
        for (const Line& line : lay.lines) out.append(py::make_tuple(line.diagonal, line.cells));
        return out;
      });
}

}  // namespace polychess
