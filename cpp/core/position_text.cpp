// Position strings: FEN for standard chess, and the multi-colour form of
// docs/position-strings.md for three-player chess. Both list the cells row by row as the
// geometry orders them; they differ in how a piece, the castling rights and the extra
// multi-player state are written.
#include <cctype>
#include <sstream>

#include "base/errors.h"
#include "core/position.h"

namespace polychess {
namespace {

constexpr const char* KIND_LETTERS = " PNBRQKD";

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string cur;
  for (char ch : s) {
    if (ch == sep) {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  parts.push_back(cur);
  return parts;
}

Kind kind_from_letter(char ch) {
  for (int k = PAWN; k < KIND_NB; ++k)
    if (KIND_LETTERS[k] == std::toupper(static_cast<unsigned char>(ch))) return Kind(k);
  return NO_KIND;
}

[[noreturn]] void fail(const std::string& what) { throw InvalidPosition(what); }

int parse_count(const std::string& field, const char* name, int minimum) {
  if (field.empty() || field.size() > 9) fail(std::string("bad ") + name + " " + quoted(field));
  for (char ch : field)
    if (!std::isdigit(static_cast<unsigned char>(ch))) fail(std::string("bad ") + name + " " + quoted(field));
  const int value = std::stoi(field);
  if (value < minimum) fail(std::string(name) + " must be at least " + std::to_string(minimum));
  return value;
}

}  // namespace

template <int W>
void Position<W>::parse(const std::string& text) {
  const Variant& v = *variant_;
  const Layout& lay = v.layout;
  std::vector<std::string> fields;
  {
    std::istringstream in(text);
    std::string f;
    while (in >> f) fields.push_back(f);
  }
  const bool multi = v.multi_colour_text;
  // Neutrality adds a ninth field: whose pieces each player captured on his last move.
  const size_t full = multi ? (rules_.neutrality ? 9 : 8) : 6, least = multi ? 6 : 4;
  if (fields.size() < least || fields.size() > full)
    fail("expected " + std::to_string(least) + " to " + std::to_string(full) + " space-separated fields, got " +
         std::to_string(fields.size()));

  // Placement.
  const std::vector<std::string> rows = split(fields[0], '/');
  if (rows.size() != lay.rows.size())
    fail("placement has " + std::to_string(rows.size()) + " rows, expected " + std::to_string(lay.rows.size()));
  for (size_t r = 0; r < rows.size(); ++r) {
    const CellList& row = lay.rows[r];
    const std::string& s = rows[r];
    size_t at = 0;
    const std::string where = "row " + std::to_string(r + 1) + " of the placement (" + quoted(s) + ")";
    for (size_t i = 0; i < s.size();) {
      const char ch = s[i];
      if (std::isdigit(static_cast<unsigned char>(ch))) {
        size_t j = i;
        while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
        const size_t run = std::stoul(s.substr(i, std::min<size_t>(j - i, 4)));
        if (run == 0) fail("empty run of 0 cells in " + where);
        at += run;
        i = j;
        if (at > row.size()) fail(where + " has more than " + std::to_string(row.size()) + " cells");
        continue;
      }
      int colour;
      Kind kind;
      if (multi) {
        const auto pos = v.colour_letters.find(ch);
        if (pos == std::string::npos || i + 1 >= s.size())
          fail("bad piece " + quoted(s.substr(i, 2)) + " in " + where + " (a colour letter of '" + v.colour_letters +
               "' and a piece letter of PNBRQK)");
        colour = int(pos);
        kind = std::isupper(static_cast<unsigned char>(s[i + 1])) ? kind_from_letter(s[i + 1]) : NO_KIND;
        if (kind == NO_KIND) fail("bad piece " + quoted(s.substr(i, 2)) + " in " + where);
        i += 2;
      } else {
        kind = kind_from_letter(ch);
        if (kind == NO_KIND) fail(std::string("bad piece letter '") + ch + "' in " + where);
        colour = std::isupper(static_cast<unsigned char>(ch)) ? 0 : 1;
        i += 1;
      }
      if (at >= row.size()) fail(where + " has more than " + std::to_string(row.size()) + " cells");
      put(row[at++], make_piece(colour, kind));
    }
    if (at != row.size()) fail(where + " has " + std::to_string(at) + " cells, expected " + std::to_string(row.size()));
  }

  // Player to move.
  const std::string& turn = fields[1];
  const auto turn_pos = turn.size() == 1 ? v.colour_letters.find(turn[0]) : std::string::npos;
  if (turn_pos == std::string::npos)
    fail("bad player to move " + quoted(turn) + " (one of '" + v.colour_letters + "')");
  meta_.turn = uint8_t(turn_pos);

  // Castling rights.
  const std::string& castling = fields[2];
  meta_.castling = 0;
  if (castling != "-") {
    int colour = -1;
    for (char ch : castling) {
      int side;
      if (multi) {
        const auto pos = v.colour_letters.find(ch);
        if (pos != std::string::npos) {
          colour = int(pos);
          continue;
        }
        if (colour < 0 || (ch != 'K' && ch != 'Q')) fail("bad castling field " + quoted(castling));
        side = ch == 'K' ? 0 : 1;
      } else {
        const char up = char(std::toupper(static_cast<unsigned char>(ch)));
        if (up != 'K' && up != 'Q') fail("bad castling field " + quoted(castling));
        colour = std::isupper(static_cast<unsigned char>(ch)) ? 0 : 1;
        side = up == 'K' ? 0 : 1;
      }
      const uint8_t bit = uint8_t(1u << (colour * 2 + side));
      if (meta_.castling & bit) fail("castling right repeated in " + quoted(castling));
      meta_.castling |= bit;
    }
  }

  // En-passant rights.
  if (fields[3] != "-") {
    for (const std::string& name : split(fields[3], ',')) {
      const int cell = lay.cell_index(name);
      if (cell == NO_CELL) fail("bad en-passant cell " + quoted(name));
      const int colour = topo_->colour_of_skipped[cell];
      if (colour < 0) fail("en-passant cell " + name + " is not skipped by any double step");
      if (meta_.en_passant[colour] != NO_CELL) fail("two en-passant cells for one colour in " + quoted(fields[3]));
      meta_.en_passant[colour] = int16_t(cell);
    }
  }

  meta_.halfmove = uint16_t(fields.size() > 4 ? std::min(parse_count(fields[4], "halfmove clock", 0), 65535) : 0);
  meta_.fullmove = uint32_t(fields.size() > 5 ? parse_count(fields[5], "fullmove number", 1) : 1);

  if (fields.size() > 6) {
    const std::string& ctl = fields[6];
    if (int(ctl.size()) != colours()) fail("controllers field " + quoted(ctl) + " needs one letter per colour");
    for (int c = 0; c < colours(); ++c) {
      if (ctl[c] == '-') {
        meta_.controller[c] = NOBODY;
        continue;
      }
      const auto pos = v.colour_letters.find(ctl[c]);
      if (pos == std::string::npos || int(pos) >= players()) fail("bad controller '" + std::string(1, ctl[c]) + "'");
      meta_.controller[c] = uint8_t(pos);
    }
  }
  if (fields.size() > 7) {
    const std::string& st = fields[7];
    if (int(st.size()) != players()) fail("statuses field " + quoted(st) + " needs one letter per player");
    for (int p = 0; p < players(); ++p) {
      const char ch = st[p];
      if (ch != 'a' && ch != 'f' && ch != 'x') fail("bad status '" + std::string(1, ch) + "' (a, f or x)");
      meta_.status[p] = ch == 'a' ? ACTIVE : ch == 'f' ? FROZEN : OUT;
    }
  }
  if (fields.size() > 8) {
    const std::string& lc = fields[8];
    if (int(lc.size()) != players()) fail("last-captures field " + quoted(lc) + " needs one letter per player");
    for (int p = 0; p < players(); ++p) {
      const auto pos = v.colour_letters.find(lc[p]);
      if (lc[p] != '-' && (pos == std::string::npos || int(pos) >= players() || int(pos) == p))
        fail("bad last-capture letter '" + std::string(1, lc[p]) + "'");
      meta_.last_capture[p] = lc[p] == '-' ? NOBODY : uint8_t(pos);
    }
  }
}

template <int W>
void Position<W>::validate() const {
  const Variant& v = *variant_;
  const Layout& lay = v.layout;
  const Topology<W>& t = *topo_;
  auto name = [&](int cell) { return lay.names[cell]; };
  auto colour_name = [&](int c) { return v.colour_names[c]; };

  for (int c = 0; c < colours(); ++c)
    if (by_colour_[c].count() > MAX_PIECES_PER_COLOUR)
      fail(colour_name(c) + " has " + std::to_string(by_colour_[c].count()) + " pieces, at most " +
           std::to_string(MAX_PIECES_PER_COLOUR) + " are possible");

  for (int c = 0; c < colours(); ++c)
    if (BB bad = by_kind_[PAWN] & by_colour_[c] & t.promotion[c])  // it would have promoted
      fail("a " + colour_name(c) + " pawn cannot stand on " + name(bad.first()));

  for (int p = 0; p < players(); ++p) {
    const BB kings = pieces_of(p) & by_kind_[KING];
    if (meta_.status[p] == OUT) {
      if (pieces_of(p)) fail("player " + colour_name(p) + " is out but controls pieces");
    } else if (kings.count() != 1) {
      fail("player " + colour_name(p) + " has " + std::to_string(kings.count()) + " kings, expected 1");
    }
  }
  if (meta_.status[meta_.turn] != ACTIVE) fail("player to move " + colour_name(meta_.turn) + " is not active");

  for (int c = 0; c < colours(); ++c)
    for (int side = 0; side < 2; ++side) {
      if (!(meta_.castling >> (c * 2 + side) & 1)) continue;
      const auto& rule = t.castle[c][side];
      const std::string right = colour_name(c) + (side ? " long" : " short") + " castling right";
      if (meta_.controller[c] != c) fail(right + ": " + colour_name(c) + " is not controlled by its own player");
      if (board_[rule.king_from] != make_piece(c, KING)) fail(right + " needs the king on " + name(rule.king_from));
      if (board_[rule.rook_from] != make_piece(c, ROOK)) fail(right + " needs a rook on " + name(rule.rook_from));
    }

  for (int c = 0; c < colours(); ++c) {
    const int skipped = meta_.en_passant[c];
    if (skipped == NO_CELL) continue;
    const std::string right = "en-passant cell " + name(skipped);
    if (board_[skipped]) fail(right + " is occupied");
    if (board_[t.landing_of_skipped[skipped]] != make_piece(c, PAWN))
      fail(right + " needs a " + colour_name(c) + " pawn on " + name(t.landing_of_skipped[skipped]));
    if (meta_.controller[c] == NOBODY || meta_.controller[c] == meta_.turn)
      fail(right + " has expired: nobody else can take that pawn before " + colour_name(c) + " moves again");
  }

  if (!v.king_capture) {
    const int me = meta_.turn;
    for (int p = 0; p < players(); ++p) {
      if (!is_enemy(me, p)) continue;
      const int k = king_of(p);
      if (k != NO_CELL && attacked(k, pieces_of(me)))
        fail("the " + colour_name(p) + " king is in check but it is " + colour_name(me) + " to move");
    }
  }
}

template <int W>
std::string Position<W>::text() const {
  const Variant& v = *variant_;
  const Layout& lay = v.layout;
  const bool multi = v.multi_colour_text;
  std::string s;
  for (size_t r = 0; r < lay.rows.size(); ++r) {
    if (r) s += '/';
    int run = 0;
    for (int cell : lay.rows[r]) {
      const Piece p = board_[cell];
      if (!p) {
        ++run;
        continue;
      }
      if (run) s += std::to_string(run);
      run = 0;
      const char letter = KIND_LETTERS[kind_of(p)];
      if (multi) {
        s += v.colour_letters[colour_of(p)];
        s += letter;
      } else {
        s += colour_of(p) == 0 ? letter : char(std::tolower(letter));
      }
    }
    if (run) s += std::to_string(run);
  }
  s += ' ';
  s += v.colour_letters[meta_.turn];
  s += ' ';
  std::string castling;
  for (int c = 0; c < colours(); ++c) {
    const int rights = meta_.castling >> (2 * c) & 3;
    if (!rights) continue;
    if (multi) castling += v.colour_letters[c];
    for (int side = 0; side < 2; ++side) {
      if (!(rights >> side & 1)) continue;
      const char letter = side == 0 ? 'K' : 'Q';
      castling += (multi || c == 0) ? letter : char(std::tolower(letter));
    }
  }
  s += castling.empty() ? "-" : castling;
  s += ' ';
  std::string ep;
  for (int c = 0; c < colours(); ++c)
    if (meta_.en_passant[c] != NO_CELL) ep += (ep.empty() ? "" : ",") + lay.names[meta_.en_passant[c]];
  s += ep.empty() ? "-" : ep;
  s += ' ' + std::to_string(meta_.halfmove) + ' ' + std::to_string(meta_.fullmove);
  if (multi) {
    s += ' ';
    for (int c = 0; c < colours(); ++c)
      s += meta_.controller[c] == NOBODY ? '-' : v.colour_letters[meta_.controller[c]];
    s += ' ';
    for (int p = 0; p < players(); ++p) s += "afx"[meta_.status[p]];
    if (rules_.neutrality) {
      s += ' ';
      for (int p = 0; p < players(); ++p)
        s += meta_.last_capture[p] == NOBODY ? '-' : v.colour_letters[meta_.last_capture[p]];
    }
  }
  return s;
}

#define POLYCHESS_INSTANTIATE(W)                        \
  template void Position<W>::parse(const std::string&); \
  template void Position<W>::validate() const;          \
  template std::string Position<W>::text() const;
POLYCHESS_INSTANTIATE(1)
POLYCHESS_INSTANTIATE(2)
POLYCHESS_INSTANTIATE(3)
#undef POLYCHESS_INSTANTIATE

}  // namespace polychess
