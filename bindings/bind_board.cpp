// Boards for Python: polychess._core.Board (a position of any width and its history), Status,
// StopFlag. Each call visits the position's width (core/any_width.h).
#include <pybind11/stl.h>

#include <atomic>

#include "bindings.h"
#include "core/checks.h"
#include "core/errors.h"
#include "core/events.h"
#include "core/perft.h"

namespace py = pybind11;

namespace polychess {
namespace {

void check_depth(int depth) {
  if (depth < 0) throw std::invalid_argument("depth must be >= 0, got " + std::to_string(depth));
  if (depth > 64) throw std::invalid_argument("depth " + std::to_string(depth) + " is too large");
}

// Set by another thread to end a count early: the count runs without the GIL, so it reads an
// atomic, not a Python object.
struct StopFlag {
  std::atomic<bool> raised{false};
};

const std::atomic<bool>* raised_of(const StopFlag* stop) { return stop ? &stop->raised : nullptr; }

// Player and colour indices read (an IndexError for a wrong one).
int checked_player(const PyBoard& b, int player) {
  if (player < 0 || player >= b.variant().players) throw py::index_error("no player " + std::to_string(player));
  return player;
}
int checked_colour(const PyBoard& b, int colour) {
  if (colour < 0 || colour >= b.variant().colours()) throw py::index_error("no colour " + std::to_string(colour));
  return colour;
}
int checked_cell(const PyBoard& b, int cell) {
  if (cell < 0 || cell >= b.variant().layout.cell_count) throw py::index_error("no cell " + std::to_string(cell));
  return cell;
}

template <int W>
std::vector<int> cell_list(Bitboard<W> cells) {
  std::vector<int> out;
  for_each_cell(cells, [&](int c) { out.push_back(c); });
  return out;
}

// The position copied for a long count, so that the board may be used meanwhile.
template <class Pos>
Pos counting_copy(const Pos& pos, int depth) {
  Pos copy = pos;
  copy.reserve_history(size_t(depth) + 1);
  return copy;
}

}  // namespace

void bind_board(py::module_& m) {
  py::enum_<Status>(m, "Status", "A player's status: ACTIVE, FROZEN (stalemated) or OUT.")
      .value("ACTIVE", ACTIVE)
      .value("FROZEN", FROZEN)
      .value("OUT", OUT);

  py::class_<StopFlag>(m, "StopFlag", "Set from another thread to end a count (perft, divide) early.")
      .def(py::init<>())
      .def("set", [](StopFlag& f) { f.raised = true; })
      .def("is_set", [](const StopFlag& f) { return f.raised.load(); });

  py::class_<PyBoard>(m, "Board", "A position with its history (low-level; see polychess.Board).")
      .def(py::init([](const NameText& variant, std::optional<PositionText> fen, const RuleSet& rules,
                       const NameText& mode, const NameText& setup) {
             const Variant& v = find_variant(variant, mode, setup);
             return PyBoard{std::make_unique<AnyPosition>(make_position(v, fen ? &fen->value : nullptr, rules))};
           }),
           py::arg("variant"), py::arg("fen") = py::none(), py::kw_only(), py::arg("rules") = RuleSet{},
           py::arg("mode") = "", py::arg("setup") = "",
           "The variant's start position or the position string's, played by `rules` (a RuleSet).")
      .def_property_readonly("mode", [](const PyBoard& b) { return b.variant().mode; })
      .def_property_readonly("setup", [](const PyBoard& b) { return b.variant().setup; })
      .def_property_readonly("variant", [](const PyBoard& b) { return b.variant().name; })
      .def_property_readonly(
          "rules", [](const PyBoard& b) { return b.visit([](const auto& pos) { return pos.rules(); }); },
          "The rules the position is played by (a copy).")
      .def("fen", [](const PyBoard& b) { return b.visit([](const auto& pos) { return pos.text(); }); })
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
      .def("count_legal_moves",
           [](const PyBoard& b) { return b.visit([](const auto& pos) { return polychess::count_legal_moves(pos); }); })
      .def("is_legal",
           // Exactly the moves push() plays: a move of another mode or setup of the same game
           // is read by its text, as resolve() reads it.
           [](const PyBoard& b, const MoveValue& m) {
             try {
               b.resolve(m);
               return true;
             } catch (const IllegalMove&) {
               return false;
             }
           })
      .def("is_capture",
           [](const PyBoard& b, const MoveValue& m) {
             const Move move = b.resolve(m);
             if (move_type(move) == EN_PASSANT) return true;
             return move_type(move) != CASTLING &&
                    b.visit([&](const auto& pos) { return pos.piece_at(move_to(move)) != NO_PIECE; });
           })
      .def("is_en_passant", [](const PyBoard& b, const MoveValue& m) { return move_type(b.resolve(m)) == EN_PASSANT; })
      .def("is_castling", [](const PyBoard& b, const MoveValue& m) { return move_type(b.resolve(m)) == CASTLING; })
      .def(
          "kings_checked",
          [](PyBoard& b, const MoveValue& m, std::optional<uint32_t> looked_at) {
            const Move move = b.resolve(m);
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
      .def("parse_move",
           [](const PyBoard& b, const MoveTextArg& text) { return move_object(b.variant(), b.parse_move(text)); })
      .def("push", [](PyBoard& b, const MoveValue& m) { b.make(b.resolve(m)); })
      .def("push_text",
           [](PyBoard& b, const MoveTextArg& text) {
             const Move mv = b.parse_move(text);
             b.make(mv);
             return move_object(b.variant(), mv);
           })
      .def("pop", &PyBoard::pop)
      .def(
          "undo",
          [](PyBoard& b) {
            if (b.history().empty()) throw py::index_error("nothing to undo");
            b.unmake();
          },
          "Takes back the last move or event alone.")
      .def("move_stack", &PyBoard::move_stack)
      .def(
          "last_captured",
          [](const PyBoard& b) -> std::optional<std::pair<int, int>> {
            const auto& h = b.history();
            if (h.empty() || h.back().move == MOVE_NONE || !h.back().captured) return std::nullopt;
            return std::pair<int, int>{colour_of(h.back().captured), kind_of(h.back().captured)};
          },
          "(colour, kind) of the piece the last move captured, if it was a move that captured.")
      .def("history_length", [](const PyBoard& b) { return b.history().size(); })
      .def(
          "perft",
          [](const PyBoard& b, int depth, const StopFlag* stop) {
            check_depth(depth);
            py::gil_scoped_release release;
            return b.visit([&](const auto& pos) {
              auto copy = counting_copy(pos, depth);
              return polychess::perft(copy, depth, raised_of(stop));
            });
          },
          py::arg("depth"), py::arg("stop") = nullptr)
      .def(
          "perft_full",
          [](const PyBoard& b, int depth) {
            check_depth(depth);
            py::gil_scoped_release release;
            return b.visit([&](const auto& pos) {
              auto copy = counting_copy(pos, depth);
              return polychess::perft_full(copy, depth);
            });
          },
          py::arg("depth"))
      .def(
          "divide",
          [](const PyBoard& b, int depth, const StopFlag* stop) {
            check_depth(depth);
            std::vector<std::pair<Move, uint64_t>> counts;
            {
              py::gil_scoped_release release;
              counts = b.visit([&](const auto& pos) {
                auto copy = counting_copy(pos, depth);
                return polychess::divide(copy, depth, raised_of(stop));
              });
            }
            py::dict out;
            for (auto [move, n] : counts) out[py::str(move_text(b.variant(), move))] = n;
            return out;
          },
          py::arg("depth"), py::arg("stop") = nullptr)
      .def_property_readonly("turn", [](const PyBoard& b) { return int(b.meta().turn); })
      .def("status", [](const PyBoard& b, int p) { return Status(b.meta().status[checked_player(b, p)]); })
      .def("controller",
           [](const PyBoard& b, int c) -> std::optional<int> {
             const int p = b.meta().controller[checked_colour(b, c)];
             if (p == NOBODY) return std::nullopt;
             return p;
           })
      .def("piece_at",
           [](const PyBoard& b, int cell) -> std::optional<std::pair<int, int>> {
             checked_cell(b, cell);
             const Piece p = b.visit([&](const auto& pos) { return pos.piece_at(cell); });
             if (!p) return std::nullopt;
             return std::pair<int, int>{colour_of(p), kind_of(p)};
           })
      .def(
          "piece_counts",
          [](const PyBoard& b) {
            std::vector<int> counts;
            for (int k = PAWN; k < KIND_NB; ++k)
              counts.push_back(b.visit([&](const auto& pos) { return pos.kind_bb(Kind(k)).count(); }));
            return counts;
          },
          "Pieces on the board by kind (pawn, knight, bishop, rook, queen, king, one-point queen), all colours.")
      .def("king_of",
           [](const PyBoard& b, int player) -> std::optional<int> {
             checked_player(b, player);
             const int k = b.visit([&](const auto& pos) { return pos.king_of(player); });
             if (k == NO_CELL) return std::nullopt;
             return k;
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
      .def("compute_key", [](const PyBoard& b) { return b.visit([](const auto& pos) { return pos.compute_key(); }); })
      .def(
          "checkers",
          [](const PyBoard& b) { return b.visit([](const auto& pos) { return cell_list(polychess::checkers(pos)); }); })
      .def(
          "attackers",
          [](const PyBoard& b, int cell, int player) {
            checked_player(b, player);
            checked_cell(b, cell);
            return b.visit([&](const auto& pos) { return cell_list(pos.attackers_to(cell, pos.pieces_of(player))); });
          },
          py::arg("cell"), py::arg("player"), "Cells of the player's pieces that attack the cell.")
      .def("mated_by",
           [](const PyBoard& b) -> std::optional<int> {
             const int p = b.visit([](const auto& pos) { return polychess::mated_by(pos); });
             if (p < 0) return std::nullopt;
             return p;
           })
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
