#include "core/notation.h"

#include <cctype>

#include "base/errors.h"

namespace polychess {

char kind_letter(Kind kind) { return " PNBRQKD"[kind]; }
char promotion_letter(Kind kind) { return kind == ONE_POINT_QUEEN ? 'Q' : kind_letter(kind); }

char written_promotion(const Variant& v, Kind kind) {
  const char letter = promotion_letter(kind);
  return v.upper_case_text ? letter : char(std::tolower(static_cast<unsigned char>(letter)));
}

namespace {

// Examples taken from the board itself, so every variant's message shows its own cells:
// the first pawn double step of the first colour, and its king's castling move.
std::string example_moves(const Variant& v) {
  const Layout& lay = v.layout;
  std::string s;
  for (int cell = 0; cell < lay.cell_count; ++cell)
    if (lay.pawn_double_step[0][cell] != NO_CELL) {
      s = "'" + lay.names[cell] + lay.names[lay.pawn_double_step[0][cell]] + "'";
      break;
    }
  const CastlingCells& castle = lay.castling[0][0].cells;
  s += " (castling: the king's move, '" + lay.names[castle.king_from] + lay.names[castle.king_to] + "')";
  return s;
}

std::string promotion_letters(const Variant& v) {
  std::string s;
  for (Kind k : v.promotion_kinds) {
    const char letter = written_promotion(v, k);
    if (s.find(letter) == std::string::npos) s += (s.empty() ? "" : ", ") + std::string(1, letter);
  }
  return s;
}

}  // namespace

std::string move_text(const Variant& v, Move move) {
  std::string s = v.layout.names[move_from(move)] + v.layout.names[move_to(move)];
  if (move_promotion(move) != NO_KIND) s += written_promotion(v, move_promotion(move));
  return s;
}

std::string expected_move_text(const Variant& v) {
  return "expected the from-cell and the to-cell, then a promotion letter (" + promotion_letters(v) +
         ") where a pawn promotes, e.g. " + example_moves(v);
}

MoveText parse_move_text(const Variant& v, const std::string& text) {
  const auto fail = [&](const std::string& why) -> void {
    throw InvalidMove("bad move text " + quoted(text) + ": " + why + "; " + expected_move_text(v));
  };
  const auto is_space = [](char ch) { return std::isspace(static_cast<unsigned char>(ch)) != 0; };
  size_t i = 0;
  const auto skip_spaces = [&] {
    while (i < text.size() && is_space(text[i])) ++i;
  };
  // A cell name is a letter and one or two digits; the longest name that is a cell wins.
  const auto read_cell = [&](const std::string& which) {
    const size_t start = i;
    if (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && i - start < 3) ++i;
    const std::string name = text.substr(start, i - start);
    const int cell = name.size() >= 2 ? v.layout.cell_index(name) : NO_CELL;
    if (cell != NO_CELL) return cell;
    if (name.size() < 2) {
      size_t end = start;
      while (end < text.size() && !is_space(text[end])) ++end;
      const std::string word = text.substr(start, end - start);
      if (word.empty()) fail("the " + which + " is missing");
      if (start == text.find_first_not_of(" \t\r\n\f\v"))
        fail("it does not start with a cell name (moves are written by cells, not in SAN)");
      fail(quoted(word) + " is not a cell name");
    }
    fail(quoted(name) + " is not a cell of " + v.name);
    return NO_CELL;
  };

  skip_spaces();
  if (i == text.size()) throw InvalidMove("empty move text; " + expected_move_text(v));
  const std::string trimmed = text.substr(i);
  if (trimmed.rfind("O-O", 0) == 0 || trimmed.rfind("0-0", 0) == 0 || trimmed.rfind("o-o", 0) == 0)
    fail("castling is written as the king's move");
  MoveText m{};
  m.from = read_cell("from-cell");
  skip_spaces();
  if (i < text.size() && (text[i] == '-' || text[i] == 'x' || text[i] == 'X' || text[i] == ':')) ++i;
  skip_spaces();
  if (i == text.size()) fail("only one cell is given");
  m.to = read_cell("to-cell");
  m.promotion = NO_KIND;
  skip_spaces();
  if (i < text.size() && text[i] == '=') ++i;
  if (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i])) &&
      (i + 1 == text.size() || is_space(text[i + 1]))) {
    const char letter = char(std::toupper(static_cast<unsigned char>(text[i])));
    for (Kind k : v.promotion_kinds)
      if (promotion_letter(k) == letter) m.promotion = k;
    if (m.promotion == NO_KIND)
      fail(quoted(std::string(1, text[i])) + " is not a piece a pawn promotes to in " + v.name);
    ++i;
  }
  skip_spaces();
  if (i < text.size()) fail("unexpected " + quoted(text.substr(i)) + " after the move");
  return m;
}

Move matching_move(const Move* moves, int n, const MoveText& m) {
  for (int i = 0; i < n; ++i)
    if (move_from(moves[i]) == m.from && move_to(moves[i]) == m.to && move_promotion(moves[i]) == m.promotion)
      return moves[i];
  return MOVE_NONE;
}

Move find_move_of(const Variant& variant, const Move* moves, int n, int turn, const Variant& of, const MoveText& m) {
  if (&of == &variant) {
    const Move found = matching_move(moves, n, m);
    if (found != MOVE_NONE) return found;  // no text made on the way of every legal move
  }
  const std::string text =
      move_text(of, m.promotion ? make_promotion(m.from, m.to, m.promotion) : make_move(m.from, m.to));
  if (of.name != variant.name)
    throw IllegalMove("move " + text + " is a " + of.name + " move, not a " + variant.name + " move");
  return find_move(variant, moves, n, &of == &variant ? m : parse_move_text(variant, text), text, turn);
}

Move find_move(const Variant& variant, const Move* moves, int n, const MoveText& m, const std::string& text, int turn) {
  const Move found = matching_move(moves, n, m);
  if (found != MOVE_NONE) return found;
  bool needs_promotion = false;
  for (int i = 0; i < n; ++i)
    needs_promotion |= move_from(moves[i]) == m.from && move_to(moves[i]) == m.to && m.promotion == NO_KIND;
  const std::string who = variant.colour_names[turn] + " to move";
  if (needs_promotion) throw IllegalMove("move " + quoted(text) + " needs a promotion letter (" + who + ")");
  throw IllegalMove("illegal move " + quoted(text) + " (" + who + ")");
}

}  // namespace polychess
