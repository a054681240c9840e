#include <pybind11/stl.h>

#include <atomic>

#include "bindings.h"
#include "board.h"
#include "errors.h"

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
      .def(py::init([](const NameText& variant, std::optional<PositionText> fen, bool neutrality, const NameText& mode,
                       const NameText& setup) {
             const Variant& v = find_variant(variant, mode, setup);
             GameRules rules;
             rules.neutrality = neutrality;
             return PyBoard{fen ? Board::create(v, fen->value, rules) : Board::create(v, rules)};
           }),
           py::arg("variant"), py::arg("fen") = py::none(), py::kw_only(), py::arg("neutrality") = false,
           py::arg("mode") = "", py::arg("setup") = "")
      .def_property_readonly("mode", [](const PyBoard& b) { return b.variant().mode; })
      .def_property_readonly("setup", [](const PyBoard& b) { return b.variant().setup; })
      .def_property_readonly("neutrality", [](const PyBoard& b) { return b.board->neutrality(); })
      .def_property_readonly("variant", [](const PyBoard& b) { return b.variant().name; })
      .def("fen", [](const PyBoard& b) { return b.board->text(); })
      .def("copy", [](const PyBoard& b) { return PyBoard{b.board->clone()}; })
      .def("legal_moves", &PyBoard::legal_moves)
      .def(
          "legal_captures",
          [](const PyBoard& b) {
            Move moves[MAX_MOVES];
            const int n = b.board->legal_captures(moves);
            py::list out;
            for (int i = 0; i < n; ++i) out.append(move_object(b.variant(), moves[i]));
            return out;
          },
          "The legal captures and promotions (what the search's quiescence looks at).")
      .def("count_legal_moves", [](const PyBoard& b) { return b.board->count_legal_moves(); })
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
             return move_type(move) == EN_PASSANT ||
                    (move_type(move) != CASTLING && b.board->piece_at(move_to(move)) != NO_PIECE);
           })
      .def("is_en_passant", [](const PyBoard& b, const MoveValue& m) { return move_type(b.resolve(m)) == EN_PASSANT; })
      .def("is_castling", [](const PyBoard& b, const MoveValue& m) { return move_type(b.resolve(m)) == CASTLING; })
      .def("parse_move", [](const PyBoard& b,
                            const MoveTextArg& text) { return move_object(b.variant(), b.board->parse_move(text)); })
      .def("push", [](PyBoard& b, const MoveValue& m) { b.board->make(b.resolve(m)); })
      .def("push_text",
           [](PyBoard& b, const MoveTextArg& text) {
             const Move mv = b.board->parse_move(text);
             b.board->make(mv);
             return move_object(b.variant(), mv);
           })
      .def("pop", &PyBoard::pop)
      .def(
          "undo",
          [](PyBoard& b) {
            if (b.board->history().empty()) throw py::index_error("nothing to undo");
            b.board->unmake();
          },
          "Takes back the last move or event alone.")
      .def("move_stack", &PyBoard::move_stack)
      .def(
          "last_captured",
          [](const PyBoard& b) -> std::optional<std::pair<int, int>> {
            const auto& h = b.board->history();
            if (h.empty() || h.back().move == MOVE_NONE || !h.back().captured) return std::nullopt;
            return std::pair<int, int>{colour_of(h.back().captured), kind_of(h.back().captured)};
          },
          "(colour, kind) of the piece the last move captured, if it was a move that captured.")
      .def("history_length", [](const PyBoard& b) { return b.board->history().size(); })
      .def(
          "perft",
          [](const PyBoard& b, int depth, const StopFlag* stop) {
            check_depth(depth);
            py::gil_scoped_release release;
            return b.board->perft(depth, raised_of(stop));
          },
          py::arg("depth"), py::arg("stop") = nullptr)
      .def(
          "perft_full",
          [](const PyBoard& b, int depth) {
            check_depth(depth);
            py::gil_scoped_release release;
            return b.board->perft_full(depth);
          },
          py::arg("depth"))
      .def(
          "divide",
          [](const PyBoard& b, int depth, const StopFlag* stop) {
            check_depth(depth);
            std::vector<std::pair<Move, uint64_t>> counts;
            {
              py::gil_scoped_release release;
              counts = b.board->divide(depth, raised_of(stop));
            }
            py::dict out;
            for (auto [move, n] : counts) out[py::str(move_text(b.variant(), move))] = n;
            return out;
          },
          py::arg("depth"), py::arg("stop") = nullptr)
      .def_property_readonly("turn", [](const PyBoard& b) { return int(b.board->meta().turn); })
      .def("status",
           [](const PyBoard& b, int p) {
             if (p < 0 || p >= b.variant().players) throw py::index_error("no player " + std::to_string(p));
             return Status(b.board->meta().status[p]);
           })
      .def("controller",
           [](const PyBoard& b, int c) -> std::optional<int> {
             if (c < 0 || c >= b.variant().colours()) throw py::index_error("no colour " + std::to_string(c));
             const int p = b.board->meta().controller[c];
             if (p == NOBODY) return std::nullopt;
             return p;
           })
      .def("piece_at",
           [](const PyBoard& b, int cell) -> std::optional<std::pair<int, int>> {
             if (cell < 0 || cell >= b.variant().layout.cell_count)
               throw py::index_error("no cell " + std::to_string(cell));
             const Piece p = b.board->piece_at(cell);
             if (!p) return std::nullopt;
             return std::pair<int, int>{colour_of(p), kind_of(p)};
           })
      .def(
          "piece_counts",
          [](const PyBoard& b) {
            std::vector<int> counts;
            for (int k = PAWN; k < KIND_NB; ++k) counts.push_back(b.board->count(Kind(k)));
            return counts;
          },
          "Pieces on the board by kind (pawn, knight, bishop, rook, queen, king, one-point queen), all colours.")
      .def("king_of",
           [](const PyBoard& b, int player) -> std::optional<int> {
             if (player < 0 || player >= b.variant().players)
               throw py::index_error("no player " + std::to_string(player));
             const int k = b.board->king_of(player);
             if (k == NO_CELL) return std::nullopt;
             return k;
           })
      .def_property_readonly("castling_rights", [](const PyBoard& b) { return int(b.board->meta().castling); })
      .def_property_readonly("en_passant_cells",
                             [](const PyBoard& b) {
                               std::vector<int> cells;
                               for (int c = 0; c < b.variant().colours(); ++c)
                                 if (b.board->meta().en_passant[c] != NO_CELL)
                                   cells.push_back(b.board->meta().en_passant[c]);
                               return cells;
                             })
      .def_property_readonly("halfmove_clock", [](const PyBoard& b) { return int(b.board->meta().halfmove); })
      .def_property_readonly("fullmove_number", [](const PyBoard& b) { return b.board->meta().fullmove; })
      .def_property_readonly("key", [](const PyBoard& b) { return b.board->meta().key; })
      .def("compute_key", [](const PyBoard& b) { return b.board->compute_key(); })
      .def("checkers", [](const PyBoard& b) { return b.board->checkers(); })
      .def(
          "attackers",
          [](const PyBoard& b, int cell, int player) {
            if (player < 0 || player >= b.variant().players)
              throw py::index_error("no player " + std::to_string(player));
            if (cell < 0 || cell >= b.variant().layout.cell_count)
              throw py::index_error("no cell " + std::to_string(cell));
            return b.board->attackers(cell, player);
          },
          py::arg("cell"), py::arg("player"), "Cells of the player's pieces that attack the cell.")
      .def("mated_by",
           [](const PyBoard& b) -> std::optional<int> {
             const int p = b.board->mated_by();
             if (p < 0) return std::nullopt;
             return p;
           })
      .def("set_controller", [](PyBoard& b, int colour,
                                std::optional<int> player) { b.board->set_controller(colour, player ? *player : -1); })
      .def("remove_king", [](PyBoard& b, int colour) { b.board->remove_king(colour); })
      .def("set_status", [](PyBoard& b, int player, Status s) { b.board->set_status(player, s); })
      .def(
          "eliminate",
          [](PyBoard& b, int player, std::optional<int> by, bool keep_king) {
            b.board->eliminate(player, by ? *by : -1, keep_king);
          },
          py::arg("player"), py::arg("by"), py::arg("keep_king") = false);
}

}  // namespace polychess
