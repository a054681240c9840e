// A game's rules as the core takes them (core/rules.h): polychess._core.Rules and its enums.
// Bound before the boards, which take a Rules.
#include <pybind11/stl.h>

#include "bindings.h"
#include "core/rules.h"

namespace py = pybind11;

namespace polychess {
namespace {

// A core enum as a Python enum whose members are named `members`, in the enum's order.
template <class E>
void bind_enum(py::module_& m, const char* name, const char* doc, std::initializer_list<const char*> members) {
  py::enum_<E> e(m, name, doc);
  int value = 0;
  for (const char* member : members) e.value(member, E(value++));
}

}  // namespace

void bind_rules(py::module_& m) {
  bind_enum<Army>(m, "Army", "Where the pieces of a player who goes out end up.", {"PASSES", "DEAD"});
  bind_enum<MateJudged>(m, "MateJudged", "When a checkmate is established.", {"AT_TURN", "AFTER_MOVE"});
  bind_enum<StalemateEffect>(m, "StalemateEffect", "What a stalemate does to the stalemated player.",
                             {"FREEZE", "OUT", "DRAW"});
  bind_enum<Ranking>(m, "Ranking", "How players are ranked.", {"ORDER_OUT", "POINTS"});
  bind_enum<Insufficient>(m, "Insufficient", "Which material draws.", {"NEVER", "BARE_KINGS", "FIDE"});

  py::class_<PointsTable>(m, "PointsTable", "Points for captures, mates, stalemates, checks and draws.")
      .def(py::init<>())
      .def_readwrite("capture", &PointsTable::capture, "By kind index (0 unused, pawn 1 ... one-point queen 7).")
      .def_readwrite("mate", &PointsTable::mate)
      .def_readwrite("stalemate", &PointsTable::stalemate)
      .def_readwrite("draw", &PointsTable::draw)
      .def_readwrite("checks", &PointsTable::checks, "[two kings, three kings] checked at once.")
      .def_readwrite("checks_by_queens", &PointsTable::checks_by_queens)
      .def_readwrite("lead", &PointsTable::lead);

  py::class_<Rules>(m, "Rules", "A game's rules as the core executes them (built by polychess.rules).")
      .def(py::init<>())
      .def_readwrite("army", &Rules::army)
      .def_readwrite("mate_judged", &Rules::mate_judged)
      .def_readwrite("stalemate", &Rules::stalemate)
      .def_readwrite("first_out_decides", &Rules::first_out_decides)
      .def_readwrite("out_after_freeze_ends", &Rules::out_after_freeze_ends)
      .def_readwrite("ranking", &Rules::ranking)
      .def_readwrite("points", &Rules::points)
      .def_readwrite("move_limit", &Rules::move_limit)
      .def_readwrite("repetitions", &Rules::repetitions)
      .def_readwrite("quiet_moves_per_player", &Rules::quiet_moves_per_player)
      .def_readwrite("insufficient", &Rules::insufficient)
      .def_readwrite("neutrality", &Rules::neutrality);
}

}  // namespace polychess
