// Static evaluation, derived from the board's topology rather than from board-specific
// constants: material and placement (placement.h's piece-square values, which the position
// sums as pieces move), then the position's own terms: mobility (cells each piece attacks
// that its owner does not occupy), king safety (enemy pieces within two king steps of the
// king, own pawns beside it, enemy attacks on the cells beside it, cells of them that two
// enemy pieces attack, two enemy players attacking at once) and threats (pieces
// attacked by cheaper enemy pieces, or attacked and not defended). Every term is a feature
// times the game's weight (evaluation_weights.h); positional terms follow KNIGHT_MOBILITY in
// the term order. Each term's weight tapers toward the endgame by its late twin's, times the
// player's lateness (the enemy pieces he no longer faces).
//
// The result is one value per player (the pieces of the colours he controls); the search
// turns that vector into a score for the side it plays for.
#pragma once

#include <algorithm>
#include <array>

#include "core/position.h"

namespace polychess {

constexpr int MAX_SHIELD_PAWNS = 3;
constexpr int PASSED_NEAR_STEPS = 6;  // a passed pawn this many pushes from promotion or more counts 0
constexpr int LATE_PIECES = 8;        // enemy pieces (beside pawns and kings) from which lateness counts

template <int W>
struct EvalTables {
  Bitboard<W> king_zone[MAX_CELLS];  // cells within two king steps
  // A pawn's way to promotion (its pushes, its own cell left out), and that way with the cells
  // from which a pawn of any colour takes on it: an enemy pawn there stops or takes it.
  Bitboard<W> pawn_way[MAX_COLOURS][MAX_CELLS];
  Bitboard<W> passed_span[MAX_COLOURS][MAX_CELLS];
  int8_t pushes_left[MAX_COLOURS][MAX_CELLS];  // to promotion; -1 where it cannot get there
  int8_t advance[MAX_COLOURS][MAX_CELLS];      // pushes made toward promotion (placement.h's)
  int8_t central[MAX_CELLS];                   // king steps closer to the centre than the farthest cell
};

template <int W>
const EvalTables<W>& eval_tables(const Topology<W>& topology);

// How far into the endgame `player` is: LATE_PIECES less the enemy pieces he faces beside
// pawns and kings, at least 0 (1 for each side at standard chess's start, 8 with only pawns
// and kings against him). The late twins' features are their terms' times it.
template <int W>
int lateness(const Position<W>& pos, int player) {
  const int pieces = pos.attacking_enemies_of(player).minus(pos.kind_bb(PAWN) | pos.kind_bb(KING)).count();
  return std::max(0, LATE_PIECES - pieces);
}

// Each player's material and placement, in centipawns; 0 for a player who is out. A quick
// estimate: the search settles positions far outside its window on it alone (mobility
// costs most of the evaluation's time).
template <int W>
std::array<int, MAX_PLAYERS> placement_values(const Position<W>& pos) {
  std::array<int, MAX_PLAYERS> value{};
  const bool tapered = pos.evaluation().late_placement;
  for (int c = 0; c < pos.colours(); ++c) {
    const int owner = pos.meta().controller[c];
    if (owner == NOBODY || pos.meta().status[owner] == OUT) continue;
    value[owner] += pos.placement(c);
    if (tapered) value[owner] += lateness(pos, owner) * pos.late_placement(c);
  }
  return value;
}

// Adds each player's positional features (mobility, king safety, threats) to `f`, which the
// caller zeroes; a player who is out gets none.
template <int W>
void add_positional_features(const Position<W>& pos, const EvalTables<W>& e, PlayerFeatures& f) {
  using BB = Bitboard<W>;
  const Topology<W>& t = pos.topo();
  const Occupancy<W> occ = pos.occupancy();
  const BB pawns = pos.kind_bb(PAWN), kings = pos.kind_bb(KING);
  const BB queens = pos.kind_bb(QUEEN) | pos.kind_bb(ONE_POINT_QUEEN);
  const BB rooks = pos.kind_bb(ROOK);
  const int players = pos.players();
  auto in = [&](int p) { return pos.meta().status[p] != OUT; };

  BB ring[MAX_PLAYERS];  // the cells beside each player's king
  for (int p = 0; p < players; ++p) {
    const int king = in(p) ? pos.king_of(p) : NO_CELL;
    ring[p] = king == NO_CELL ? BB::empty() : t.king[king];
  }
  // What each player's pieces attack: all of them, by the pawns, minor pieces and rooks, by
  // any piece but the king, and by two or more of them.
  BB attacks[MAX_PLAYERS], by_pawns[MAX_PLAYERS], by_minors[MAX_PLAYERS], by_rooks[MAX_PLAYERS];
  BB by_pieces[MAX_PLAYERS], by_two[MAX_PLAYERS];
  for (int p = 0; p < players; ++p)
    attacks[p] = by_pawns[p] = by_minors[p] = by_rooks[p] = by_pieces[p] = by_two[p] = BB::empty();

  for (int c = 0; c < pos.colours(); ++c) {
    const int owner = pos.meta().controller[c];
    if (owner == NOBODY || !in(owner)) continue;
    auto& mine_f = f[owner];
    const BB own = pos.pieces_of(owner);
    const BB mine = pos.colour_bb(c);
    auto count_attacks = [&](const BB& att) {
      by_two[owner] |= by_pieces[owner] & att;
      by_pieces[owner] |= att;
    };
    // The enemy king rings a piece's attacks bear on, counted by the ring's owner.
    auto bear_on_rings = [&](const BB& att, int ring_term) {
      for (int q = 0; q < players; ++q)
        if (pos.is_enemy(owner, q) && (att & ring[q])) f[q][ring_term] += (att & ring[q]).count();
    };
    // One piece's attacks: its mobility, and the enemy king rings it bears on.
    auto piece = [&](const BB& att, int mobility_term, int ring_term) {
      mine_f[mobility_term] += att.minus(own).count();
      count_attacks(att);
      bear_on_rings(att, ring_term);
    };
    for_each_cell(mine & pos.kind_bb(KNIGHT), [&](int cell) {
      piece(t.knight[cell], KNIGHT_MOBILITY, KING_RING_MINOR_ATTACKS);
      by_minors[owner] |= t.knight[cell];
    });
    for_each_cell(mine & pos.kind_bb(BISHOP), [&](int cell) {
      const BB att = t.bishop_attacks(cell, occ);
      piece(att, BISHOP_MOBILITY, KING_RING_MINOR_ATTACKS);
      by_minors[owner] |= att;
    });
    for_each_cell(mine & pos.kind_bb(ROOK), [&](int cell) {
      const BB att = t.rook_attacks(cell, occ);
      piece(att, ROOK_MOBILITY, KING_RING_ROOK_ATTACKS);
      by_rooks[owner] |= att;
    });
    for_each_cell(mine & queens, [&](int cell) {
      piece(t.bishop_attacks(cell, occ) | t.rook_attacks(cell, occ), QUEEN_MOBILITY, KING_RING_QUEEN_ATTACKS);
    });
    const BB enemy_pawns = pawns & pos.attacking_enemies_of(owner);
    for_each_cell(mine & pawns, [&](int cell) {
      const BB att = t.pawn_capture[c][cell];
      by_pawns[owner] |= att;
      count_attacks(att);
      bear_on_rings(att, KING_RING_PAWN_ATTACKS);
      if (e.pawn_way[c][cell] & mine & pawns) ++mine_f[DOUBLED_PAWN];
      if (e.pushes_left[c][cell] > 0 && !(e.passed_span[c][cell] & enemy_pawns)) {
        ++mine_f[PASSED_PAWN];
        mine_f[PASSED_PAWN_NEAR] += std::max(0, PASSED_NEAR_STEPS - e.pushes_left[c][cell]);
      }
    });
    if ((mine & pos.kind_bb(BISHOP)).count() >= 2) ++mine_f[BISHOP_PAIR];
    attacks[owner] |= by_pieces[owner];
    for_each_cell(mine & kings, [&](int cell) {
      attacks[owner] |= t.king[cell];
      const BB near_enemies = (e.king_zone[cell] & pos.attacking_enemies_of(owner)).minus(pawns);
      mine_f[KING_ZONE_ENEMIES] += near_enemies.count();
      mine_f[KING_SHIELD] += std::min(MAX_SHIELD_PAWNS, (t.king[cell] & mine & pawns).count());
    });
  }
  for (int p = 0; p < players; ++p) {
    if (!in(p)) continue;
    BB enemy = BB::empty(), enemy_pawns = BB::empty(), enemy_minors = BB::empty(), enemy_rooks = BB::empty();
    BB enemy_pieces = BB::empty(), enemy_two = BB::empty();
    BB friendly = BB::empty();
    int ring_attackers = 0;  // enemy players whose pieces attack p's ring
    for (int q = 0; q < players; ++q) {
      if (!in(q)) continue;
      if (pos.is_enemy(p, q)) {
        enemy |= attacks[q];
        enemy_pawns |= by_pawns[q];
        enemy_minors |= by_minors[q];
        enemy_rooks |= by_rooks[q];
        enemy_two |= by_two[q] | (enemy_pieces & by_pieces[q]);
        enemy_pieces |= by_pieces[q];
        ring_attackers += bool(by_pieces[q] & ring[p]);
      } else {
        friendly |= attacks[q];
      }
    }
    f[p][KING_RING_DOUBLE_ATTACKS] += (enemy_two & ring[p]).count();
    f[p][KING_RING_JOINT_ATTACK] += ring_attackers >= 2;
    const BB own = pos.pieces_of(p);
    if (!(own & enemy)) continue;
    f[p][THREATENED_BY_PAWN] += (own.minus(pawns | kings) & enemy_pawns).count();
    f[p][THREATENED_BY_MINOR] += (own & (rooks | queens) & enemy_minors).count();
    f[p][THREATENED_BY_ROOK] += (own & queens & enemy_rooks).count();
    f[p][HANGING] += (own.minus(kings) & enemy).minus(friendly).count();
  }
}

// Each player's positional value: his positional features under the position's weights.
template <int W>
std::array<int, MAX_PLAYERS> positional_values(const Position<W>& pos, const EvalTables<W>& e) {
  PlayerFeatures f{};
  add_positional_features(pos, e, f);
  const PlacementTable& table = pos.evaluation();
  const EvalWeights& w = table.weights;
  std::array<int, MAX_PLAYERS> value{};
  for (int p = 0; p < pos.players(); ++p) {
    if (pos.meta().status[p] == OUT) continue;
    const int late = table.late_positional ? lateness(pos, p) : 0;
    for (int term = KNIGHT_MOBILITY; term < BASE_TERM_COUNT; ++term)
      value[p] += (w[term] + late * w[late_twin(term)]) * f[p][term];
  }
  return value;
}

// Each player's whole evaluation: placement plus positional terms.
template <int W>
std::array<int, MAX_PLAYERS> evaluate_players(const Position<W>& pos, const EvalTables<W>& e) {
  std::array<int, MAX_PLAYERS> value = placement_values(pos);
  const std::array<int, MAX_PLAYERS> positional = positional_values(pos, e);
  for (int p = 0; p < MAX_PLAYERS; ++p) value[p] += positional[p];
  return value;
}

// Every feature of every player, placement included: the evaluation is their dot product
// with the weights (what `polychess tune` fits).
template <int W>
PlayerFeatures evaluation_features(const Position<W>& pos, const EvalTables<W>& e) {
  PlayerFeatures f{};
  int piece[TERM_COUNT];
  for (int c = 0; c < pos.colours(); ++c) {
    const int owner = pos.meta().controller[c];
    if (owner == NOBODY || pos.meta().status[owner] == OUT) continue;
    for_each_cell(pos.colour_bb(c), [&](int cell) {
      placement_features(pos.variant().layout, c, kind_of(pos.piece_at(cell)), cell, piece);
      for (int term = 0; term < TERM_COUNT; ++term) f[owner][term] += piece[term];
    });
  }
  add_positional_features(pos, e, f);
  for (int p = 0; p < pos.players(); ++p) {
    if (pos.meta().status[p] == OUT) continue;
    const int late = lateness(pos, p);
    for (int term = 0; term < BASE_TERM_COUNT; ++term) f[p][late_twin(term)] = late * f[p][term];
  }
  return f;
}

}  // namespace polychess
