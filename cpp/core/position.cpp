#include "core/position.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>

namespace polychess {

template <int W>
void Position<W>::clear() {
  for (auto& p : board_) p = NO_PIECE;
  for (auto& b : by_colour_) b = BB::empty();
  for (auto& b : by_kind_) b = BB::empty();
  occupied_ = BB::empty();
  for (auto& w : line_occ_) w = 0;
  for (auto& v : placement_) v = 0;
  for (auto& v : late_placement_) v = 0;
  meta_ = Meta{};
  for (auto& e : meta_.en_passant) e = NO_CELL;
  for (int c = 0; c < MAX_COLOURS; ++c) meta_.controller[c] = c < colours() ? uint8_t(c) : NOBODY;
  for (auto& s : meta_.status) s = ACTIVE;
  for (auto& v : meta_.last_capture) v = NOBODY;
  for (int p = 0; p < MAX_PLAYERS; ++p) team_[p] = uint8_t(variant_->teams ? p % 2 : p);
  meta_.fullmove = 1;
  history_.clear();
}

template <int W>
Position<W>::Position(const Variant& variant, const Rules& rules)
    : variant_(&variant), topo_(&topology_of<W>(variant)), placement_table_(&placement_table(variant)), rules_(rules) {
  check_rules();
  clear();
  for (auto [cell, piece] : variant.layout.geometry->start_position()) put(cell, piece);
  meta_.castling = uint8_t((1u << (2 * colours())) - 1);
  meta_.key = compute_key();
}

template <int W>
Position<W>::Position(const Variant& variant, const std::string& text, const Rules& rules)
    : variant_(&variant), topo_(&topology_of<W>(variant)), placement_table_(&placement_table(variant)), rules_(rules) {
  check_rules();
  clear();
  parse(text);
  validate();
  meta_.key = compute_key();
}

template <int W>
uint64_t Position<W>::compute_key() const {
  const auto& z = zobrist();
  uint64_t k = 0;
  for (int cell = 0; cell < topo_->cell_count; ++cell)
    if (board_[cell]) k ^= z.piece[colour_of(board_[cell])][kind_of(board_[cell])][cell];
  k ^= z.turn[meta_.turn] ^ z.castling[meta_.castling];
  for (int c = 0; c < colours(); ++c) {
    if (meta_.en_passant[c] != NO_CELL) k ^= z.en_passant[meta_.en_passant[c]];
    k ^= z.controller[c][meta_.controller[c]];
  }
  for (int p = 0; p < players(); ++p) {
    k ^= z.status[p][meta_.status[p]];
    if (rules_.neutrality) k ^= z.last_capture[p][meta_.last_capture[p]];
  }
  return k;
}

template <int W>
void Position<W>::set_controller(int colour, int player) {
  const auto& z = zobrist();
  meta_.key ^= z.controller[colour][meta_.controller[colour]] ^ z.controller[colour][player];
  meta_.controller[colour] = uint8_t(player);
  // A colour that changes hands loses its castling and en-passant rights (docs/rules.md §1.8).
  set_castling(meta_.castling & ~uint8_t(3u << (2 * colour)));
  set_en_passant(colour, NO_CELL);
}

template <int W>
void Position<W>::set_status(int player, Status status) {
  const auto& z = zobrist();
  meta_.key ^= z.status[player][meta_.status[player]] ^ z.status[player][status];
  meta_.status[player] = status;
  if (status != ACTIVE) {
    // A player who will not move again cannot end his en-passant rights by moving.
    for (int c = 0; c < colours(); ++c)
      if (meta_.controller[c] == player) set_en_passant(c, NO_CELL);
    if (meta_.turn == player) pass_turn_from(player);
  }
}

template <int W>
void Position<W>::transfer_army(int victim, int to_player) {
  for (int c = 0; c < colours(); ++c)
    if (meta_.controller[c] == victim) set_controller(c, to_player);
  set_status(victim, OUT);
}

template <int W>
void Position<W>::event_set_controller(int colour, int player) {
  history_.push_back(Undo{meta_, MOVE_NONE, NO_PIECE, NO_CELL});
  set_controller(colour, player);
}

template <int W>
void Position<W>::event_remove_king(int colour) {
  const int cell = (by_colour_[colour] & by_kind_[KING]).first();  // the caller checked there is one
  history_.push_back(Undo{meta_, MOVE_NONE, board_[cell], int16_t(cell)});
  remove(cell);
  set_castling(meta_.castling & ~uint8_t(3u << (2 * colour)));  // no king, no castling
  // remove() changed the key; the saved meta keeps the old one for unmake().
}

template <int W>
void Position<W>::event_set_status(int player, Status status) {
  history_.push_back(Undo{meta_, MOVE_NONE, NO_PIECE, NO_CELL});
  set_status(player, status);
}

template <int W>
void Position<W>::event_eliminate(int player, int by, bool keep_king) {
  const int king = keep_king ? NO_CELL : king_of(player);
  history_.push_back(Undo{meta_, MOVE_NONE, king == NO_CELL ? NO_PIECE : board_[king], int16_t(king)});
  if (king != NO_CELL) remove(king);
  transfer_army(player, by);
}

template <int W>
std::vector<Move> Position<W>::moves_played() const {
  std::vector<Move> moves;
  for (const Undo& u : history_)
    if (u.move != MOVE_NONE) moves.push_back(u.move);
  return moves;
}

template <int W>
Move Position<W>::take_back_move() {
  if (std::none_of(history_.begin(), history_.end(), [](const Undo& u) { return u.move != MOVE_NONE; }))
    return MOVE_NONE;
  while (history_.back().move == MOVE_NONE) unmake();
  const Move last = history_.back().move;
  unmake();
  return last;
}

// The rule of neutrality weighs what one player's captures did to another against a third.
template <int W>
void Position<W>::check_rules() const {
  if (rules_.neutrality && variant_->players != 3)
    throw std::invalid_argument("the rule of neutrality is for three players; " + variant_->name + " has " +
                                std::to_string(variant_->players));
}

template <int W>
Position<W> Position<W>::as_turn_of(int player) const {
  Position copy(*variant_, rules_);
  std::copy(std::begin(board_), std::end(board_), std::begin(copy.board_));
  std::copy(std::begin(by_colour_), std::end(by_colour_), std::begin(copy.by_colour_));
  std::copy(std::begin(by_kind_), std::end(by_kind_), std::begin(copy.by_kind_));
  copy.occupied_ = occupied_;
  std::copy(std::begin(line_occ_), std::end(line_occ_), std::begin(copy.line_occ_));
  std::copy(std::begin(placement_), std::end(placement_), std::begin(copy.placement_));
  std::copy(std::begin(late_placement_), std::end(late_placement_), std::begin(copy.late_placement_));
  copy.meta_ = meta_;
  copy.meta_.turn = uint8_t(player);
  copy.meta_.key = copy.compute_key();
  return copy;
}

template class Position<1>;
template class Position<2>;
template class Position<3>;

}  // namespace polychess
