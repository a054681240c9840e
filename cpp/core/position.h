// The position: pieces by cell and as bitboards, line occupancy words for the sliders
// (topology.h), and the small "meta" state that make() saves and unmake() restores wholesale:
// key, castling rights, one en-passant slot per colour, who controls each colour, each
// player's status, the player to move and the clocks.
//
// The undo history lives inside the position, so a Position is self-contained and copyable.
// Besides moves, the history records "events": the primitives the game layer applies between
// moves (eliminating or freezing a player, transferring an army, removing a king), so that
// unmake() can take back those as well.
#pragma once

#include <string>
#include <vector>

#include "core/placement.h"
#include "core/topology.h"
#include "core/zobrist.h"
#include "games/rules.h"

namespace polychess {

struct Meta {
  uint64_t key;
  int16_t en_passant[MAX_COLOURS];  // skipped cell, or NO_CELL
  uint8_t castling;                 // bit colour*2 + side
  uint8_t turn;
  uint8_t controller[MAX_COLOURS];  // player, or NOBODY
  uint8_t status[MAX_PLAYERS];
  uint16_t halfmove;
  uint32_t fullmove;
  // Whose pieces each player captured on his most recent move (NOBODY: none); kept for the
  // neutrality option (docs/rules.md §1.11), and in the key only when that option is on.
  uint8_t last_capture[MAX_PLAYERS];
};

struct Undo {
  Meta meta;
  Move move;           // MOVE_NONE for an event
  Piece captured;      // by the move, or the king an event removed
  int16_t event_cell;  // where that king stood
};

template <int W>
class Position {
 public:
  using BB = Bitboard<W>;
  static constexpr int WIDTH = W;

  // The start position of the variant, played by `rules` (fixed for the life of the position:
  // neutrality decides which captures are legal, the army rule what a king capture does).
  // Throws std::invalid_argument for rules the board cannot play (neutrality without three players).
  explicit Position(const Variant& variant, const Rules& rules = {});
  // Parses a position string; throws InvalidPosition naming the problem.
  Position(const Variant& variant, const std::string& text, const Rules& rules = {});

  std::string text() const;  // the position string (FEN for standard chess)

  const Variant& variant() const { return *variant_; }
  const Topology<W>& topo() const { return *topo_; }
  int players() const { return variant_->players; }
  const Rules& rules() const { return rules_; }
  // Under the neutrality option: may `player` capture pieces of `victim` now?
  bool neutrality_allows(int player, int victim) const;
  int colours() const { return variant_->colours(); }

  Piece piece_at(int cell) const { return board_[cell]; }
  // Whether a move of this position takes a piece (castling moves the king to an empty cell).
  bool is_capture(Move m) const { return board_[move_to(m)] != NO_PIECE || move_type(m) == EN_PASSANT; }
  BB occupied() const { return occupied_; }
  BB colour_bb(int colour) const { return by_colour_[colour]; }
  BB kind_bb(Kind k) const { return by_kind_[k]; }
  Occupancy<W> occupancy() const { return {occupied_, line_occ_}; }
  // The colour's material and placement (placement.h), kept up to date move by move.
  int placement(int colour) const { return placement_[colour]; }
  // And its late twins' part, which the evaluation multiplies by the owner's lateness.
  int late_placement(int colour) const { return late_placement_[colour]; }
  // The evaluation the position was made with: its weights and placement values.
  const PlacementTable& evaluation() const { return *placement_table_; }
  const Meta& meta() const { return meta_; }
  int turn() const { return meta_.turn; }
  uint64_t key() const { return meta_.key; }
  const std::vector<Undo>& history() const { return history_; }

  // Pieces of the colours the player controls.
  BB pieces_of(int player) const;
  // Pieces that attack for the player's enemies: those of active players on another team.
  BB attacking_enemies_of(int player) const;
  bool is_enemy(int player, int other) const { return other != player && team_[other] != team_[player]; }
  // The player's side: his own seat, or (four-player teams) the lower seat of his partnership.
  int team(int player) const { return team_[player]; }
  // The player's king cell, or NO_CELL.
  int king_of(int player) const;
  // Every piece of `among` that attacks `cell`, with sliders seeing through `occ`.
  BB attackers_to(int cell, BB among, Occupancy<W> occ) const;
  BB attackers_to(int cell, BB among) const { return attackers_to(cell, among, occupancy()); }
  // Whether attackers_to(cell, among, occ) has any piece: the question of every legality
  // test, answered at the first attacker found.
  bool attacked(int cell, BB among, Occupancy<W> occ) const;
  bool attacked(int cell, BB among) const { return attacked(cell, among, occupancy()); }
  // Whether the player's king is attacked by the pieces of his active enemies.
  bool in_check(int player) const {
    const int king = king_of(player);
    return king != NO_CELL && attacked(king, attacking_enemies_of(player));
  }
  // The next active player after `player` in seat order (`player` itself if none).
  int next_active_after(int player) const;

