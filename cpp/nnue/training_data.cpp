#include "nnue/training_data.h"

#include <algorithm>

#include "base/errors.h"
#include "nnue/binary_io.h"
#include "nnue/features.h"

namespace polychess {
namespace {

constexpr char TRAINING_DATA_MAGIC[5] = "PCTD";
using TrainingDataReader = BinaryReader<InvalidTrainingData>;

}  // namespace

std::string training_data_header(const std::string& game) {
  BinaryWriter w;
  w.put_signature(TRAINING_DATA_MAGIC, TRAINING_DATA_VERSION);
  w.put_text(game);
  return std::move(w.out);
}

std::string encode_training_game(const TrainingGame& game) {
  BinaryWriter w;
  w.put_text(game.start);
  w.put(uint8_t(game.players));
  for (int p = 0; p < game.players; ++p) w.put(game.result[p]);
  w.put(uint32_t(game.moves.size()));
  for (const TrainingMove& m : game.moves) {
    w.put(uint32_t(training_move(m.move)));
    w.put(m.score);
  }
  BinaryWriter record;
  record.put(uint32_t(w.out.size()));
  return record.out + w.out;
}

namespace {

// The bytes a record of these fields takes after its size field.
size_t record_bytes(size_t start_length, size_t players, size_t moves) {
  return 2 + start_length + 1 + players + 4 + 6 * moves;
}

// Whether the last `tail` bytes of a file, a record whose size field says `size`, are what a
// generator stopped mid-write leaves: the start of a record of that size. A size that its own
// fields contradict is a corruption, not a stop.
bool cut_short(const std::string& tail, uint32_t size) {
  if (tail.size() < 2) return true;
  const size_t start_length = uint8_t(tail[0]) | size_t(uint8_t(tail[1])) << 8;
  if (tail.size() < 3 + start_length) return record_bytes(start_length, 2, 0) <= size;
  const size_t players = uint8_t(tail[2 + start_length]);
  if (players < 2 || players > MAX_PLAYERS) return false;
  const size_t moves_at = 3 + start_length + players;
  if (tail.size() < moves_at + 4) return record_bytes(start_length, players, 0) <= size;
  size_t moves = 0;
  for (int i = 0; i < 4; ++i) moves |= size_t(uint8_t(tail[moves_at + i])) << (8 * i);
  return record_bytes(start_length, players, moves) == size;
}

std::string at_byte(size_t offset) { return " at byte " + std::to_string(offset); }

// A move as the record holds it: (from, to, type, promotion) with nothing else set, both cells
// on the board and the promotion one the variant has.
void check_move(const Variant& variant, Move m, size_t record, size_t index, size_t offset) {
  const auto fail = [&](const std::string& why) {
    throw InvalidTrainingData("training data corrupted: record " + std::to_string(record) + ", move " +
                              std::to_string(index + 1) + at_byte(offset) + ": " + why);
  };
  if (m != training_move(m)) fail("bits set beyond the move's fields (" + std::to_string(m) + ")");
  const int cells = variant.layout.cell_count;
  if (move_from(m) >= cells || move_to(m) >= cells)
    fail("cell " + std::to_string(std::max(move_from(m), move_to(m))) + " is not on the " + std::to_string(cells) +
         "-cell board");
  const Kind promotion = move_promotion(m);
  if (promotion != NO_KIND && std::find(variant.promotion_kinds.begin(), variant.promotion_kinds.end(), promotion) ==
                                  variant.promotion_kinds.end())
    fail("a promotion to piece kind " + std::to_string(int(promotion)) + ", which " + variant.name + " has not");
}

}  // namespace

TrainingData decode_training_data(const std::string& bytes) {
  TrainingDataReader header{bytes, 0, "training data"};
  header.expect_signature(TRAINING_DATA_MAGIC, TRAINING_DATA_VERSION, TRAINING_DATA_VERSION, "polychess training data");
  TrainingData data;
  data.game = header.get_text("the game's name");
  const Variant* variant = variant_of_network_game(data.game);
  if (!variant) throw InvalidTrainingData("training data of an unknown game " + quoted(data.game));
  data.complete_bytes = header.at;
  while (header.at < bytes.size()) {
    const size_t record_at = header.at, record = data.games.size() + 1;
    if (bytes.size() - header.at < 4) break;  // cut inside a record's size: dropped
    const uint32_t size = header.get<uint32_t>("a record's size");
    if (bytes.size() - header.at < size) {
      // Only the last record may be cut short, by a stop, and only to a start of itself.
      if (cut_short(bytes.substr(header.at), size)) break;
      throw InvalidTrainingData("training data corrupted" + at_byte(record_at) + ": record " + std::to_string(record) +
                                " says it takes " + std::to_string(size) + " bytes, which its own fields contradict");
    }
    const std::string body = bytes.substr(header.at, size);
    header.at += size;
    TrainingDataReader r{body, 0, "a training record"};
    const auto corrupted = [&](const std::string& why) {
      return InvalidTrainingData("training data corrupted" + at_byte(record_at) + ": record " + std::to_string(record) +
                                 " " + why);
    };
    TrainingGame game;
    try {
      game.start = r.get_text("the start position");
      game.players = r.get<uint8_t>("the players");
    } catch (const InvalidTrainingData& error) {
      throw corrupted(std::string("(") + error.what() + ")");
    }
    if (game.players < 2 || game.players > MAX_PLAYERS)
      throw corrupted("has " + std::to_string(game.players) + " players");
    if (game.players != variant->players)
      throw corrupted("has " + std::to_string(game.players) + " players, where " + data.game + " has " +
                      std::to_string(variant->players));
    if (r.left() < size_t(game.players) + 4) throw corrupted("ends inside its results");
    for (int p = 0; p < game.players; ++p) {
      game.result[p] = r.get<uint8_t>("the results");
      if (game.result[p] > 2 * (game.players - 1)) throw corrupted("has a result beyond a win");
    }
    const uint32_t moves = r.get<uint32_t>("the moves");
    if (size_t(moves) * 6 != r.left())
      throw corrupted("of " + std::to_string(moves) + " moves holds " + std::to_string(r.left()) + " bytes of them");
    game.moves.resize(moves);
    for (size_t i = 0; i < game.moves.size(); ++i) {
      TrainingMove& m = game.moves[i];
      const size_t move_at = record_at + 4 + r.at;
      m.move = r.get<uint32_t>("a move");
      m.score = r.get<int16_t>("a score");
      check_move(*variant, m.move, record, i, move_at);
      if (m.score > MATE_SCORE || m.score < -MATE_SCORE)
        throw corrupted("move " + std::to_string(i + 1) + " has the score " + std::to_string(m.score) +
                        ", beyond a found win");
    }
    data.games.push_back(std::move(game));
    data.complete_bytes = header.at;
  }
  return data;
}

}  // namespace polychess
