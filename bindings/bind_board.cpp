// Boards for Python: polychess._core.Board (a position of any width and its history), Status,
// StopFlag. Each call visits the position's width (core/any_width.h).
#include <pybind11/stl.h>

#include <atomic>

#include "base/errors.h"
#include "bindings.h"
#include "core/checks.h"
#include "core/events.h"
#include "core/perft.h"

namespace py = pybind11;

namespace polychess {
namespace {

// Runs `count` on a copy of the board's position without the GIL: the board stays usable.
template <class Count>
auto count_on_copy(const PyBoard& b, int depth, Count count) {
  py::gil_scoped_release release;
  return b.visit([&](const auto& pos) {
    auto copy = counting_copy(pos, depth);
    return count(copy);
  });
}

template <int W>
std::vector<int> cell_list(Bitboard<W> cells) {
  std::vector<int> out;
  for_each_cell(cells, [&](int c) { out.push_back(c); });
  return out;
}

}  // namespace

void bind_board(py::module_& m) {
  py::enum_<Status>(m, "Status", "A player's status: ACTIVE, FROZEN (stalemated) or OUT.")
      .value("ACTIVE", ACTIVE)
      .value("FROZEN", FROZEN)
      .value("OUT", OUT);

  py::class_<StopFlag>(m, "StopFlag",
                       "Set from another thread to end a count (perft, divide) or a self-play batch early.")
      .def(py::init<>())
      .def("set", [](StopFlag& f) { f.raised = true; })
      .def("is_set", [](const StopFlag& f) { return f.raised.load(); });

  py::class_<PyBoard>(m, "Board", "A position with its history (low-level; see polychess.Board).")
      .def(py::init([](const NameText& variant, std::optional<PositionText> fen, const Rules& rules,
                       const NameText& mode, const NameText& setup) {
             const Variant& v = find_variant(variant, mode, setup);
             return PyBoard{std::make_unique<AnyPosition>(make_position(v, fen ? &fen->value : nullptr, rules))};
           }),
           py::arg("variant"), py::arg("fen") = py::none(), py::kw_only(), py::arg("rules_text") = Rules{},
           py::arg("mode") = "", py::arg("setup") = "",
           "The variant's start position or the position string's, played by `rules_text` (the rules as text, "
           "games/rules.h; polychess.rules.Rules.to_text writes it).")
      .def_property_readonly("mode", [](const PyBoard& b) { return b.variant().mode; })
      .def_property_readonly("setup", [](const PyBoard& b) { return b.variant().setup; })
      .def_property_readonly("variant", [](const PyBoard& b) { return b.variant().name; })
      .def_property_readonly("rules_text", visiting<PyBoard>([](const auto& pos) { return pos.rules(); }),
                             "The rules the position is played by, as text (games/rules.h).")
      .def("fen", visiting<PyBoard>([](const auto& pos) { return pos.text(); }))
      .def("copy", &PyBoard::copy)
      .def("legal_moves",
           [](const PyBoard& b) {
             Move moves[MAX_MOVES];
             return move_list(b.variant(), moves, b.legal_moves(moves));
           })
      .def(
          "legal_captures",
          [](const PyBoard& b) {
            Move moves[MAX_MOVES];
            const int n = b.visit([&](const auto& pos) { return polychess::legal_captures(pos, moves); });
            return move_list(b.variant(), moves, n);
          },
          "The legal captures and promotions (what the search's quiescence looks at).")
      .def("count_legal_moves", visiting<PyBoard>([](const auto& pos) { return count_legal_moves(pos); }))
      .def(
          "legal_move", [](const PyBoard& b, py::handle move) { return move_object(b.variant(), b.legal_move(move)); },
          py::arg("move"),
          "The legal move a Move or move text names (a move of another mode or setup of the same game is read by its "
          "text); InvalidMoveError or IllegalMoveError if none.")
      .def("is_legal",
           [](const PyBoard& b, py::handle move) {
             try {
               b.legal_move(move);
               return true;
             } catch (const std::invalid_argument&) {  // InvalidMove or IllegalMove
               return false;
             }
           })
      .def("is_capture",
           [](const PyBoard& b, py::handle m) {
             return b.visit([&](const auto& pos) { return pos.is_capture(b.legal_move(m)); });
           })
      .def("is_en_passant", [](const PyBoard& b, py::handle m) { return move_type(b.legal_move(m)) == EN_PASSANT; })
      .def("is_castling", [](const PyBoard& b, py::handle m) { return move_type(b.legal_move(m)) == CASTLING; })
      .def(
          "kings_checked",
          [](PyBoard& b, py::handle m, std::optional<uint32_t> looked_at) {
            const Move move = b.legal_move(m);
            const KingsChecked checked =
                b.visit([&](auto& pos) { return kings_checked(pos, move, looked_at.value_or(~0u)); });
            std::vector<int> players;
            for (int p = 0; p < b.variant().players; ++p)
              if (checked.players >> p & 1) players.push_back(p);
            return std::make_pair(players, checked.by_queens_only);
          },
          py::arg("move"), py::arg("looked_at") = py::none(),
          "The players whose king the legal move puts in check (core/checks.h), and whether only queens check; "
          "`looked_at`: a bit per player whose king is looked at (default: every active player but the mover).")
      .def(
          "push",
          [](PyBoard& b, py::handle move) {
            const Move found = b.legal_move(move);
            b.visit([&](auto& pos) { pos.make(found); });
            return move_object(b.variant(), found);
          },
          py::arg("move"), "Plays a legal move (a Move or move text) and returns it; an illegal one changes nothing.")
      .def(
          "pop",
          [](PyBoard& b) {
            const Move last = b.visit([](auto& pos) { return pos.take_back_move(); });
            if (last == MOVE_NONE) throw py::index_error("pop from a board with no moves");
            return move_object(b.variant(), last);
          },
          "Takes back the events after the last move, then the move itself.")
      .def(
          "undo",
          [](PyBoard& b) {
            if (b.history().empty()) throw py::index_error("nothing to undo");
            b.visit([](auto& pos) { pos.unmake(); });
          },
          "Takes back the last move or event alone.")
      .def("move_stack",
           [](const PyBoard& b) {
             const std::vector<Move> moves = b.visit([](const auto& pos) { return pos.moves_played(); });
             return move_list(b.variant(), moves.data(), int(moves.size()));
           })
      .def("history_length", [](const PyBoard& b) { return b.history().size(); })
      .def(
          "perft",
          [](const PyBoard& b, int depth, const StopFlag* stop) {
            return count_on_copy(b, depth, [&](auto& pos) { return perft(pos, depth, raised_of(stop)); });
          },
          py::arg("depth"), py::arg("stop") = nullptr)
      .def(
          "perft_full",
          [](const PyBoard& b, int depth) {
            return count_on_copy(b, depth, [&](auto& pos) { return perft_full(pos, depth); });
          },
          py::arg("depth"))
      .def(
          "divide",
          [](const PyBoard& b, int depth, const StopFlag* stop) {
            const auto counts = count_on_copy(b, depth, [&](auto& pos) { return divide(pos, depth, raised_of(stop)); });
            py::dict out;
            for (auto [move, n] : counts) out[py::str(move_text(b.variant(), move))] = n;
            return out;
          },
          py::arg("depth"), py::arg("stop") = nullptr)
      .def_property_readonly("turn", [](const PyBoard& b) { return int(b.meta().turn); })
      .def("status", [](const PyBoard& b,
                        int p) { return Status(b.meta().status[checked_index(p, b.variant().players, "player")]); })
      .def("controller",
           [](const PyBoard& b, int c) {
             return optional_index(b.meta().controller[checked_index(c, b.variant().colours(), "colour")], NOBODY);
           })
      .def("piece_at",
           [](const PyBoard& b, int cell) -> std::optional<std::pair<int, int>> {
             checked_index(cell, b.variant().layout.cell_count, "cell");
             const Piece p = b.visit([&](const auto& pos) { return pos.piece_at(cell); });
             if (!p) return std::nullopt;
             return std::pair<int, int>{colour_of(p), kind_of(p)};
           })
      .def("king_of",
           [](const PyBoard& b, int player) {
             checked_index(player, b.variant().players, "player");
             return optional_index(b.visit([&](const auto& pos) { return pos.king_of(player); }), NO_CELL);
           })
      .def_property_readonly("castling_rights", [](const PyBoard& b) { return int(b.meta().castling); })
      .def_property_readonly("en_passant_cells",
                             [](const PyBoard& b) {
                               std::vector<int> cells;
                               for (int c = 0; c < b.variant().colours(); ++c)
                                 if (b.meta().en_passant[c] != NO_CELL) cells.push_back(b.meta().en_passant[c]);
                               return cells;
                             })
      .def_property_readonly("halfmove_clock", [](const PyBoard& b) { return int(b.meta().halfmove); })
      .def_property_readonly("fullmove_number", [](const PyBoard& b) { return b.meta().fullmove; })
      .def_property_readonly("key", [](const PyBoard& b) { return b.meta().key; })
      .def("compute_key", visiting<PyBoard>([](const auto& pos) { return pos.compute_key(); }))
      .def("checkers", visiting<PyBoard>([](const auto& pos) { return cell_list(checkers(pos)); }))
      .def(
          "attackers",
          [](const PyBoard& b, int cell, int player) {
            checked_index(player, b.variant().players, "player");
            checked_index(cell, b.variant().layout.cell_count, "cell");
            return b.visit([&](const auto& pos) { return cell_list(pos.attackers_to(cell, pos.pieces_of(player))); });
          },
          py::arg("cell"), py::arg("player"), "Cells of the player's pieces that attack the cell.")
      .def("mated_by",
           [](const PyBoard& b) { return optional_index(b.visit([](const auto& pos) { return mated_by(pos); }), -1); })
      // The game's events, for tools that build positions by hand (core/events.h checks them).
      .def("set_controller",
           [](PyBoard& b, int colour, std::optional<int> player) {
             b.visit([&](auto& pos) { give_colour(pos, colour, player.value_or(NOBODY)); });
           })
      .def("remove_king", [](PyBoard& b, int colour) { b.visit([&](auto& pos) { remove_king(pos, colour); }); })
      .def("set_status",
           [](PyBoard& b, int player, Status s) { b.visit([&](auto& pos) { set_status(pos, player, s); }); })
      .def(
          "eliminate",
          [](PyBoard& b, int player, std::optional<int> by, bool keep_king) {
            b.visit([&](auto& pos) { eliminate(pos, player, by.value_or(NOBODY), keep_king); });
          },
          py::arg("player"), py::arg("by"), py::arg("keep_king") = false);
}

}  // namespace polychess