  // Plays a move; assumes it is legal in this position.
  void make(Move move);
  // Takes back the last move or event.
  void unmake();
  // The moves played, in order (the events between them left out).
  std::vector<Move> moves_played() const;
  // Takes back the events after the last move, then the move, and returns it; MOVE_NONE (and
  // nothing changed) if no move was played.
  Move take_back_move();
  // Passes the turn without moving (the search's null move); unmake() takes it back.
  void make_null() {
    history_.push_back(Undo{meta_, MOVE_NONE, NO_PIECE, NO_CELL});
    pass_turn_from(meta_.turn);
  }

  // Makes `player` the one to move, nothing else changed (unmake() takes it back): to ask
  // whether a player who is not to move is mated (some games judge mates right after a move).
  void make_turn_of(int player) {
    history_.push_back(Undo{meta_, MOVE_NONE, NO_PIECE, NO_CELL});
    meta_.key ^= zobrist().turn[meta_.turn] ^ zobrist().turn[player];
    meta_.turn = uint8_t(player);
  }

  // Events (recorded in the history; unmake() takes each back). Preconditions are checked by
  // the caller (core/events.h checks what users give).
  void event_set_controller(int colour, int player);  // player may be NOBODY
  void event_remove_king(int colour);
  void event_set_status(int player, Status status);
  // Removes the player's king, gives his colours to `by` (NOBODY: inert) and puts him out.
  void event_eliminate(int player, int by, bool keep_king = false);

  // Recomputes the key from scratch (checks of the incremental update).
  uint64_t compute_key() const;

  void reserve_history(size_t extra) { history_.reserve(history_.size() + extra); }

  // A copy without the history, with `player` to move: to ask whether a player who is not to
  // move is mated or stalemated (four-player free-for-all judges mates right after the move).
  Position as_turn_of(int player) const;

 private:
  void clear();
  void put(int cell, Piece p);
  void remove(int cell);
  void move_piece(int from, int to);
  void set_en_passant(int colour, int cell);
  void set_castling(uint8_t rights);
  void set_controller(int colour, int player);
  void set_status(int player, Status status);
  void pass_turn_from(int player);
  void transfer_army(int victim, int to_player);
  void parse(const std::string& text);
  void validate() const;
  void check_rules() const;

  const Variant* variant_;
  const Topology<W>* topo_;
  const PlacementTable* placement_table_;
  Rules rules_;
  Piece board_[MAX_CELLS];
  BB by_colour_[MAX_COLOURS];
  BB by_kind_[KIND_NB];
  BB occupied_;
  uint16_t line_occ_[MAX_LINES];  // kept only where the sliders look along lines (topology.h)
  int32_t placement_[MAX_COLOURS];
  int32_t late_placement_[MAX_COLOURS];
  uint8_t team_[MAX_PLAYERS];
  Meta meta_;
  std::vector<Undo> history_;
};

}  // namespace polychess

// ---- hot members, inline so that perft and search see through them -------------------------

