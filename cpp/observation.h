// Observations for learning agents (docs/rl.md): a game's state as planes over the board's
// grid (Layout::grid_*), seen from the player to move. Cells are turned into his frame
// (Layout::turned), colours and players are numbered from him (0 is his own, 1 the next
// seat's, ...), so one network reads every seat alike.
//
// The planes, in order (C colours, P players, K kinds: the six, and the one-point queen where
// the game has it):
//   1      the board's cells (1 on a cell; the cross's corners and nothing else are 0)
//   C x K  pieces: colour c's pieces of kind k
//   C x P  control: 1 everywhere if colour c is player p's army (a dead or ownerless army has none)
//   P x 3  status: player p active, frozen (stalemated), out
//   C x 2  castling: colour c may still castle short, long
//   1      en passant: the cells a pawn may take en passant on
//   1      repetition: how often the position stood before, over 2 (at most 1)
//   1      quiet moves: moves without capture or pawn move over the rule's limit (at most 1)
//   P      points (only where points rank): player p's points over 100
#pragma once

#include <algorithm>
#include <cstring>

#include "game_state.h"

namespace polychess {

struct ObservationShape {
  int planes, rows, cols;
  int size() const { return planes * rows * cols; }
};

inline int observation_kinds(const Variant& v) {
  return std::find(v.promotion_kinds.begin(), v.promotion_kinds.end(), ONE_POINT_QUEEN) != v.promotion_kinds.end() ? 7
                                                                                                                   : 6;
}

inline ObservationShape observation_shape(const Variant& v, bool points) {
  const int c = v.colours(), p = v.players;
  return {1 + c * observation_kinds(v) + c * p + 3 * p + 2 * c + 3 + (points ? p : 0), v.layout.grid_rows,
          v.layout.grid_cols};
}

// Writes the observation of the state for its player to move into `out` (shape().size() floats).
template <int W>
void write_observation(const GameState<W>& state, float* out) {
  const Position<W>& pos = state.position();
  const Variant& v = pos.variant();
  const Layout& lay = v.layout;
  const bool points = state.rules().ranking == Ranking::POINTS;
  const ObservationShape shape = observation_shape(v, points);
  const int area = shape.rows * shape.cols, colours = v.colours(), players = v.players, kinds = observation_kinds(v);
  std::memset(out, 0, sizeof(float) * size_t(shape.size()));
  const int mover = pos.turn();
  const std::vector<int>& frame = lay.turned[mover];
  auto at = [&](int cell) { return lay.grid_index[frame[cell]]; };
  auto fill = [&](int plane, float value) { std::fill(out + plane * area, out + (plane + 1) * area, value); };
  auto colour_from = [&](int c) { return (c - mover % colours + colours) % colours; };
  auto player_from = [&](int p) { return (p - mover + players) % players; };

  int plane = 0;
  for (int cell = 0; cell < lay.cell_count; ++cell) out[at(cell)] = 1.0f;
  ++plane;
  const int pieces = plane;
  for (int cell = 0; cell < lay.cell_count; ++cell) {
    const Piece piece = pos.piece_at(cell);
    if (piece == NO_PIECE) continue;
    const int kind = kind_of(piece) == ONE_POINT_QUEEN ? (kinds == 7 ? 6 : QUEEN - 1) : kind_of(piece) - 1;
    out[(pieces + colour_from(colour_of(piece)) * kinds + kind) * area + at(cell)] = 1.0f;
  }
  plane += colours * kinds;
  const Meta& meta = pos.meta();
  for (int c = 0; c < colours; ++c) {
    const int owner = meta.controller[c];
    if (owner != NOBODY) fill(plane + colour_from(c) * players + player_from(owner), 1.0f);
  }
  plane += colours * players;
  for (int p = 0; p < players; ++p) fill(plane + player_from(p) * 3 + meta.status[p], 1.0f);
  plane += 3 * players;
  for (int c = 0; c < colours; ++c)
    for (int side = 0; side < 2; ++side)
      if (meta.castling >> (c * 2 + side) & 1) fill(plane + colour_from(c) * 2 + side, 1.0f);
  plane += 2 * colours;
  for (int c = 0; c < colours; ++c)
    if (meta.en_passant[c] != NO_CELL) out[plane * area + at(meta.en_passant[c])] = 1.0f;
  ++plane;
  fill(plane++, std::min(1.0f, float(std::max(0, state.occurrences() - 1)) / 2.0f));
  const int quiet_limit = state.rules().quiet_moves_per_player * std::max(1, players);
  fill(plane++, quiet_limit > 0 ? std::min(1.0f, float(meta.halfmove) / float(quiet_limit)) : 0.0f);
  if (points)
    for (int p = 0; p < players; ++p) fill(plane + player_from(p), float(state.facts().points[p]) / 100.0f);
}

}  // namespace polychess
