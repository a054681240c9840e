#include "core/game_state.h"

#include "base/errors.h"
#include "core/checks.h"

#include <algorithm>
#include <bit>
#include <sstream>
#include <stdexcept>

namespace polychess {

const char* reason_word(Reason reason) {
  constexpr const char* words[] = {"checkmate", "king capture", "stalemate", "resignation", "time forfeit"};
  return words[int(reason)];
}

std::pair<std::string, std::string> split_serialized(const std::string& text) {
  const size_t line = text.find('\n');
  if (line == std::string::npos)
    throw InvalidPosition("a serialized game is its start position, a new line, then its steps");
  return {text.substr(0, line), text.substr(line + 1)};
}

const char* termination_word(Termination termination) {
  constexpr const char* words[] = {"",
                                   "checkmate",
                                   "king capture",
                                   "stalemate",
                                   "points lead",
                                   "move limit",
                                   "agreement",
                                   "threefold repetition",
                                   "fifty moves",
                                   "insufficient material",
                                   "resignation",
                                   "time forfeit",
                                   "decided"};
  return words[int(termination)];
}

Termination termination_of(Reason reason) {
  switch (reason) {
    case Reason::CHECKMATE:
      return Termination::CHECKMATE;
    case Reason::KING_CAPTURE:
      return Termination::KING_CAPTURE;
    case Reason::STALEMATE:
      return Termination::STALEMATE;
    case Reason::RESIGNATION:
      return Termination::RESIGNATION;
    case Reason::TIME_FORFEIT:
      return Termination::TIME_FORFEIT;
  }
  return Termination::NONE;
}

template <int W>
GameState<W>::GameState(Position<W>& pos, const std::array<int, MAX_PLAYERS>& points, bool judge_start)
    : pos_(&pos), rules_(pos.rules()) {
  const Rules& rules = rules_;
  facts_.points = points;
  if (rules.move_limit < 0 || rules.repetitions < 0 || rules.quiet_moves_per_player < 0 || rules.points.lead < 0)
    throw std::invalid_argument("rule limits must be >= 0");
  for (int p = 0; p < pos.players(); ++p)
    if (pos.meta().status[p] != OUT) seats_ |= 1u << p;
  if (pos.meta().status[pos.turn()] != ACTIVE)
    throw std::invalid_argument("the player to move in the start position is not active");
  start_text_ = pos.text();
  for (int points : rules.points.capture) scores_moves_ |= points != 0;
  scores_moves_ |= rules.points.scores_checks() || rules.mate_judged == MateJudged::AFTER_MOVE;
  if (!judge_start) {
    first_judged_ply_ = 1;
    return;
  }
  if (decided_at_start()) return;
  // The start is judged as a position after a move is; a mate found there is nobody's doing.
  if (rules_.mate_judged == MateJudged::AFTER_MOVE) confirm_mates(-1, ~0u);
  judge();
}

// A start position read from the end of a game (a FEN4 after a teams mate, a three-player
// position with one player left) is over at once: with the first player out deciding, a
// player out whose side plays on has lost with it (he is ranked with it); otherwise at most one
// player left to move ends it, drawn among the frozen if there are any (as a stalemate that
// leaves one player to move does). Nobody's move did it, so no elimination is recorded.
template <int W>
bool GameState<W>::decided_at_start() {
  const auto& status = pos_->meta().status;
  if (rules_.first_out_decides) {
    for (int p = 0; p < players(); ++p) {
      if (status[p] != OUT) continue;
      uint32_t side = 1u << p;
      for (int q = 0; q < players(); ++q)
        if (q != p && !pos_->is_enemy(p, q)) side |= 1u << q;
      if (!(side & seats_ & ~(1u << p))) continue;  // nobody of his side plays (an empty seat)
      seats_ |= 1u << p;
      const int winners = std::popcount(seats_ & ~side);
      for (int q = 0; q < players(); ++q)
        if (is_seat(q)) facts_.places[q] = uint8_t(side >> q & 1 ? 1 + winners : 1);
      finish(Termination::DECIDED, End::PLACES);
      return true;
    }
  }
  if (active_players() > 1) return false;
  bool frozen = false;
  for (int p = 0; p < players(); ++p) frozen |= status[p] == FROZEN;
  if (frozen) finish(Termination::STALEMATE, End::DRAW);
  else finish(Termination::DECIDED, End::PLACES);
  return true;
}

template <int W>
GameState<W>::GameState(Position<W>& pos, const GameState& other) : GameState(other) {
  pos_ = &pos;
}

template <int W>
int GameState<W>::legal_moves(Move* out) const {
  int n = 0;
  const Move* moves = judged_moves(n);
  std::copy(moves, moves + n, out);
  return n;
}

template <int W>
const Move* GameState<W>::judged_moves(int& n) const {
  if (is_terminal()) {
    n = 0;
    return judged_;
  }
  if (judged_count_ < 0) judged_count_ = polychess::legal_moves(*pos_, judged_);
  n = judged_count_;
  return judged_;
}

template <int W>
void GameState<W>::mate_out_of_turn(int player, int mater) {
  begin_step(GameStep{StepKind::MATED_OUT_OF_TURN, uint8_t(player), MOVE_NONE});
  eliminate_on_board(player, mater);
  record_out(player, Reason::CHECKMATE, mater);
  facts_.maybe_checked = 0xF;
}

template <int W>
void GameState<W>::reserve(size_t steps) {
  saved_.reserve(saved_.size() + steps);
  eliminations_.reserve(eliminations_.size() + size_t(MAX_PLAYERS));
  counted_positions_.reserve(counted_positions_.size() + steps);
}

template <int W>
void GameState<W>::leave(int player, Reason reason) {
  require_running();
  if (player < 0 || player >= players() || !is_seat(player) || pos_->meta().status[player] == OUT) {
    const std::string who =
        player >= 0 && player < players() ? pos_->variant().colour_names[player] : "player " + std::to_string(player);
    throw std::invalid_argument(who + " is not playing");
  }
  if (reason != Reason::RESIGNATION && reason != Reason::TIME_FORFEIT)
    throw std::invalid_argument("a player leaves by resignation or time forfeit");
  begin_step(GameStep{reason == Reason::RESIGNATION ? StepKind::RESIGNATION : StepKind::TIME_FORFEIT, uint8_t(player),
                      MOVE_NONE});
  eliminate_on_board(player, -1);
  record_out(player, reason, -1);
  facts_.maybe_checked = 0xF;
  judge();
}

template <int W>
void GameState<W>::agree_draw() {
  require_running();
  begin_step(GameStep{StepKind::DRAW_AGREED, uint8_t(pos_->turn()), MOVE_NONE});
  pending_ = false;
  finish(Termination::AGREEMENT, End::DRAW);
}

template <int W>
std::array<double, MAX_PLAYERS> GameState<W>::returns() const {
  std::array<double, MAX_PLAYERS> r{};
  if (!is_terminal()) return r;
  for (int p = 0; p < players(); ++p)
    if (is_seat(p)) r[p] = return_of(p);
  return r;
}

// ---- judging --------------------------------------------------------------------------------

// A player to move with no legal move is mated or stalemated, which may end the game or pass
// the turn on; the next one is examined in turn.
template <int W>
void GameState<W>::resolve_turn() {
  while (!is_terminal()) {
    judged_count_ = polychess::legal_moves(*pos_, judged_);
    if (judged_count_ > 0) return;
    const int player = pos_->turn();
    if (pos_->meta().status[player] != ACTIVE) return;  // nobody left to move: the ending rules decide
    const Bitboard<W> attackers = checkers(*pos_);
    if (attackers) {
      const int mater = credited_mater(*pos_, attackers);
      eliminate_on_board(player, mater);
      record_out(player, Reason::CHECKMATE, mater);
      continue;
    }
    switch (rules_.stalemate) {
      case StalemateEffect::OUT:
        eliminate_on_board(player, -1);
        record_out(player, Reason::STALEMATE, -1);
        break;
      case StalemateEffect::DRAW:
        eliminations_.push_back(EliminationRecord{uint8_t(player), Reason::STALEMATE, -1, facts_.ply});
        facts_.eliminations = uint32_t(eliminations_.size());
        finish(Termination::STALEMATE, End::DRAW);
        break;
      case StalemateEffect::FREEZE:
        pos_->event_set_status(player, FROZEN);
        record_frozen(player);
        break;
    }
  }
}

template <int W>
void GameState<W>::check_draws() {
  int seen = 0;
  if (counts_repetitions_) {
    const uint64_t key = pos_->key();
    // Before a capture or a pawn move no position can come back: only the stretch since then is searched.
    if (pos_->meta().halfmove == 0) facts_.since_irreversible = uint32_t(counted_positions_.size());
    counted_positions_.push_back(key);
    facts_.counted_positions = uint32_t(counted_positions_.size());
    for (size_t i = facts_.since_irreversible; i < counted_positions_.size(); ++i) seen += counted_positions_[i] == key;
  }
  if (rules_.repetitions > 0 && seen >= rules_.repetitions) finish(Termination::THREEFOLD_REPETITION, End::DRAW);
  else if (rules_.quiet_moves_per_player > 0 && pos_->meta().halfmove >= rules_.quiet_moves_per_player &&
           pos_->meta().halfmove >= rules_.quiet_moves_per_player * active_players())
    finish(Termination::FIFTY_MOVES, End::DRAW);
  // Material only ever goes by a capture (which resets the clock); the first position judged is judged whole.
  else if ((pos_->meta().halfmove == 0 || facts_.ply == first_judged_ply_) && insufficient_material())
    finish(Termination::INSUFFICIENT_MATERIAL, End::DRAW);
  else check_points_lead();
}

template <int W>
void GameState<W>::check_points_lead() {
  if (rules_.points.lead <= 0 || active_players() != 2) return;
  int leads[2], n = 0;
  for (int p = 0; p < players(); ++p)
    if (pos_->meta().status[p] == ACTIVE) leads[n++] = facts_.points[p];
  if (std::abs(leads[0] - leads[1]) >= rules_.points.lead) finish(Termination::POINTS_LEAD, End::BY_POINTS);
}

template <int W>
bool GameState<W>::insufficient_material() const {
  if (rules_.insufficient == Insufficient::NEVER) return false;
  const Position<W>& pos = *pos_;
  const Bitboard<W> others = pos.occupied().minus(pos.kind_bb(KING));
  if (!others) return true;
  if (rules_.insufficient == Insufficient::BARE_KINGS) return false;
  // FIDE's dead positions: king and one minor piece against king; bishops all on one colour.
  const Bitboard<W> bishops = pos.kind_bb(BISHOP), knights = pos.kind_bb(KNIGHT);
  if ((bishops | knights) != others || others.count() > 2) return false;
  if (others.count() == 1) return true;
  if (knights) return false;
  Bitboard<W> rest = bishops;
  const int first = rest.first();
  rest.reset(first);
  const auto& dark = pos.variant().layout.dark;
  return dark[first] == dark[rest.first()];
}

// ---- what a move scores ---------------------------------------------------------------------

// Points for the captured live piece and for checking several kings at once, then (where
// mates are judged right after the move) every other player mated by the move.
template <int W>
void GameState<W>::score_move(Move move, int mover, const uint8_t* statuses, const uint8_t* controllers,
                              bool king_captured) {
  const Undo& last = pos_->history().back();
  if (last.captured && !king_captured && controllers[colour_of(last.captured)] != NOBODY)
    facts_.points[mover] += rules_.points.capture[kind_of(last.captured)];
  const bool after_move = rules_.mate_judged == MateJudged::AFTER_MOVE;
  if (!after_move && !rules_.points.scores_checks()) return;
  // The other players in check now: what both the check bonus and the mates start from. Where
  // armies die (nothing changes hands but by this move) a king not in check before is in
  // check now only if the moved piece attacks it, or a slider's line to it runs through a cell
  // the move emptied.
  const Topology<W>& t = pos_->topo();
  const Occupancy<W> occ = pos_->occupancy();
  const int to = move_to(move);
  const Piece moved = pos_->piece_at(to);
  Bitboard<W> hits = Bitboard<W>::empty();
  switch (kind_of(moved)) {
    case PAWN:
      hits = t.pawn_capture[colour_of(moved)][to];
      break;
    case KNIGHT:
      hits = t.knight[to];
      break;
    case KING:
      break;  // a king gives no check
    case BISHOP:
      hits = t.bishop_attacks(to, occ);
      break;
    case ROOK:
      hits = t.rook_attacks(to, occ);
      break;
    default:  // the queens
      hits = t.rook_attacks(to, occ) | t.bishop_attacks(to, occ);
  }
  auto lines_through = [&](int cell) { return t.rook_reach[cell] | t.bishop_reach[cell]; };
  Bitboard<W> uncovered = lines_through(move_from(move));
  if (move_type(move) == CASTLING) {
    const auto& c = t.castle[move_aux(move) / 2][move_aux(move) % 2];
    hits |= t.rook_attacks(c.rook_to, occ);
    uncovered |= lines_through(c.rook_from);
  } else if (move_type(move) == EN_PASSANT) {
    uncovered |= lines_through(t.landing_of_skipped[to]);
  }
  const bool filter = rules_.army == Army::DEAD && !king_captured;
  const uint8_t before = saved_.back().facts.maybe_checked;
  uint32_t checked = 0;
  for (int p = 0; p < players(); ++p) {
    if (p == mover || statuses[p] != ACTIVE) continue;
    if (filter && !(before >> p & 1)) {
      const int king = pos_->king_of(p);
      if (king == NO_CELL || !(hits.test(king) || uncovered.test(king))) continue;
    }
    if (in_check(p)) checked |= 1u << p;
  }
  facts_.maybe_checked = uint8_t(checked);
  if (rules_.points.scores_checks() && std::popcount(checked) >= 2) facts_.points[mover] += checks_bonus(move);
  if (after_move && checked) confirm_mates(mover, checked);
}

// The kings the move put in check (checks.h). Called only when two kings are attacked after the
// move: then the move is taken back and looked at from the position before it.
template <int W>
int GameState<W>::checks_bonus(Move move) {
  pos_->unmake();
  const KingsChecked checked = kings_checked(*pos_, move);
  pos_->make(move);
  if (checked.count() < 2) return 0;
  const auto& table = checked.by_queens_only ? rules_.points.checks_by_queens : rules_.points.checks;
  return table[std::min(checked.count(), 3) - 2];
}

// Every other player, in turn order after the mover, examined after the eliminations before
// him; a mate is the mover's (chess.com scores them so). At the start (`mover` -1) from the
// player to move on, credited to nobody. `candidates` are the players who were in check: where
// armies die an elimination only takes attackers away, so nobody else can be mated; where they
// pass to the mater, everyone is looked at again.
template <int W>
void GameState<W>::confirm_mates(int mover, uint32_t candidates) {
  const int n = players();
  const int first = mover < 0 ? pos_->turn() : mover + 1;
  bool someone_out = false;  // until then the candidates' checks stand as found
  for (int i = 0; i < n; ++i) {
    const int p = (first + i) % n;
    if (p == mover || is_terminal() || pos_->meta().status[p] != ACTIVE) continue;
    const bool candidate = candidates >> p & 1;
    if (rules_.army == Army::DEAD && !candidate) continue;
    if ((someone_out || !candidate || mover < 0) && !in_check(p)) continue;
    pos_->make_turn_of(p);
    const bool stuck = !has_legal_move(*pos_);
    pos_->unmake();
    if (!stuck) continue;
    eliminate_on_board(p, mover);
    record_out(p, Reason::CHECKMATE, mover);
    someone_out = true;
  }
}

// ---- players leaving ------------------------------------------------------------------------

template <int W>
void GameState<W>::eliminate_on_board(int player, int by) {
  // Where the first player out decides, his going out ends the game: the board stays the
  // position in which it ended (the mate, the resignation), as a game record shows it last.
  if (rules_.first_out_decides) return;
  if (rules_.army == Army::DEAD) pos_->event_eliminate(player, NOBODY, /*keep_king=*/true);
  else pos_->event_eliminate(player, by < 0 ? NOBODY : by);
}

template <int W>
void GameState<W>::record_out(int player, Reason reason, int by) {
  int earlier_out = 0;
  for (const EliminationRecord& e : eliminations_) earlier_out += e.reason != Reason::STALEMATE;
  eliminations_.push_back(EliminationRecord{uint8_t(player), reason, int8_t(by), facts_.ply});
  facts_.eliminations = uint32_t(eliminations_.size());
  const Termination termination = termination_of(reason);
  auto& places = facts_.places;

  if (rules_.ranking == Ranking::POINTS) {
    if ((reason == Reason::CHECKMATE || reason == Reason::KING_CAPTURE) && by >= 0)
      facts_.points[by] += rules_.points.mate;
    else if (reason == Reason::STALEMATE) facts_.points[player] += rules_.points.stalemate;
    if (active_players() <= 1) finish(termination, End::BY_POINTS);
    return;
  }
  if (rules_.first_out_decides) {
    // The eliminator's side first and everyone else after it; without an eliminator the
    // player's own side last.
    const int side_of = by >= 0 ? by : player;
    int side = 0;
    for (int q = 0; q < players(); ++q) side += is_seat(q) && !pos_->is_enemy(side_of, q);
    for (int q = 0; q < players(); ++q) {
      if (!is_seat(q)) continue;
      const bool on_side = !pos_->is_enemy(side_of, q);
      if (by >= 0) places[q] = uint8_t(on_side ? 1 : 1 + side);
      else places[q] = uint8_t(on_side ? seat_count() - side + 1 : 1);
    }
    finish(termination, End::PLACES);
    return;
  }
  places[player] = uint8_t(seat_count() - earlier_out);
  bool frozen = false;
  for (int q = 0; q < players(); ++q) frozen |= pos_->meta().status[q] == FROZEN;
  if (rules_.out_after_freeze_ends && frozen) {
    const int shared = 1 + active_players();
    for (int q = 0; q < players(); ++q)
      if (pos_->meta().status[q] == FROZEN) places[q] = uint8_t(shared);
    places[player] = uint8_t(shared);
    finish(termination, End::PLACES);
  } else if (active_players() <= 1) {
    finish(termination, End::PLACES);
  }
}

// A stalemated player is frozen; with at most one player left to move, everyone not out draws.
template <int W>
void GameState<W>::record_frozen(int player) {
  eliminations_.push_back(EliminationRecord{uint8_t(player), Reason::STALEMATE, -1, facts_.ply});
  facts_.eliminations = uint32_t(eliminations_.size());
  if (active_players() <= 1) finish(Termination::STALEMATE, End::DRAW);
}

template <int W>
void GameState<W>::end_game(GameFacts& facts, Termination termination, End end) const {
  if (end == End::DRAW && rules_.ranking == Ranking::POINTS) {
    for (int p = 0; p < players(); ++p)
      if (pos_->meta().status[p] == ACTIVE) facts.points[p] += rules_.points.draw;
    end = End::BY_POINTS;
  }
  if (end == End::PLACES && rules_.ranking == Ranking::POINTS) end = End::BY_POINTS;
  for (int p = 0; p < players(); ++p) {
    if (!is_seat(p)) continue;
    if (end == End::BY_POINTS) {
      int ahead = 0;
      for (int q = 0; q < players(); ++q) ahead += is_seat(q) && facts.points[q] > facts.points[p];
      facts.places[p] = uint8_t(1 + ahead);
    } else if (facts.places[p] == 0) {
      facts.places[p] = 1;  // everyone not out shares first place
    }
  }
  facts.termination = termination;
}

template <int W>
int GameState<W>::active_players() const {
  int n = 0;
  for (int p = 0; p < players(); ++p) n += pos_->meta().status[p] == ACTIVE;
  return n;
}

template <int W>
bool GameState<W>::in_check(int player) const {
  return pos_->in_check(player);
}

// ---- the steps as text ---------------------------------------------------------------------

template <int W>
std::string GameState<W>::step_token(size_t i) const {
  const GameStep& s = step(i);
  switch (s.kind) {
    case StepKind::MOVE:
      return move_text(pos_->variant(), s.move);
    case StepKind::RESIGNATION:
      return "resign(" + pos_->variant().colour_names[s.player] + ")";
    case StepKind::TIME_FORFEIT:
      return "timeout(" + pos_->variant().colour_names[s.player] + ")";
    case StepKind::DRAW_AGREED:
      return "draw";
    case StepKind::MATED_OUT_OF_TURN:
      break;  // the search's own step, never in a game's record
  }
  return "mate(" + pos_->variant().colour_names[s.player] + ")";
}

template <int W>
std::string GameState<W>::serialize() const {
  std::string out = start_text_ + "\n";
  for (size_t i = 0; i < step_count(); ++i) out += (i ? " " : "") + step_token(i);
  return out;
}

template <int W>
void GameState<W>::replay(const std::string& steps) {
  std::istringstream words(steps);
  std::string word;
  const Variant& v = pos_->variant();
  while (words >> word) {
    if (is_terminal()) throw std::invalid_argument("step " + quoted(word) + " comes after the end of the game");
    if (word == "draw") {
      agree_draw();
      continue;
    }
    const size_t open = word.find('(');
    if (open != std::string::npos && word.back() == ')') {
      const std::string kind = word.substr(0, open), who = word.substr(open + 1, word.size() - open - 2);
      int player = -1;
      for (int p = 0; p < v.players; ++p)
        if (v.colour_names[p] == who) player = p;
      if ((kind != "resign" && kind != "timeout") || player < 0)
        throw std::invalid_argument("unknown step " + quoted(word) +
                                    " (expected a move, resign(colour), timeout(colour) or draw)");
      leave(player, kind == "resign" ? Reason::RESIGNATION : Reason::TIME_FORFEIT);
      continue;
    }
    apply(legal_move(parse_move_text(v, word), word));
  }
}

template <int W>
Move GameState<W>::legal_move(const MoveText& m, const std::string& text) const {
  require_running();
  int n = 0;
  const Move* moves = judged_moves(n);
  return find_move(pos_->variant(), moves, n, m, text, pos_->turn());
}

template <int W>
void GameState<W>::require_running() const {
  if (is_terminal()) throw GameOver(std::string("the game is over (") + termination_word(facts_.termination) + ")");
}

template <int W>
Status GameState<W>::status_of(int player) const {
  if (is_terminal() && rules_.first_out_decides)
    for (const EliminationRecord& e : eliminations_)
      if (e.player == player && e.reason != Reason::STALEMATE) return OUT;
  return Status(pos_->meta().status[player]);
}

template class GameState<1>;
template class GameState<2>;
template class GameState<3>;

}  // namespace polychess