namespace polychess {

template <int W>
inline Bitboard<W> Position<W>::pieces_of(int player) const {
  BB b = BB::empty();
  for (int c = 0; c < colours(); ++c)
    if (meta_.controller[c] == player) b |= by_colour_[c];
  return b;
}

template <int W>
inline Bitboard<W> Position<W>::attacking_enemies_of(int player) const {
  BB b = BB::empty();
  for (int c = 0; c < colours(); ++c) {
    const int owner = meta_.controller[c];
    if (owner != NOBODY && meta_.status[owner] == ACTIVE && is_enemy(player, owner)) b |= by_colour_[c];
  }
  return b;
}

template <int W>
inline int Position<W>::king_of(int player) const {
  const BB kings = pieces_of(player) & by_kind_[KING];
  return kings ? kings.first() : NO_CELL;
}

template <int W>
inline Bitboard<W> Position<W>::attackers_to(int cell, BB among, Occupancy<W> occ) const {
  const Topology<W>& t = *topo_;
  BB a = (t.knight[cell] & by_kind_[KNIGHT]) | (t.king[cell] & by_kind_[KING]);
  const BB queens = by_kind_[QUEEN] | by_kind_[ONE_POINT_QUEEN];
  const BB rooks = (by_kind_[ROOK] | queens) & among;
  if (rooks && (t.rook_reach[cell] & rooks)) a |= t.rook_attacks(cell, occ) & rooks;
  const BB bishops = (by_kind_[BISHOP] | queens) & among;
  if (bishops && (t.bishop_reach[cell] & bishops)) a |= t.bishop_attacks(cell, occ) & bishops;
  const BB pawns = by_kind_[PAWN] & among & t.pawn_attackers_of_any[cell];
  if (pawns)
    for (int c = 0; c < colours(); ++c) a |= t.pawn_attackers[c][cell] & pawns & by_colour_[c];
  return a & among;
}

template <int W>
inline bool Position<W>::attacked(int cell, BB among, Occupancy<W> occ) const {
  const Topology<W>& t = *topo_;
  if (((t.knight[cell] & by_kind_[KNIGHT]) | (t.king[cell] & by_kind_[KING])) & among) return true;
  const BB pawns = by_kind_[PAWN] & among & t.pawn_attackers_of_any[cell];
  if (pawns)
    for (int c = 0; c < colours(); ++c)
      if (t.pawn_attackers[c][cell] & pawns & by_colour_[c]) return true;
  const BB queens = by_kind_[QUEEN] | by_kind_[ONE_POINT_QUEEN];
  const BB rooks = (by_kind_[ROOK] | queens) & among;
  if ((t.rook_reach[cell] & rooks) && (t.rook_attacks(cell, occ) & rooks)) return true;
  const BB bishops = (by_kind_[BISHOP] | queens) & among;
  if ((t.bishop_reach[cell] & bishops) && (t.bishop_attacks(cell, occ) & bishops)) return true;
  return false;
}

template <int W>
inline bool Position<W>::neutrality_allows(int player, int victim) const {
  // "The player to move may capture a piece of opponent X only if X captured a piece of his
  // on X's previous turn, or the third player did not capture a piece of X on his previous
  // turn."
  if (meta_.last_capture[victim] == player) return true;
  for (int third = 0; third < players(); ++third)
    if (third != player && third != victim && meta_.status[third] == ACTIVE && meta_.last_capture[third] == victim)
      return false;
  return true;
}

template <int W>
inline int Position<W>::next_active_after(int player) const {
  for (int i = 1; i <= players(); ++i) {
    const int p = (player + i) % players();
    if (meta_.status[p] == ACTIVE) return p;
  }
  return player;
}

template <int W>
inline void Position<W>::put(int cell, Piece p) {
  board_[cell] = p;
  by_colour_[colour_of(p)].set(cell);
  by_kind_[kind_of(p)].set(cell);
  occupied_.set(cell);
  if constexpr (!Topology<W>::MAGIC_SLIDERS) topo_->toggle_lines(line_occ_, cell);
  meta_.key ^= zobrist().piece[colour_of(p)][kind_of(p)][cell];
  placement_[colour_of(p)] += placement_table_->value[colour_of(p)][kind_of(p)][cell];
  late_placement_[colour_of(p)] += placement_table_->late_value[colour_of(p)][kind_of(p)][cell];
}

template <int W>
inline void Position<W>::remove(int cell) {
  const Piece p = board_[cell];
  board_[cell] = NO_PIECE;
  by_colour_[colour_of(p)].reset(cell);
  by_kind_[kind_of(p)].reset(cell);
  occupied_.reset(cell);
  if constexpr (!Topology<W>::MAGIC_SLIDERS) topo_->toggle_lines(line_occ_, cell);
  meta_.key ^= zobrist().piece[colour_of(p)][kind_of(p)][cell];
  placement_[colour_of(p)] -= placement_table_->value[colour_of(p)][kind_of(p)][cell];
  late_placement_[colour_of(p)] -= placement_table_->late_value[colour_of(p)][kind_of(p)][cell];
}

template <int W>
inline void Position<W>::move_piece(int from, int to) {
  const Piece p = board_[from];
  remove(from);
  put(to, p);
}

template <int W>
inline void Position<W>::set_en_passant(int colour, int cell) {
  const auto& z = zobrist();
  int16_t& slot = meta_.en_passant[colour];
  if (slot != NO_CELL) meta_.key ^= z.en_passant[slot];
  slot = int16_t(cell);
  if (slot != NO_CELL) meta_.key ^= z.en_passant[slot];
}

template <int W>
inline void Position<W>::set_castling(uint8_t rights) {
  meta_.key ^= zobrist().castling[meta_.castling] ^ zobrist().castling[rights];
  meta_.castling = rights;
}

template <int W>
inline void Position<W>::pass_turn_from(int player) {
  const int next = next_active_after(player);
  if (next <= player) ++meta_.fullmove;  // a new round begins
  meta_.key ^= zobrist().turn[meta_.turn] ^ zobrist().turn[next];
  meta_.turn = uint8_t(next);
  // En-passant rights last until the double-stepper's controller moves again (rules §1.4):
  // once his turn has come round, nobody else can use them.
  for (int c = 0; c < colours(); ++c)
    if (meta_.en_passant[c] != NO_CELL && meta_.controller[c] == next) set_en_passant(c, NO_CELL);
}

template <int W>
inline void Position<W>::make(Move move) {
  const Topology<W>& t = *topo_;
  Undo& u = history_.emplace_back();
  u.meta = meta_;
  u.move = move;
  u.event_cell = NO_CELL;

  const int from = move_from(move), to = move_to(move);
  const Piece piece = board_[from];
  const int colour = colour_of(piece);
  const int me = meta_.turn;

  Piece captured = NO_PIECE;
  switch (move_type(move)) {
    case CASTLING: {
      const auto& c = t.castle[move_aux(move) / 2][move_aux(move) % 2];
      const Piece rook = board_[c.rook_from];
      remove(c.rook_from);
      remove(from);
      put(to, piece);
      put(c.rook_to, rook);
      break;
    }
    case EN_PASSANT: {
      const int landing = t.landing_of_skipped[to];
      captured = board_[landing];
      remove(landing);
      remove(from);
      put(to, move_promotion(move) ? make_piece(colour, move_promotion(move)) : piece);
      break;
    }
    default:
      captured = board_[to];
      if (captured) remove(to);
      remove(from);
      put(to, move_type(move) == PROMOTION ? make_piece(colour, move_promotion(move)) : piece);
  }
  u.captured = captured;
  if (rules_.neutrality) {
    const uint8_t victim = captured ? meta_.controller[colour_of(captured)] : NOBODY;
    meta_.key ^= zobrist().last_capture[me][meta_.last_capture[me]] ^ zobrist().last_capture[me][victim];
    meta_.last_capture[me] = victim;
  }

  set_castling(meta_.castling & ~(t.castling_lost[from] | t.castling_lost[to]));
  meta_.halfmove = (kind_of(piece) == PAWN || captured) ? 0 : meta_.halfmove + 1;
  if (kind_of(piece) == PAWN && t.pawn_double[colour][from] == to) set_en_passant(colour, t.pawn_push[colour][from]);
  // A right dies once its skipped cell is occupied or its pawn has left the landing cell.
  for (int c = 0; c < colours(); ++c) {
    const int skipped = meta_.en_passant[c];
    if (skipped != NO_CELL && (board_[skipped] || board_[t.landing_of_skipped[skipped]] != make_piece(c, PAWN)))
      set_en_passant(c, NO_CELL);
  }
  if (captured && kind_of(captured) == KING && meta_.controller[colour_of(captured)] != NOBODY)
    transfer_army(meta_.controller[colour_of(captured)], rules_.army == Army::DEAD ? NOBODY : me);
  pass_turn_from(me);
}

template <int W>
inline void Position<W>::unmake() {
  const Undo& u = history_.back();
  if (u.move == MOVE_NONE) {
    if (u.event_cell != NO_CELL) put(u.event_cell, u.captured);
  } else {
    const Move move = u.move;
    const int from = move_from(move), to = move_to(move);
    switch (move_type(move)) {
      case CASTLING: {
        const auto& c = topo_->castle[move_aux(move) / 2][move_aux(move) % 2];
        const Piece rook = board_[c.rook_to], king = board_[to];
        remove(c.rook_to);
        remove(to);
        put(from, king);
        put(c.rook_from, rook);
        break;
      }
      case EN_PASSANT: {
        const Piece moved = board_[to];
        remove(to);
        put(from, move_promotion(move) ? make_piece(colour_of(moved), PAWN) : moved);
        put(topo_->landing_of_skipped[to], u.captured);
        break;
      }
      default: {
        const Piece moved = board_[to];
        remove(to);
        put(from, move_type(move) == PROMOTION ? make_piece(colour_of(moved), PAWN) : moved);
        if (u.captured) put(to, u.captured);
      }
    }
  }
  meta_ = u.meta;
  history_.pop_back();
}

}  // namespace polychess
