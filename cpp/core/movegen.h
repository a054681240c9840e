// Legal move generation for every variant, read only from the topology tables and the
// position.
//
// Pseudo-legal generation plus cheap filters where legality can fail: check and pin masks
// for ordinary moves, an attack test per target for king moves (with the king lifted off the
// board when in check), and a full test of the resulting position for the rare cases that
// change several lines at once (en passant, king capture with its army transfer).
//
// The generator writes into a Sink, so the same code either lists moves (MoveWriter) or only
// counts them (MoveCounter: perft's bulk counting at the leaves). With CAPTURES_ONLY it keeps
// captures and promotions only (the search's quiescence).
#pragma once

#include <bit>

#include "core/position.h"

namespace polychess {

struct MoveWriter {
  static constexpr bool STOPS_EARLY = false;
  static constexpr bool COUNTS_BY_SET = false;  // needs each move's cells
  Move* cur;
  const Kind* promotion_kinds;
  int promotion_count;

  template <int W>
  void add(int from, const Bitboard<W>& to) {
    for_each_cell(to, [&](int t) { *cur++ = make_move(from, t); });
  }
  template <int W>
  void add_promotions(int from, const Bitboard<W>& to) {
    for_each_cell(to, [&](int t) {
      for (int i = 0; i < promotion_count; ++i) *cur++ = make_promotion(from, t, promotion_kinds[i]);
    });
  }
  void add(Move m) { *cur++ = m; }
};

struct MoveCounter {
  static constexpr bool STOPS_EARLY = false;
  static constexpr bool COUNTS_BY_SET = true;  // needs only how many moves a set holds
  uint64_t count = 0;
  int promotion_count;

  template <int W>
  void add(int, const Bitboard<W>& to) {
    count += to.count();
  }
  template <int W>
  void add_promotions(int, const Bitboard<W>& to) {
    count += uint64_t(to.count()) * promotion_count;
  }
  void add(Move) { ++count; }
};

// Only whether there is a legal move: the generator stops at the first one it finds (the king's
// steps come first, the usual answer to a check).
struct MoveFinder {
  static constexpr bool STOPS_EARLY = true;
  static constexpr bool COUNTS_BY_SET = true;
  bool found = false;

