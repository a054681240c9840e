// A game's rules as the core takes them (core/rules.h): polychess._core.RuleSet and its enums.
// Bound before the boards, which take a RuleSet.
#include <pybind11/stl.h>

#include "bindings.h"
#include "core/rules.h"

namespace py = pybind11;

namespace polychess {

void bind_rules(py::module_& m) {
  py::enum_<Army>(m, "Army", "Where the pieces of a player who goes out end up.")
      .value("PASSES", Army::PASSES)
      .value("DEAD", Army::DEAD);
  py::enum_<MateJudged>(m, "MateJudged", "When a checkmate is established.")
      .value("AT_TURN", MateJudged::AT_TURN)
      .value("AFTER_MOVE", MateJudged::AFTER_MOVE);
  py::enum_<StalemateEffect>(m, "StalemateEffect", "What a stalemate does to the stalemated player.")
      .value("FREEZE", StalemateEffect::FREEZE)
      .value("OUT", StalemateEffect::OUT)
      .value("DRAW", StalemateEffect::DRAW);
  py::enum_<Ranking>(m, "Ranking", "How players are ranked.")
      .value("ORDER_OUT", Ranking::ORDER_OUT)
      .value("POINTS", Ranking::POINTS);
  py::enum_<Insufficient>(m, "Insufficient", "Which material draws.")
      .value("NEVER", Insufficient::NEVER)
      .value("BARE_KINGS", Insufficient::BARE_KINGS)
      .value("FIDE", Insufficient::FIDE);

  py::class_<PointsTable>(m, "PointsTable", "Points for captures, mates, stalemates, checks and draws.")
      .def(py::init<>())
      .def_readwrite("capture", &PointsTable::capture, "By kind index (0 unused, pawn 1 ... one-point queen 7).")
      .def_readwrite("mate", &PointsTable::mate)
      .def_readwrite("stalemate", &PointsTable::stalemate)
      .def_readwrite("draw", &PointsTable::draw)
      .def_readwrite("checks", &PointsTable::checks, "[two kings, three kings] checked at once.")
      .def_readwrite("checks_by_queens", &PointsTable::checks_by_queens)
      .def_readwrite("lead", &PointsTable::lead);

  py::class_<RuleSet>(m, "RuleSet", "A game's rules as the core executes them (built by polychess.rules).")
      .def(py::init<>())
      .def_readwrite("army", &RuleSet::army)
      .def_readwrite("mate_judged", &RuleSet::mate_judged)
      .def_readwrite("stalemate", &RuleSet::stalemate)
      .def_readwrite("first_out_decides", &RuleSet::first_out_decides)
      .def_readwrite("out_after_freeze_ends", &RuleSet::out_after_freeze_ends)
      .def_readwrite("ranking", &RuleSet::ranking)
      .def_readwrite("points", &RuleSet::points)
      .def_readwrite("move_limit", &RuleSet::move_limit)
      .def_readwrite("repetitions", &RuleSet::repetitions)
      .def_readwrite("quiet_moves_per_player", &RuleSet::quiet_moves_per_player)
      .def_readwrite("insufficient", &RuleSet::insufficient)
      .def_readwrite("neutrality", &RuleSet::neutrality);
}

}  // namespace polychess
