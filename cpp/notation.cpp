#include "notation.h"

#include <cctype>

#include "errors.h"

namespace polychess {

char kind_letter(Kind kind) { return " PNBRQKD"[kind]; }
char promotion_letter(Kind kind) { return kind == ONE_POINT_QUEEN ? 'Q' : kind_letter(kind); }

std::string move_text(const Variant& v, Move move) {
  std::string s = v.layout.names[move_from(move)] + v.layout.names[move_to(move)];
  if (move_promotion(move) != NO_KIND) {
    const char letter = promotion_letter(move_promotion(move));
    s += v.upper_case_text ? letter : char(std::tolower(letter));
  }
  return s;
}

MoveText parse_move_text(const Variant& v, const std::string& text) {
  std::string s;
  for (char ch : text) {
    if (ch == '-' || ch == 'x' || ch == 'X' || ch == '=' || std::isspace(static_cast<unsigned char>(ch))) continue;
    s += ch;
  }
  const std::string quoted = "'" + text + "'";
  size_t i = 0;
  auto read_cell = [&]() {
    const size_t start = i;
    if (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && i - start < 3) ++i;
    const std::string name = s.substr(start, i - start);
    const int cell = name.size() >= 2 ? v.layout.cell_index(name) : NO_CELL;
    if (cell == NO_CELL)
      throw InvalidMove("bad move text " + quoted + ": '" + name + "' is not a cell of " + v.name);
    return cell;
  };
  if (s.empty()) throw InvalidMove("empty move text");
  MoveText m{};
  m.from = read_cell();
  m.to = read_cell();
  m.promotion = NO_KIND;
  if (i < s.size()) {
    const char letter = char(std::toupper(static_cast<unsigned char>(s[i])));
    for (Kind k : v.promotion_kinds)
      if (promotion_letter(k) == letter) m.promotion = k;
    if (m.promotion == NO_KIND || i + 1 != s.size())
      throw InvalidMove("bad move text " + quoted + ": unexpected '" + s.substr(i) + "' after the cells");
  }
  return m;
}

}  // namespace polychess