  template <int W>
  void add(int, const Bitboard<W>& to) {
    found |= bool(to);
  }
  template <int W>
  void add_promotions(int, const Bitboard<W>& to) {
    found |= bool(to);
  }
  void add(Move) { found = true; }
};

template <int W, class Sink, bool CAPTURES_ONLY = false>
void generate_legal(const Position<W>& pos, Sink& sink) {
  using BB = Bitboard<W>;
  const Topology<W>& t = pos.topo();
  const int me = pos.turn();
  const int colours = pos.colours();
  const Meta& meta = pos.meta();
  if (meta.status[me] != ACTIVE) return;  // only active players move (docs/rules.md §0)
  const BB occ = pos.occupied();
  const BB kings = pos.kind_bb(KING);
  const BB queens = pos.kind_bb(QUEEN) | pos.kind_bb(ONE_POINT_QUEEN);
  const BB rook_likes = pos.kind_bb(ROOK) | queens;
  const BB bishop_likes = pos.kind_bb(BISHOP) | queens;

  // One pass over the armies: the mover's (Position::pieces_of), his active enemies'
  // (attacking_enemies_of), and those never captured by an ordinary move: own and partners'
  // pieces, and the kings of players still in the game (an enemy king is taken only by the
  // king-capture path below; a frozen king never). A dead king, which nobody controls, is an
  // ordinary dead piece.
  BB own = BB::empty(), attackers = BB::empty(), shielded = BB::empty();
  BB king_forbidden = BB::empty();  // kings may not step next to a frozen king
  uint32_t my_colours = 0;          // bit c: the mover controls colour c
  for (int c = 0; c < colours; ++c) {
    const int owner = meta.controller[c];
    if (owner == NOBODY) continue;
    const BB army = pos.colour_bb(c);
    if (owner == me) {
      my_colours |= 1u << c;
      own |= army;
      shielded |= army;
    } else if (!pos.is_enemy(me, owner)) {
      shielded |= army;
    } else if (meta.status[owner] == ACTIVE) {
      attackers |= army;
    }
    shielded |= army & kings;
    if (meta.status[owner] == FROZEN) for_each_cell(army & kings, [&](int k) { king_forbidden |= t.king[k]; });
  }
  // Under the neutrality option some opponents' pieces may not be captured this turn.
  uint32_t untouchable_players = 0;
  if (pos.rules().neutrality)
    for (int p = 0; p < pos.players(); ++p)
      if (p != me && pos.is_enemy(me, p) && !pos.neutrality_allows(me, p)) {
        untouchable_players |= 1u << p;
        shielded |= pos.pieces_of(p);
      }
  const BB targets = t.all.minus(shielded) & (CAPTURES_ONLY ? occ : t.all);

  const BB own_kings = own & kings;
  const int ksq = own_kings ? own_kings.first() : NO_CELL;
  BB checkers = BB::empty();
  BB evasion = t.all;
  BB pinned = BB::empty();
  struct Pin {
    int cell;
    BB allowed;
  } pins[2 * MAX_SLOTS];
  int pin_count = 0;

  if (ksq != NO_CELL) {
    if (pos.attacked(ksq, attackers)) checkers = pos.attackers_to(ksq, attackers);
    const BB snipers = ((t.rook_reach[ksq] & rook_likes) | (t.bishop_reach[ksq] & bishop_likes)) & attackers;
    for_each_cell(snipers, [&](int s) {
      const BB line = t.between(ksq, s);
      const BB blockers = line & occ;
      if (blockers && !blockers.more_than_one() && (blockers & own)) {
        pinned |= blockers;
        pins[pin_count++] = {blockers.first(), line | BB::cell(s)};
      }
    });

    const BB step_targets = t.king[ksq] & targets.minus(king_forbidden);
    if (step_targets) {
      // A step is safe if no enemy attacks its cell with the king gone from his own. Out of
      // check no enemy slider sees the king, so none sees through his cell either: only in
      // check is the king lifted off the board (a step back along the checker's line).
      FlippedOccupancy<W> lifted;
      if (checkers) {
        lifted.copy(t, pos.occupancy());
        lifted.flip(t, ksq);
      }
      const Occupancy<W> seen = checkers ? lifted.view() : pos.occupancy();
      BB steps = BB::empty();
      for_each_cell(step_targets, [&](int to) {
        if (!pos.attacked(to, attackers, seen)) steps.set(to);
      });
      sink.add(ksq, steps);
      if constexpr (Sink::STOPS_EARLY)
        if (sink.found) return;
    }
  }

  auto allowed_for_pinned = [&](int cell) {
    BB allowed = t.all;
    for (int i = 0; i < pin_count; ++i)
      if (pins[i].cell == cell) allowed &= pins[i].allowed;
    return allowed;
  };

  // Each checker must be captured or its line blocked. On the hexagon one cell can block two
  // lines at once (two diagonals fork from the centre), so even a double check may leave
  // moves other than the king's.
  for_each_cell(checkers, [&](int c) {
    BB answer = BB::cell(c);
    if ((rook_likes | bishop_likes).test(c)) answer |= t.between(ksq, c);
    evasion &= answer;
  });
  const Occupancy<W> occupancy = pos.occupancy();
  const BB pawns = own & pos.kind_bb(PAWN);
  // The cells the mover's pieces attack, gathered while their moves are listed: whether an enemy
  // king stands on one is the king-capture test's first question (asked below).
  BB attacked_by_me = BB::empty();
  bool attacked_by_me_known = false;
  if (evasion) {
    const BB mask = targets & evasion;
    auto emit = [&](int from, BB attacks) {
      attacked_by_me |= attacks;
      BB to = attacks & mask;
      if (pinned.test(from)) to &= allowed_for_pinned(from);
      sink.add(from, to);
    };
    for_each_cell(own & pos.kind_bb(KNIGHT), [&](int from) { emit(from, t.knight[from]); });
    for_each_cell(own & bishop_likes, [&](int from) { emit(from, t.bishop_attacks(from, occupancy)); });
    for_each_cell(own & rook_likes, [&](int from) { emit(from, t.rook_attacks(from, occupancy)); });
    if constexpr (Sink::STOPS_EARLY)
      if (sink.found) return;

    for (uint32_t left = pawns ? my_colours : 0; left; left &= left - 1) {
      const int pc = std::countr_zero(left);
      const BB colour_pawns = pawns & pos.colour_bb(pc);
      if (!colour_pawns) continue;
      const BB promotion = t.promotion[pc];
      auto emit_pawn_moves = [&](int from, BB to) {
        const BB promotions = to & promotion;
        sink.add(from, to.minus(promotions));
        if (promotions) sink.add_promotions(from, promotions);
      };
      BB one_by_one = colour_pawns;
      // A sink that only counts takes the unpinned pawns' moves as whole sets, one shift for
      // each distance a pawn of the colour moves (topology.h); the pinned ones one by one.
      if constexpr (Sink::COUNTS_BY_SET) {
        const auto& shifts = t.pawn_shifts[pc];
        if (shifts.by_sets) {
          const BB free = colour_pawns.minus(pinned);
          one_by_one = colour_pawns & pinned;
          const BB empty = t.all.minus(occ);
          const BB captures = occ & targets & evasion;
          for (int g = 0; g < shifts.capture_count; ++g) {
            const BB to = (free & shifts.capture[g].from).shifted(shifts.capture[g].by);
            attacked_by_me |= to;
            emit_pawn_moves(NO_CELL, to & captures);
          }
          const BB pushes = empty & evasion & (CAPTURES_ONLY ? promotion : t.all);
          for (int g = 0; g < shifts.push_count; ++g)
            emit_pawn_moves(NO_CELL, (free & shifts.push[g].from).shifted(shifts.push[g].by) & pushes);
          for (int g = 0; !CAPTURES_ONLY && g < shifts.double_count; ++g) {
            const auto& step = shifts.double_step[g];
            const BB skipped = (free & step.from).shifted(step.skip) & empty;
            emit_pawn_moves(NO_CELL, skipped.shifted(step.by - step.skip) & empty & evasion);
          }
        }
      }
      for_each_cell(one_by_one, [&](int from) {
        attacked_by_me |= t.pawn_capture[pc][from];
        BB to = t.pawn_capture[pc][from] & occ & targets;
        const int push = t.pawn_push[pc][from];
        if (push != NO_CELL && !occ.test(push) && (!CAPTURES_ONLY || promotion.test(push))) {
          to.set(push);
          const int dbl = t.pawn_double[pc][from];
          if (!CAPTURES_ONLY && dbl != NO_CELL && !occ.test(dbl)) to.set(dbl);
        }
        to &= evasion;
        if (pinned.test(from)) to &= allowed_for_pinned(from);
        emit_pawn_moves(from, to);
      });
    }
    for_each_cell(own & kings, [&](int k) { attacked_by_me |= t.king[k]; });
    attacked_by_me_known = true;

    if (!CAPTURES_ONLY && !checkers && ksq != NO_CELL) {
      for (uint32_t left = my_colours; left; left &= left - 1) {
        const int c = std::countr_zero(left);
        const int rights = meta.castling >> (2 * c) & 3;
        if (!rights) continue;
        for (int side = 0; side < 2; ++side) {
          if (!(rights >> side & 1)) continue;
          const auto& rule = t.castle[c][side];
          if (rule.king_from != ksq || (rule.must_be_empty & occ) || (rule.king_path & king_forbidden)) continue;
          bool safe = true;  // (not in check: the king's cell hides no attack, as for his steps)
          for_each_cell(rule.king_path, [&](int cell) { safe = safe && !pos.attacked(cell, attackers); });
          if (safe) sink.add(make_castling(ksq, rule.king_to, c, side));
        }
      }
    }
  }

  // En passant: any enemy colour's open right, taken by a pawn whose capture cells include
  // the skipped cell; tested on the resulting position (this also covers check evasion).
  for (int vc = 0; vc < colours; ++vc) {
    const int skipped = meta.en_passant[vc];
    const int victim = meta.controller[vc];
    if (skipped == NO_CELL || victim == NOBODY || !pos.is_enemy(me, victim) || (untouchable_players >> victim & 1))
      continue;
    const int landing = t.landing_of_skipped[skipped];
    for (uint32_t left = my_colours; left; left &= left - 1) {
      const int pc = std::countr_zero(left);
      for_each_cell(t.pawn_attackers[pc][skipped] & pawns & pos.colour_bb(pc), [&](int from) {
        if (ksq != NO_CELL) {
          FlippedOccupancy<W> after;
          after.copy(t, occupancy);
          for (int cell : {from, skipped, landing}) after.flip(t, cell);
          if (pos.attacked(ksq, attackers.minus(BB::cell(landing)), after.view())) return;
        }
        const Move move = make_en_passant(from, skipped, vc);
        if (t.promotion[pc].test(skipped))
          for (Kind k : pos.variant().promotion_kinds) sink.add(with_promotion(move, k));
        else sink.add(move);
      });
    }
  }

  // King capture (rules §1.6): judged after the victim's army has passed to the mover.
  // (Where the mover's attacks are known, no enemy king among them means no such capture.)
  if (pos.variant().king_capture && (!attacked_by_me_known || (attacked_by_me & kings & attackers))) {
    for (int victim = 0; victim < pos.players(); ++victim) {
      if (!pos.is_enemy(me, victim) || meta.status[victim] != ACTIVE || (untouchable_players >> victim & 1)) continue;
      const int target = pos.king_of(victim);
      if (target == NO_CELL) continue;
      if (attacked_by_me_known ? !attacked_by_me.test(target) : !pos.attacked(target, own)) continue;
      const BB remaining = attackers.minus(pos.pieces_of(victim));
      for_each_cell(pos.attackers_to(target, own), [&](int from) {
        if (ksq != NO_CELL) {
          const int king_after = from == ksq ? target : ksq;
          if (from == ksq && king_forbidden.test(target)) return;
          FlippedOccupancy<W> after;
          after.copy(t, pos.occupancy());
          after.flip(t, from);
          if (pos.attacked(king_after, remaining, after.view())) return;
        }
        const Piece attacker = pos.piece_at(from);
        if (kind_of(attacker) == PAWN && t.promotion[colour_of(attacker)].test(target))
          sink.add_promotions(from, BB::cell(target));
        else sink.add(make_move(from, target));
      });
    }
  }
}

// Writes the legal moves into `out` (room for MAX_MOVES) and returns how many.
template <int W>
inline int legal_moves(const Position<W>& pos, Move* out) {
  const auto& kinds = pos.variant().promotion_kinds;
  MoveWriter w{out, kinds.data(), int(kinds.size())};
  generate_legal(pos, w);
  return int(w.cur - out);
}

// The legal captures and promotions only.
template <int W>
inline int legal_captures(const Position<W>& pos, Move* out) {
  const auto& kinds = pos.variant().promotion_kinds;
  MoveWriter w{out, kinds.data(), int(kinds.size())};
  generate_legal<W, MoveWriter, true>(pos, w);
  return int(w.cur - out);
}

template <int W>
inline bool has_legal_move(const Position<W>& pos) {
  MoveFinder finder;
  generate_legal(pos, finder);
  return finder.found;
}

template <int W>
inline uint64_t count_legal_moves(const Position<W>& pos) {
  MoveCounter c{0, int(pos.variant().promotion_kinds.size())};
  generate_legal(pos, c);
  return c.count;
}

// Pieces of the active enemies of the player to move that attack his king.
template <int W>
inline Bitboard<W> checkers(const Position<W>& pos) {
  const int king = pos.king_of(pos.turn());
  if (king == NO_CELL) return Bitboard<W>::empty();
  return pos.attackers_to(king, pos.attacking_enemies_of(pos.turn()));
}

// Among the enemies whose pieces `attackers` attack the king of the player to move, the one
// credited with a mate (rules §1.7): who moved most recently, counting back from `last_mover`
// (by default the player before him in turn order); -1 if none of them.
template <int W>
inline int credited_mater(const Position<W>& pos, const Bitboard<W>& attackers, int last_mover = -1) {
  const int me = pos.turn(), n = pos.players();
  if (last_mover < 0) last_mover = (me + n - 1) % n;
  for (int back = 0; back < n; ++back) {
    const int p = ((last_mover - back) % n + n) % n;
    if (p != me && pos.meta().status[p] == ACTIVE && (attackers & pos.pieces_of(p))) return p;
  }
  return -1;
}

// If the player to move is checkmated, the player credited with the mate; otherwise -1. This
// is what the game layer and the search use to treat a mate as an elimination and to score it.
template <int W>
inline int mated_by(const Position<W>& pos, int last_mover = -1) {
  const Bitboard<W> attackers = checkers(pos);
  if (!attackers || has_legal_move(pos)) return -1;
  return credited_mater(pos, attackers, last_mover);
}

}  // namespace polychess
