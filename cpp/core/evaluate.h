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

#include "core/eval_tables.h"
#include "core/pawn_structure.h"
#include "core/position.h"

namespace polychess {

constexpr int MAX_SHIELD_PAWNS = 3;
constexpr int LATE_PIECES = 8;  // enemy pieces (beside pawns and kings) from which lateness counts

// How far into the endgame each player is: LATE_PIECES less the enemy pieces he faces beside
// pawns and kings (those of active players on another team), at least 0 (1 for each side at
// standard chess's start, 8 with only pawns and kings against him). The late twins' features
// are their terms' times it. Each colour's pieces are counted once for all the players.
template <int W>
std::array<int, MAX_PLAYERS> lateness(const Position<W>& pos) {
  const Bitboard<W> pieces = pos.occupied().minus(pos.kind_bb(PAWN) | pos.kind_bb(KING));
  // The pieces of the colours active players play, in all and by team: a player faces those of
  // every team but his own.
  int all = 0, by_team[MAX_PLAYERS] = {};
  for (int c = 0; c < pos.colours(); ++c) {
    const int owner = pos.meta().controller[c];
    if (owner == NOBODY || pos.meta().status[owner] != ACTIVE) continue;
    const int n = (pos.colour_bb(c) & pieces).count();
    all += n;
    by_team[pos.team(owner)] += n;
  }
  std::array<int, MAX_PLAYERS> late{};
  for (int p = 0; p < pos.players(); ++p) late[p] = std::max(0, LATE_PIECES - (all - by_team[pos.team(p)]));
  return late;
}

// Each player's material and placement, in centipawns; 0 for a player who is out. A quick
// estimate: the search settles positions far outside its window on it alone (mobility
// costs most of the evaluation's time).
template <int W>
std::array<int, MAX_PLAYERS> placement_values(const Position<W>& pos) {
  std::array<int, MAX_PLAYERS> value{};
  int late_placement[MAX_PLAYERS] = {};
  for (int c = 0; c < pos.colours(); ++c) {
    const int owner = pos.meta().controller[c];
    if (owner == NOBODY || pos.meta().status[owner] == OUT) continue;
    value[owner] += pos.placement(c);
    late_placement[owner] += pos.late_placement(c);
  }
  if (pos.evaluation().late_placement) {
    const std::array<int, MAX_PLAYERS> late = lateness(pos);
    for (int p = 0; p < pos.players(); ++p) value[p] += late[p] * late_placement[p];
  }
  return value;
}

// Adds each player's positional features (mobility, king safety, threats, and the pawn
// structure the caller counted) to `f`, which the caller zeroes; a player who is out gets none.
template <int W>
void add_positional_features(const Position<W>& pos, const EvalTables<W>& e, const PawnStructure& structure,
                             PlayerFeatures& f) {
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
    // The enemy king rings a piece's attacks bear on, counted by the ring's owner; most pieces
    // bear on none, which one test of their union tells.
    BB enemy_rings = BB::empty();
    for (int q = 0; q < players; ++q)
      if (pos.is_enemy(owner, q)) enemy_rings |= ring[q];
    auto bear_on_rings = [&](const BB& att, int ring_term) {
      if (!(att & enemy_rings)) return;
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
    for_each_cell(mine & pawns, [&](int cell) {
      const BB att = t.pawn_capture[c][cell];
      by_pawns[owner] |= att;
      count_attacks(att);
      bear_on_rings(att, KING_RING_PAWN_ATTACKS);
    });
    mine_f[PASSED_PAWN] += structure.passed[c];
    mine_f[PASSED_PAWN_NEAR] += structure.passed_near[c];
    mine_f[DOUBLED_PAWN] += structure.doubled[c];
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

// Each player's positional value: his positional features under the position's weights. The
// pawn structure is read from `cache` where one is given (a search's), else counted on the
// board; not at all where no weight asks for it.
template <int W>
std::array<int, MAX_PLAYERS> positional_values(const Position<W>& pos, const EvalTables<W>& e,
                                               PawnStructureCache* cache = nullptr) {
  const PlacementTable& table = pos.evaluation();
  const PawnStructure structure = !table.pawn_structure ? PawnStructure{}
                                  : cache               ? cache->probe(pos, e)
                                                        : pawn_structure(pos, e);
  PlayerFeatures f{};
  add_positional_features(pos, e, structure, f);
  const EvalWeights& w = table.weights;
  std::array<int, MAX_PLAYERS> value{};
  const std::array<int, MAX_PLAYERS> late = table.late_positional ? lateness(pos) : std::array<int, MAX_PLAYERS>{};
  for (int p = 0; p < pos.players(); ++p) {
    if (pos.meta().status[p] == OUT) continue;
    // The sum of (w + late * w_late) * f, as two dot products and one multiplication
    int early = 0, late_part = 0;
    for (int term = KNIGHT_MOBILITY; term < BASE_TERM_COUNT; ++term) {
      early += w[term] * f[p][term];
      late_part += w[late_twin(term)] * f[p][term];
    }
    value[p] = early + late[p] * late_part;
  }
  return value;
}

// Each player's whole evaluation: placement plus positional terms.
template <int W>
std::array<int, MAX_PLAYERS> evaluate_players(const Position<W>& pos, const EvalTables<W>& e,
                                              PawnStructureCache* cache = nullptr) {
  std::array<int, MAX_PLAYERS> value = placement_values(pos);
  const std::array<int, MAX_PLAYERS> positional = positional_values(pos, e, cache);
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
  add_positional_features(pos, e, pawn_structure(pos, e), f);
  const std::array<int, MAX_PLAYERS> late = lateness(pos);
  for (int p = 0; p < pos.players(); ++p) {
    if (pos.meta().status[p] == OUT) continue;
    for (int term = 0; term < BASE_TERM_COUNT; ++term) f[p][late_twin(term)] = late[p] * f[p][term];
  }
  return f;
}

// Calls visit(player, index, count) for each cell weight a player's pieces stand on (index
// into CellWeights): its base weight once, its late twin lateness times.
template <int W, class Visit>
void for_each_cell_weight(const Position<W>& pos, Visit visit) {
  const Layout& layout = pos.variant().layout;
  const std::array<int, MAX_PLAYERS> late = lateness(pos);
  for (int c = 0; c < pos.colours(); ++c) {
    const int owner = pos.meta().controller[c];
    if (owner == NOBODY || pos.meta().status[owner] == OUT) continue;
    for_each_cell(pos.colour_bb(c), [&](int cell) {
      const int index = cell_weight_index(layout, c, kind_of(pos.piece_at(cell)), cell);
      visit(owner, index, 1);
      visit(owner, CELL_KINDS * layout.cell_count + index, late[owner]);
    });
  }
}

// Every player's part of the evaluation that comes from the game's cell weights (placement.h):
// what the evaluation adds to the dot product of the features and the weights.
template <int W>
std::array<int, MAX_PLAYERS> cell_values(const Position<W>& pos) {
  std::array<int, MAX_PLAYERS> value{};
  const CellWeights& cells = pos.evaluation().cells;
  if (!cells.empty())
    for_each_cell_weight(pos, [&](int player, int index, int count) { value[player] += count * cells[index]; });
  return value;
}

}  // namespace polychess
