// Game states and playouts for Python: polychess._core.GameState and playouts(). A game plays
// on a _core.Board's position, which it keeps alive; every call visits the state's width.
#include <pybind11/stl.h>

#include <algorithm>

#include "bindings.h"
#include "learn/observation.h"
#include "learn/playouts.h"

namespace py = pybind11;

namespace polychess {
namespace {

py::object termination_or_none(Termination t) {
  if (t == Termination::NONE) return py::none();
  return py::str(termination_word(t));
}

PyGame start(py::object board_object, const std::vector<int>& points, bool judge_start) {
  PyBoard& b = board_object.cast<PyBoard&>();
  if (!points.empty() && points.size() != size_t(b.variant().players))
    throw std::invalid_argument("points: one value per player (" + std::to_string(b.variant().players) + ")");
  std::array<int, MAX_PLAYERS> start_points{};
  std::copy(points.begin(), points.end(), start_points.begin());
  return PyGame{board_object, make_game_state(*b.position, start_points, judge_start)};
}

// Per player his place, or None (no place yet, or no seat: the core leaves those 0).
py::list places_list(int players, const std::array<uint8_t, MAX_PLAYERS>& places) {
  py::list out;
  for (int p = 0; p < players; ++p) out.append(places[p] ? py::object(py::int_(places[p])) : py::object(py::none()));
  return out;
}

// The legal move of the player to move that `move` names (named_move); GameOver once the game
// is over.
template <class State>
Move legal_move_of(const State& state, py::handle move) {
  state.require_running();
  int n = 0;
  const Move* moves = state.judged_moves(n);
  return named_move(state.position().variant(), moves, n, state.current_player(), move);
}

// A step of the log: (token, player or None, move or None, move number, reason or None) — the
// player who moved, resigned or lost on time (None for a draw agreed), the move if it was one,
// why the player left if he did.
template <class State>
py::tuple step_tuple(const State& state, size_t i) {
  const GameStep& s = state.step(i);
  const py::object none = py::none();
  const bool left = s.kind == StepKind::RESIGNATION || s.kind == StepKind::TIME_FORFEIT;
  const Reason reason = s.kind == StepKind::RESIGNATION ? Reason::RESIGNATION : Reason::TIME_FORFEIT;
  return py::make_tuple(state.step_token(i), optional_index(s.kind == StepKind::DRAW_AGREED ? -1 : s.player, -1),
                        s.kind == StepKind::MOVE ? move_object(state.position().variant(), s.move) : none, s.fullmove,
                        left ? py::str(reason_word(reason)) : none);
}

// A Python method: the player leaves the game for `reason` (resigns, loses on time).
auto leave_for(Reason reason) {
  return [reason](PyGame& g, int player) {
    ++g.changes;
    g.visit([&](auto& s) { s.leave(g.player_index(player), reason); });
  };
}

// The legal moves of the player to move as a tuple, read once a step (a game's loop asks for them
// again and again).
py::object legal_moves_of(PyGame& g) {
  if (g.legal_at != g.changes) {
    g.legal = g.visit([](const auto& s) {
      int n = 0;
      const Move* moves = s.judged_moves(n);
      return move_tuple(s.position().variant(), moves, s.is_terminal() ? 0 : n);
    });
    g.legal_at = g.changes;
  }
  return g.legal;
}

// The steps' tokens, the list kept between reads and only ever appended to.
py::object history_of(PyGame& g) {
  return g.visit([&](const auto& s) {
    if (g.tokens_valid < py::len(g.tokens)) {  // steps were taken back since the last read
      py::list kept;
      for (size_t i = 0; i < g.tokens_valid; ++i) kept.append(g.tokens[i]);
      g.tokens = kept;
    }
    for (size_t i = py::len(g.tokens); i < s.step_count(); ++i) g.tokens.append(py::str(s.step_token(i)));
    g.tokens_valid = s.step_count();
    return py::object(g.tokens);
  });
}

// The game a GameState object holds, read straight from pybind11's instance (its simple layout:
// one value, no holder but the default) where py::cast's checks would cost as much as the read;
// the method descriptor has checked the object's type already.
PyGame& game_of(PyObject* self) {
  auto* instance = reinterpret_cast<py::detail::instance*>(self);
  if (!instance->simple_layout) return py::handle(self).cast<PyGame&>();
  if (!instance->simple_holder_constructed) throw py::type_error("a GameState made without __init__ holds no game");
  return *static_cast<PyGame*>(instance->simple_value_holder[0]);
}

// The three reads a game's loop makes every ply (polychess.Game's outcome(), legal_moves and
// history) as plain CPython methods: pybind11's dispatch costs about 1,100 instructions a call,
// as much as the rest of a read (bench/README.md, the reading loop). Each is a read that cannot
// fail but for memory.
template <py::object (*Read)(PyGame&)>
PyObject* fast_read(PyObject* self, PyObject* /*unused*/) {
  try {
    return Read(game_of(self)).release().ptr();
  } catch (py::error_already_set& error) {
    error.restore();
  } catch (const py::builtin_exception& error) {
    error.set_error();
  } catch (const std::exception& error) {
    PyErr_SetString(PyExc_RuntimeError, error.what());
  }
  return nullptr;
}

PyObject* fast_history(PyObject* self, void* /*unused*/) { return fast_read<history_of>(self, nullptr); }

py::object is_terminal_of(PyGame& g) {
  return py::bool_(g.visit([](const auto& s) { return s.is_terminal(); }));
}

PyMethodDef FAST_METHODS[] = {
    {"is_terminal", fast_read<is_terminal_of>, METH_NOARGS, "is_terminal($self, /)\n--\n\nWhether the game is over."},
    {"legal_moves", fast_read<legal_moves_of>, METH_NOARGS,
     "legal_moves($self, /)\n--\n\nThe legal moves of the player to move (a tuple; none once the game is over)."},
};
PyGetSetDef FAST_HISTORY = {
    "_history", fast_history, nullptr,
    "The token of every step, as records write them (steps()' first fields): a list kept between reads and only "
    "ever appended to (a read after a takeback gets a new one); polychess.Game.history's source.",
    nullptr};

void add_fast_reads(py::class_<PyGame>& cls) {
  auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  for (PyMethodDef& def : FAST_METHODS)
    cls.attr(def.ml_name) = py::reinterpret_steal<py::object>(PyDescr_NewMethod(type, &def));
  cls.attr(FAST_HISTORY.name) = py::reinterpret_steal<py::object>(PyDescr_NewGetSet(type, &FAST_HISTORY));
}

}  // namespace

void bind_game(py::module_& m) {
  m.def("place_return", &place_return, py::arg("place"), py::arg("seats"),
        "The return of a place among `seats` players: +1 for a sole first down to -1 for a sole last.");
  auto game_state =
      py::class_<PyGame>(m, "GameState",
                         "A game played by its board's rules on the board's position (low-level; see polychess.Game).")
          .def(py::init(&start), py::arg("board"), py::arg("points") = std::vector<int>{},
               py::arg("judge_start") = true,
               "A game from the board's position, by its rules; `points`: each player's points scored before it; "
               "`judge_start` false: the position's player to move moves from it as it stands (a bare board searched).")
          .def_property_readonly("board", [](const PyGame& g) { return g.board_object; })
          .def_property_readonly("current_player", visiting<PyGame>([](const auto& s) { return s.current_player(); }))
          .def_readonly("changes", &PyGame::changes,
                        "Counts the steps taken and taken back (what a cache is keyed by).")
          .def(
              "push",
              [](PyGame& g, py::handle move) {
                return g.visit([&](auto& s) {
                  const Move found = legal_move_of(s, move);
                  ++g.changes;
                  s.apply(found);
                  return move_object(s.position().variant(), found);
                });
              },
              py::arg("move"),
              "Plays a legal move (a Move or move text) and everything it causes, in one call; returns the Move. "
              "IllegalMoveError or InvalidMoveError leave the game unchanged; GameOverError once the game is over.")
          .def(
              "legal_move",
              [](const PyGame& g, py::handle move) {
                return g.visit(
                    [&](const auto& s) { return move_object(s.position().variant(), legal_move_of(s, move)); });
              },
              py::arg("move"), "The legal move a Move or move text names (push()'s errors), not played.")
          .def("resign", leave_for(Reason::RESIGNATION))
          .def("time_forfeit", leave_for(Reason::TIME_FORFEIT))
          .def("agree_draw",
               [](PyGame& g) {
                 ++g.changes;
                 g.visit([](auto& s) { s.agree_draw(); });
               })
          .def(
              "undo",
              [](PyGame& g) {
                return g.visit([&](auto& s) -> py::object {
                  if (s.step_count() == 0) throw py::index_error("nothing to take back");
                  const GameStep last = s.step(s.step_count() - 1);
                  ++g.changes;
                  s.undo();
                  g.tokens_valid = std::min(g.tokens_valid, s.step_count());
                  if (last.kind != StepKind::MOVE) return py::none();
                  return move_object(s.position().variant(), last.move);
                });
              },
              "Takes back the last step (a move or an event) with everything it entailed; returns the move taken back, "
              "or None for an event.")
          .def(
              "steps",
              [](const PyGame& g, size_t first) {
                return g.visit([&](const auto& s) {
                  py::list out;
                  for (size_t i = first; i < s.step_count(); ++i) out.append(step_tuple(s, i));
                  return out;
                });
              },
              py::arg("first") = 0,
              "(token, player or None, move or None, move number, reason or None) of every step from `first` on: who "
              "moved, resigned or lost on time (None for a draw agreed), the move if the step was one, the position's "
              "move number then, why the player left (resignation, time forfeit) if he did.")
          .def("status", [](const PyGame& g,
                            int p) { return g.visit([&](const auto& s) { return s.status_of(g.player_index(p)); }); })
          .def_property_readonly("ply", visiting<PyGame>([](const auto& s) { return s.facts().ply; }))
          .def_property_readonly("points",
                                 [](const PyGame& g) {
                                   return per_player(g.visit([](const auto& s) { return s.facts().points; }),
                                                     g.variant().players);
                                 })
          .def_property_readonly(
              "places",
              [](const PyGame& g) {
                return g.visit([&](const auto& s) { return places_list(g.variant().players, s.facts().places); });
              },
              "Per player: his place (fixed for players out; every seat's once the game is over) or None.")
          .def_property_readonly(
              "termination", visiting<PyGame>([](const auto& s) { return termination_or_none(s.facts().termination); }))
          .def_property_readonly("seats", visiting<PyGame>([](const auto& s) { return s.seats(); }),
                                 "The players seated at the start, a bit each.")
          .def(
              "eliminations",
              [](const PyGame& g, size_t first) {
                return g.visit([&](const auto& s) {
                  py::list out;
                  const auto& all = s.eliminations();
                  for (size_t i = first; i < all.size(); ++i) {
                    const EliminationRecord& e = all[i];
                    out.append(py::make_tuple(int(e.player), reason_word(e.reason), optional_index(e.by, -1), e.ply));
                  }
                  return out;
                });
              },
              py::arg("first") = 0, "(player, reason, by or None, ply) of every elimination from `first` on.")
          .def_property_readonly("observation_shape",
                                 visiting<PyGame>([](const auto& s) { return observation_shape(s).dims(); }),
                                 "The shape of the observations (planes, rows, columns; docs/rl.md).")
          .def(
              "write_observation",
              [](const PyGame& g, const py::buffer& out, int viewer) {
                g.visit([&](const auto& s) {
                  const ObservationBuffer items(out, size_t(observation_shape(s).size()), "the observation");
                  viewer = g.player_index(viewer < 0 ? s.current_player() : viewer);
                  if (items.bytes) write_observation(s, viewer, items.bytes);
                  else write_observation(s, viewer, items.floats);
                });
              },
              py::arg("out"), py::arg("viewer") = -1,
              "Writes the observation of `viewer` (default: the player to move) into `out`, a float32 or uint8 array.")
          .def_property_readonly("settled_players", visiting<PyGame>([](const auto& s) { return s.settled_players(); }),
                                 "The players whose place is fixed, a bit each (out with a place, or the game over).")
          .def(
              "return_of",
              [](const PyGame& g, int player) {
                return g.visit([&](const auto& s) { return s.return_of(g.player_index(player)); });
              },
              py::arg("player"), "A settled player's return (+1 sole first down to -1 sole last).")
          .def("returns",
               [](const PyGame& g) {
                 return per_player(g.visit([](const auto& s) { return s.returns(); }), g.variant().players);
               })
          .def("clone",
               [](const PyGame& g) {
                 py::object board_copy = py::cast(g.board().copy());
                 PyBoard& b = board_copy.cast<PyBoard&>();
                 return PyGame{board_copy, copy_game_state(*b.position, g.state)};
               })
          .def("serialize", visiting<PyGame>([](const auto& s) { return s.serialize(); }))
          .def_static(
              "deserialize",
              [](const NameText& variant, const PositionText& text, const Rules& rules, const NameText& mode,
                 const NameText& setup) {
                const auto [start_text, steps] = split_serialized(text);
                const Variant& v = find_variant(variant, mode, setup);
                PyGame g = start(py::cast(PyBoard{std::make_unique<AnyPosition>(make_position(v, &start_text, rules))}),
                                 {}, true);
                g.visit([&](auto& s) { s.replay(steps); });
                return g;
              },
              py::arg("variant"), py::arg("text"), py::arg("rules_text"), py::kw_only(), py::arg("mode") = "",
              py::arg("setup") = "");
  add_fast_reads(game_state);

  m.def(
      "playouts",
      [](const PyBoard& b, int games, uint64_t seed, const NameText& policy, uint32_t max_plies, bool record_moves,
         int threads) {
        const PlayoutOptions options{games, seed, policy_named(policy), max_plies, record_moves, threads};
        std::vector<PlayoutResult> results;
        {
          py::gil_scoped_release release;
          results = b.visit([&](const auto& pos) { return run_playouts(pos, options); });
        }
        const Variant& v = b.variant();
        py::list out(results.size());
        for (size_t i = 0; i < results.size(); ++i) {
          const PlayoutResult& r = results[i];
          py::object moves = py::none();
          if (record_moves) {
            py::list texts;
            for (Move mv : r.moves) texts.append(move_text(v, mv));
            moves = texts;
          }
          PyList_SET_ITEM(out.ptr(), i,
                          py::make_tuple(termination_or_none(r.termination), r.plies, places_list(v.players, r.places),
                                         per_player(r.points, v.players), per_player(r.returns, v.players), moves)
                              .release()
                              .ptr());
        }
        return out;
      },
      py::arg("board"), py::arg("games"), py::arg("seed"), py::arg("policy"), py::arg("max_plies"),
      py::arg("record_moves"), py::arg("threads"),
      "Plays whole games from the board's position, by its rules, without the GIL: (termination or None, plies, "
      "places, points, returns, moves or None) per game.");
}

}  // namespace polychess
