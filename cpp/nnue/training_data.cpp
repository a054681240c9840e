#include "nnue/training_data.h"

#include "nnue/binary_io.h"

namespace polychess {
namespace {

constexpr char MAGIC[5] = "PCTD";
using Reader = BinaryReader<InvalidTrainingData>;

}  // namespace

std::string training_data_header(const std::string& game) {
  BinaryWriter w;
  w.put_signature(MAGIC, TRAINING_DATA_VERSION);
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

TrainingData decode_training_data(const std::string& bytes) {
  Reader header{bytes, 0, "training data"};
  header.expect_signature(MAGIC, TRAINING_DATA_VERSION, "polychess training data");
  TrainingData data;
  data.game = header.get_text("the game's name");
  data.complete_bytes = header.at;
  while (header.at < bytes.size()) {
    if (bytes.size() - header.at < 4) break;  // cut inside a record's size: dropped
    const uint32_t size = header.get<uint32_t>("a record's size");
    if (bytes.size() - header.at < size) break;  // cut inside the record: dropped
    const std::string body = bytes.substr(header.at, size);
    header.at += size;
    Reader r{body, 0, "a training record"};
    TrainingGame game;
    game.start = r.get_text("the start position");
    game.players = r.get<uint8_t>("the players");
    if (game.players < 2 || game.players > MAX_PLAYERS)
      throw InvalidTrainingData("training data corrupted: a record of " + std::to_string(game.players) + " players");
    for (int p = 0; p < game.players; ++p) {
      game.result[p] = r.get<uint8_t>("the results");
      if (game.result[p] > 2 * (game.players - 1))
        throw InvalidTrainingData("training data corrupted: a result beyond a win");
    }
    const uint32_t moves = r.get<uint32_t>("the moves");
    if (size_t(moves) * 6 != r.left())
      throw InvalidTrainingData("training data corrupted: a record of " + std::to_string(moves) + " moves holds " +
                                std::to_string(r.left()) + " bytes of them");
    game.moves.resize(moves);
    for (TrainingMove& m : game.moves) {
      m.move = r.get<uint32_t>("a move");
      m.score = r.get<int16_t>("a score");
    }
    data.games.push_back(std::move(game));
    data.complete_bytes = header.at;
  }
  return data;
}

}  // namespace polychess
