#include "nnue/training_positions.h"

#include <algorithm>

#include "base/errors.h"
#include "core/evaluate.h"
#include "core/game_state.h"
#include "core/movegen.h"
#include "nnue/features.h"

namespace polychess {
namespace {

template <int W>
void add_game(const Variant& variant, const Rules& rules, const FeatureSet& f, const TrainingGame& record,
              int skip_plies, TrainingPositions& out) {
  Position<W> pos(variant, record.start, rules);
  GameState<W> game(pos);
  const int n = f.players;
  for (size_t ply = 0; ply < record.moves.size(); ++ply) {
    const TrainingMove& m = record.moves[ply];
    int legal = 0;
    const Move* moves = game.judged_moves(legal);
    const Move* played = std::find_if(moves, moves + legal, [&](Move x) { return training_move(x) == m.move; });
    if (played == moves + legal)
      throw InvalidTrainingData("training data corrupted: move " + std::to_string(ply + 1) + " of a game from " +
                                quoted(record.start) + " is not legal there");
    const bool noisy = !pos.history().empty() && pos.history().back().captured != NO_PIECE;
    if (int(ply) >= skip_plies && !noisy && !pos.in_check(pos.turn()) && std::abs(int(m.score)) < MATE_SCORE) {
      const size_t at = out.features.size();
      out.features.resize(at + size_t(n) * out.slots, -1);
      for (int p = 0; p < n; ++p) {
        int16_t* slot = out.features.data() + at + size_t(p) * out.slots;
        const int bucket = f.bucket(p, pos.king_of(p));
        for (int cell = 0; cell < f.cells; ++cell) {
          const Piece piece = pos.piece_at(cell);
          if (piece != NO_PIECE)
            *slot++ = int16_t(f.index(p, bucket, cell, kind_of(piece), pos.meta().controller[colour_of(piece)]));
        }
      }
      const auto classic = evaluate_players(pos, eval_tables(pos.topo()));
      out.turn.push_back(uint8_t(pos.turn()));
      out.score.push_back(m.score);
      for (int p = 0; p < n; ++p) {
        out.result.push_back(record.result[p]);
        out.in_game.push_back(pos.meta().status[p] != OUT);
        out.points.push_back(game.facts().points[p]);
        out.classic.push_back(classic[p]);
      }
      ++out.count;
    }
    game.apply(*played);
  }
}

}  // namespace

TrainingPositions training_positions(const Variant& variant, const Rules& rules, const std::vector<TrainingGame>& games,
                                     size_t first, size_t count, int skip_plies, int buckets) {
  const FeatureSet f = feature_set(variant, buckets);
  TrainingPositions out;
  out.players = f.players;
  out.slots = MAX_PIECES_PER_COLOUR * variant.colours();
  const size_t last = std::min(games.size(), first + count);
  for (size_t i = std::min(first, last); i < last; ++i) {
    if (games[i].players != f.players)
      throw InvalidTrainingData("training data corrupted: a game of " + std::to_string(games[i].players) +
                                " players in " + network_game(variant) + " data");
    switch (variant.words) {
      case 1:
        add_game<1>(variant, rules, f, games[i], skip_plies, out);
        break;
      case 2:
        add_game<2>(variant, rules, f, games[i], skip_plies, out);
        break;
      default:
        add_game<3>(variant, rules, f, games[i], skip_plies, out);
        break;
    }
  }
  return out;
}

}  // namespace polychess
