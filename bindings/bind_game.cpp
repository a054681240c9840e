// Rules, game states and playouts: polychess._core.RuleSet, GameState and playouts().
#include <pybind11/stl.h>

#include "bindings.h"
#include "game.h"
#include "observation.h"

namespace py = pybind11;

namespace polychess {
namespace {

// The words of polychess.Reason and polychess.Termination.
const char* reason_word(Reason r) {
  constexpr const char* words[] = {"checkmate", "king capture", "stalemate", "resignation", "time forfeit"};
  return words[int(r)];
}

py::object termination_word(Termination t) {
  constexpr const char* words[] = {"",
                                   "checkmate",
                                   "king capture",
                                   "stalemate",
                                   "points lead",
                                   "move limit",
                                   "agreement",
                                   "threefold repetition",
                                   "fifty moves",
                                   "insufficient material",
                                   "resignation",
                                   "time forfeit",
                                   "decided"};
  if (t == Termination::NONE) return py::none();
  return py::str(words[int(t)]);
}

PyGame start(py::object board_object, const RuleSet& rules, const std::vector<int>& points, bool judge_start) {
  PyBoard& b = board_object.cast<PyBoard&>();
  if (!points.empty() && points.size() != size_t(b.variant().players))
    throw std::invalid_argument("points: one value per player (" + std::to_string(b.variant().players) + ")");
  std::array<int, MAX_PLAYERS> start_points{};
  std::copy(points.begin(), points.end(), start_points.begin());
  return PyGame{board_object, b.board->start_game(rules, start_points, judge_start)};
}

// Per player his place, or None (no place yet, or no seat: the core leaves those 0).
py::list places_list(int players, const std::array<uint8_t, MAX_PLAYERS>& places) {
  py::list out;
  for (int p = 0; p < players; ++p) out.append(places[p] ? py::object(py::int_(places[p])) : py::object(py::none()));
  return out;
}

}  // namespace

void bind_game(py::module_& m) {
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
      .def_readwrite("insufficient", &RuleSet::insufficient);

  py::class_<PyGame>(m, "GameState",
                     "A game played by the rules on a board's position (low-level; see polychess.Game).")
      .def(py::init(&start), py::arg("board"), py::arg("rules"), py::arg("points") = std::vector<int>{},
           py::arg("judge_start") = true,
           "A game from the board's position; `points`: each player's points scored before it; "
           "`judge_start` false: the position's player to move moves from it as it stands (a bare board searched).")
      .def_property_readonly("board", [](const PyGame& g) { return g.board_object; })
      .def_property_readonly("current_player", [](const PyGame& g) { return g.game->current_player(); })
      .def("is_terminal", [](const PyGame& g) { return g.game->is_terminal(); })
      .def("legal_moves",
           [](const PyGame& g) {
             Move moves[MAX_MOVES];
             const int n = g.game->legal_moves(moves);
             py::list out(n);
             for (int i = 0; i < n; ++i)
               PyList_SET_ITEM(out.ptr(), i, move_object(g.variant(), moves[i]).release().ptr());
             return out;
           })
      .def(
          "apply",
          [](PyGame& g, const MoveValue& m) {
            g.require_running();
            g.game->apply(g.board().resolve(m));
          },
          "Plays a legal move and everything it causes; IllegalMoveError leaves the game unchanged.")
      .def("apply_text",
           [](PyGame& g, const MoveTextArg& text) {
             g.require_running();
             const Move mv = g.board().board->parse_move(text);
             g.game->apply(mv);
             return move_object(g.variant(), mv);
           })
      .def("resign", [](PyGame& g, int p) { g.game->leave(g.player_index(p), Reason::RESIGNATION); })
      .def("time_forfeit", [](PyGame& g, int p) { g.game->leave(g.player_index(p), Reason::TIME_FORFEIT); })
      .def("agree_draw", [](PyGame& g) { g.game->agree_draw(); })
      .def(
          "undo",
          [](PyGame& g) {
            if (!g.game->undo()) throw py::index_error("nothing to take back");
          },
          "Takes back the last step (a move or an event) with everything it entailed.")
      .def("step_count", [](const PyGame& g) { return g.game->step_count(); })
      .def_property_readonly("ply", [](const PyGame& g) { return g.game->facts().ply; })
      .def_property_readonly("points",
                             [](const PyGame& g) {
                               return std::vector<int>(g.game->facts().points.begin(),
                                                       g.game->facts().points.begin() + g.variant().players);
                             })
      .def_property_readonly(
          "places", [](const PyGame& g) { return places_list(g.variant().players, g.game->facts().places); },
          "Per player: his place (fixed for players out; every seat's once the game is over) "
          "or None.")
      .def_property_readonly("termination",
                             [](const PyGame& g) { return termination_word(g.game->facts().termination); })
      .def_property_readonly("seats",
                             [](const PyGame& g) {
                               std::vector<int> seats;
                               for (int p = 0; p < g.variant().players; ++p)
                                 if (g.game->is_seat(p)) seats.push_back(p);
                               return seats;
                             })
      .def_property_readonly("elimination_count", [](const PyGame& g) { return g.game->eliminations().size(); })
      .def(
          "eliminations",
          [](const PyGame& g, size_t first) {
            py::list out;
            const auto& all = g.game->eliminations();
            for (size_t i = first; i < all.size(); ++i) {
              const EliminationRecord& e = all[i];
              out.append(py::make_tuple(int(e.player), reason_word(e.reason),
                                        e.by < 0 ? py::object(py::none()) : py::int_(int(e.by)), e.ply));
            }
            return out;
          },
          py::arg("first") = 0, "(player, reason, by or None, ply) of every elimination from `first` on.")
      .def_property_readonly(
          "observation_shape",
          [](const PyGame& g) {
            const ObservationShape s = observation_shape(g.variant(), g.game->rules().ranking == Ranking::POINTS);
            return std::vector<int>{s.planes, s.rows, s.cols};
          },
          "The shape of the observations (planes, rows, columns; docs/rl.md).")
      .def(
          "write_observation",
          [](const PyGame& g, py::buffer out, int viewer) {
            const ObservationShape s = observation_shape(g.variant(), g.game->rules().ranking == Ranking::POINTS);
            if (viewer < 0) viewer = g.game->current_player();
            g.player_index(viewer);
            if (out.request().format == "B")
              g.game->observe(viewer, static_cast<uint8_t*>(
                                          buffer_items(out, size_t(s.size()), {"B"}, "uint8", "the observation")));
            else
              g.game->observe(viewer, static_cast<float*>(buffer_items(out, size_t(s.size()), {"f"}, "float32 or uint8",
                                                                       "the observation")));
          },
          py::arg("out"), py::arg("viewer") = -1,
          "Writes the observation of `viewer` (default: the player to move) into `out`, a float32 or uint8 array.")
      .def_property_readonly(
          "settled_players", [](const PyGame& g) { return g.game->settled_players(); },
          "The players whose place is fixed, a bit each (out with a place, or the game over).")
      .def(
          "return_of", [](const PyGame& g, int player) { return g.game->return_of(g.player_index(player)); },
          py::arg("player"), "A settled player's return (+1 sole first down to -1 sole last).")
      .def("returns",
           [](const PyGame& g) {
             const auto r = g.game->returns();
             return std::vector<double>(r.begin(), r.begin() + g.variant().players);
           })
      .def("clone",
           [](const PyGame& g) {
             py::object board_copy = py::cast(PyBoard{g.board().board->clone()});
             PyBoard& b = board_copy.cast<PyBoard&>();
             return PyGame{board_copy, b.board->copy_game(*g.game)};
           })
      .def("serialize", [](const PyGame& g) { return g.game->serialize(); })
      .def_static(
          "deserialize",
          [](const NameText& variant, const PositionText& text, const RuleSet& rules, bool neutrality,
             const NameText& mode, const NameText& setup) {
            const std::string& all = text.value;
            const size_t line = all.find('\n');
            if (line == std::string::npos)
              throw InvalidPosition("a serialized game is its start position, a new line, then its steps");
            const Variant& v = find_variant(variant, mode, setup);
            GameRules board_rules;
            board_rules.neutrality = neutrality;
            py::object board_object = py::cast(PyBoard{Board::create(v, all.substr(0, line), board_rules)});
            PyGame g = start(board_object, rules, {}, true);
            g.game->replay(all.substr(line + 1));
            return g;
          },
          py::arg("variant"), py::arg("text"), py::arg("rules"), py::kw_only(), py::arg("neutrality") = false,
          py::arg("mode") = "", py::arg("setup") = "");

  m.def(
      "playouts",
      [](const PyBoard& b, const RuleSet& rules, int games, uint64_t seed, const NameText& policy, uint32_t max_plies,
         bool record_moves, int threads) {
        if (games < 0) throw std::invalid_argument("games must be >= 0, got " + std::to_string(games));
        if (threads < 1) throw std::invalid_argument("threads must be >= 1, got " + std::to_string(threads));
        PlayoutOptions options;
        options.games = games;
        options.seed = seed;
        if (policy.value == "random") options.policy = Policy::RANDOM;
        else if (policy.value == "greedy") options.policy = Policy::GREEDY;
        else throw std::invalid_argument("unknown policy " + quoted(policy.value) + " (random or greedy)");
        options.max_plies = max_plies;
        options.record_moves = record_moves;
        options.threads = threads;
        std::vector<PlayoutResult> results;
        {
          py::gil_scoped_release release;
          results = b.board->playouts(rules, options);
        }
        const Variant& v = b.variant();
        const int n = v.players;
        py::list out(results.size());
        for (size_t i = 0; i < results.size(); ++i) {
          const PlayoutResult& r = results[i];
          py::list points, returns;
          for (int p = 0; p < n; ++p) {
            points.append(r.points[p]);
            returns.append(r.returns[p]);
          }
          py::object moves = py::none();
          if (record_moves) {
            py::list texts;
            for (Move mv : r.moves) texts.append(move_text(v, mv));
            moves = texts;
          }
          PyList_SET_ITEM(
              out.ptr(), i,
              py::make_tuple(termination_word(r.termination), r.plies, places_list(n, r.places), points, returns, moves)
                  .release()
                  .ptr());
        }
        return out;
      },
      py::arg("board"), py::arg("rules"), py::arg("games"), py::arg("seed"), py::arg("policy"), py::arg("max_plies"),
      py::arg("record_moves"), py::arg("threads"),
      "Plays whole games from the board's position without the GIL: (termination or None, plies, places, points, "
      "returns, moves or None) per game.");
}

}  // namespace polychess
