// Observations for learning agents (docs/rl.md): a game's state as planes over the board's
// grid (Layout::grid_*), seen from one player (the viewer: usually the player to move). Cells
// are turned into his frame (Layout::turned), colours and players are numbered from him (0 is
// his own, 1 the next seat's, ...), so one network reads every seat alike.
//
// Written as float32 (every plane in [0, 1]) or as uint8 (the same 0/1 planes; the three
// counting planes hold their counts, at most 255: see write_observation).
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
// In uint8 the last three hold the counts themselves: times stood before, quiet plies, points.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/game_state.h"

namespace polychess {

struct ObservationShape {
  int planes, rows, cols;
  int size() const { return planes * rows * cols; }
  std::array<int, 3> dims() const { return {planes, rows, cols}; }
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

// The shape of a game's observations (with points planes where its players rank by points).
template <int W>
ObservationShape observation_shape(const GameState<W>& state) {
  return observation_shape(state.position().variant(), state.rules().ranking == Ranking::POINTS);
}

// A plane that counts: as float32 the count over its scale (at most 1 unless `capped` is false),
// as uint8 the count itself (at most 255).
template <typename T>
T counted(int count, int scale, bool capped = true) {
  if constexpr (std::is_same_v<T, uint8_t>) {
    return uint8_t(std::clamp(count, 0, 255));
  } else {
    static_assert(std::is_same_v<T, float>, "observations are float32 or uint8");
    if (scale <= 0) return 0.0f;
    const float value = float(std::max(0, count)) / float(scale);
    return capped ? std::min(1.0f, value) : value;
  }
}

// Writes the state's observation for `viewer` (a player) into `out`, room for shape.size() values.
template <int W, typename T>
void write_observation(const GameState<W>& state, int viewer, T* out) {
  const Position<W>& pos = state.position();
  const Variant& v = pos.variant();
  const Layout& lay = v.layout;
  const bool points = state.rules().ranking == Ranking::POINTS;
  const ObservationShape shape = observation_shape(state);
  const int area = shape.rows * shape.cols, colours = v.colours(), players = v.players, kinds = observation_kinds(v);
  std::memset(out, 0, sizeof(T) * size_t(shape.size()));
  const std::vector<int>& frame = lay.turned[viewer];
  auto at = [&](int cell) { return lay.grid_index[frame[cell]]; };
  auto fill = [&](int plane, T value) { std::fill(out + plane * area, out + (plane + 1) * area, value); };
  auto colour_from = [&](int c) { return (c - viewer % colours + colours) % colours; };
  auto player_from = [&](int p) { return (p - viewer + players) % players; };
  const T one = T(1);

  int plane = 0;
  for (int cell = 0; cell < lay.cell_count; ++cell) out[at(cell)] = one;
  ++plane;
  const int pieces = plane;
  for (int cell = 0; cell < lay.cell_count; ++cell) {
    const Piece piece = pos.piece_at(cell);
    if (piece == NO_PIECE) continue;
    const int kind = kind_of(piece) == ONE_POINT_QUEEN ? (kinds == 7 ? 6 : QUEEN - 1) : kind_of(piece) - 1;
    out[(pieces + colour_from(colour_of(piece)) * kinds + kind) * area + at(cell)] = one;
  }
  plane += colours * kinds;
  const Meta& meta = pos.meta();
  for (int c = 0; c < colours; ++c) {
    const int owner = meta.controller[c];
    if (owner != NOBODY) fill(plane + colour_from(c) * players + player_from(owner), one);
  }
  plane += colours * players;
  for (int p = 0; p < players; ++p) fill(plane + player_from(p) * 3 + meta.status[p], one);
  plane += 3 * players;
  for (int c = 0; c < colours; ++c)
    for (int side = 0; side < 2; ++side)
      if (meta.castling >> (c * 2 + side) & 1) fill(plane + colour_from(c) * 2 + side, one);
  plane += 2 * colours;
  for (int c = 0; c < colours; ++c)
    if (meta.en_passant[c] != NO_CELL) out[plane * area + at(meta.en_passant[c])] = one;
  ++plane;
  // Repetitions: the times the position stood before, over 2 (a third occurrence draws).
  fill(plane++, counted<T>(state.occurrences() - 1, 2));
  // Quiet moves: plies without capture or pawn move, over the draw rule's limit.
  fill(plane++, counted<T>(int(meta.halfmove), state.rules().quiet_moves_per_player * std::max(1, players)));
  // Points over 100 (free-for-all scores rarely pass 100; the float plane is not capped).
  if (points)
    for (int p = 0; p < players; ++p) fill(plane + player_from(p), counted<T>(state.facts().points[p], 100, false));
}

}  // namespace polychess
