#include "learn/actions.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <utility>

namespace polychess {
namespace {

// Every pair of cells a move can join, and those a pawn can promote on, on the board's own
// cells (not yet turned: the sets hold every colour's moves, so they are the same in each frame).
struct Pairs {
  std::set<std::pair<int, int>> all, promoting;
};

Pairs board_pairs(const Layout& lay) {
  Pairs pairs;
  for (int cell = 0; cell < lay.cell_count; ++cell) {
    auto add_rays = [&](const std::vector<CellList>& rays) {
      for (const CellList& ray : rays)
        for (int to : ray) pairs.all.insert({cell, to});
    };
    add_rays(lay.rook_rays[cell]);
    add_rays(lay.bishop_rays[cell]);
    for (int to : lay.knight_targets[cell]) pairs.all.insert({cell, to});
    for (int to : lay.king_targets[cell]) pairs.all.insert({cell, to});
  }
  for (int colour = 0; colour < lay.colour_count; ++colour) {
    const CellList& promotions = lay.promotion_cells[colour];
    auto pawn_move = [&](int from, int to) {
      if (to == NO_CELL) return;
      pairs.all.insert({from, to});
      if (std::find(promotions.begin(), promotions.end(), to) != promotions.end()) pairs.promoting.insert({from, to});
    };
    for (int cell = 0; cell < lay.cell_count; ++cell) {
      pawn_move(cell, lay.pawn_push[colour][cell]);
      pawn_move(cell, lay.pawn_double_step[colour][cell]);
      for (int to : lay.pawn_captures[colour][cell]) pawn_move(cell, to);
    }
  }
  return pairs;
}

// The same pairs in seat 0's frame: each pair as every seat sees it, so that a pair one seat
// can play has a code whoever plays it.
std::set<std::pair<int, int>> in_every_frame(const std::set<std::pair<int, int>>& pairs, const Layout& lay) {
  std::set<std::pair<int, int>> out;
  for (const auto& [from, to] : pairs)
    for (const auto& frame : lay.turned) out.insert({frame[from], frame[to]});
  return out;
}

ActionSpace build(const Variant& v) {
  const Layout& lay = v.layout;
  ActionSpace s;
  s.cells = lay.cell_count;
  s.frame = &lay.turned;
  s.board.assign(lay.colour_count, std::vector<int>(s.cells));
  for (int seat = 0; seat < lay.colour_count; ++seat)
    for (int cell = 0; cell < s.cells; ++cell) s.board[seat][lay.turned[seat][cell]] = cell;
  s.queen = v.promotion_kinds.front();
  const Pairs pairs = board_pairs(lay);
  const auto all = in_every_frame(pairs.all, lay);
  const auto promoting = in_every_frame(pairs.promoting, lay);
  s.plain.assign(size_t(s.cells) * s.cells, -1);
  s.under.assign(size_t(s.cells) * s.cells, -1);
  auto add = [&](int from, int to, Kind promotion) {
    s.from.push_back(int16_t(from));
    s.to.push_back(int16_t(to));
    s.promotion.push_back(int8_t(promotion));
    return int(s.from.size()) - 1;
  };
  for (const auto& [from, to] : all) {
    const size_t pair = size_t(from) * s.cells + to;
    s.plain[pair] = add(from, to, NO_KIND);
    if (!promoting.count({from, to})) continue;
    for (size_t k = 1; k < v.promotion_kinds.size(); ++k) {
      const int code = add(from, to, v.promotion_kinds[k]);
      if (k == 1) s.under[pair] = code;
    }
  }
  s.size = int(s.from.size());
  return s;
}

}  // namespace

const ActionSpace& action_space(const Variant& v) {
  static std::mutex lock;
  static std::map<const Variant*, std::unique_ptr<ActionSpace>> spaces;
  std::lock_guard<std::mutex> guard(lock);
  auto& space = spaces[&v];
  if (!space) space = std::make_unique<ActionSpace>(build(v));
  return *space;
}

std::string action_codes_text(const ActionSpace& s) {
  return "the action codes are whole numbers from 0 to " + std::to_string(s.size - 1);
}

std::string not_an_action(const ActionSpace& s, const std::string& value) {
  return "no action " + value + ": " + action_codes_text(s);
}

int encode_action(const ActionSpace& s, int seat, Move m) {
  const std::vector<int>& frame = (*s.frame)[seat];
  const int from = frame[move_from(m)], to = frame[move_to(m)];
  const size_t pair = size_t(from) * s.cells + to;
  const Kind promotion = move_promotion(m);
  if (promotion == NO_KIND || promotion == s.queen) return s.plain[pair];
  const int first = s.under[pair];
  if (first < 0) return -1;
  for (int code = first; code < s.size && s.from[code] == from && s.to[code] == to; ++code)
    if (s.promotion[code] == promotion) return code;
  return -1;
}

void write_action_mask(const ActionSpace& s, int seat, const Move* moves, int count, int8_t* mask) {
  std::memset(mask, 0, size_t(s.size));
  for (int i = 0; i < count; ++i) mask[encode_action(s, seat, moves[i])] = 1;
}

std::vector<int> action_codes(const ActionSpace& space, int seat, const Move* moves, int count) {
  std::vector<int> codes(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) codes[i] = encode_action(space, seat, moves[i]);
  std::sort(codes.begin(), codes.end());
  return codes;
}

Move action_move(const ActionSpace& s, int code) {
  const Kind k = Kind(s.promotion[code]);
  return k == NO_KIND ? make_move(s.from[code], s.to[code]) : make_promotion(s.from[code], s.to[code], k);
}

Move decode_action(const ActionSpace& s, int seat, int code, const Move* moves, int count) {
  if (!is_action_code(s, code)) return MOVE_NONE;
  const int from = s.board[seat][s.from[code]], to = s.board[seat][s.to[code]];
  const Kind promotion = Kind(s.promotion[code]);
  for (int i = 0; i < count; ++i) {
    const Move m = moves[i];
    if (move_from(m) != from || move_to(m) != to) continue;
    const Kind k = move_promotion(m);
    if (promotion == NO_KIND ? (k == NO_KIND || k == s.queen) : k == promotion) return m;
  }
  return MOVE_NONE;
}

}  // namespace polychess
