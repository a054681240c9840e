// Training data for the networks: self-play games as compact records (the positions are
// replayed from them, never stored), with each move's search score and every player's result.
//
// A data file, little-endian:
//   "PCTD", u32 version (1), u16 length + the game's name (network_game), then records:
//   u32 size of the record's bytes after this field, then
//     u16 length + the start position string,
//     u8 players, u8 result[players] (each player's share of the other players he finished
//        ahead of, a tie counting half, times 2 * (players - 1): a whole number),
//     u32 moves, then per move: u32 move (from | to << 8 | promotion kind << 16), i16 score
//        (the mover's side's search score in centipawns; a won or lost game +-MATE_SCORE).
// Six bytes a position. A file cut short inside its last record (a generator stopped mid-write)
// reads as its whole records; where the cut record begins is where appending resumes. Anything
// else that does not fit (a record whose size its own fields contradict, a cell off the board,
// a promotion the game has not, text that is not UTF-8) is a corruption, named with its byte.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/types.h"

namespace polychess {

// Data that cannot be read: not a data file, another game's, or corrupted.
struct InvalidTrainingData : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

constexpr int TRAINING_DATA_VERSION = 1;
constexpr int16_t MATE_SCORE = 32000;  // the score of a found win (a found loss: -MATE_SCORE)

struct TrainingMove {
  Move move;      // the packed (from, to, promotion) of types.h, without type or aux fields
  int16_t score;  // for the mover's side
};

struct TrainingGame {
  std::string start;
  int players = 0;
  std::array<uint8_t, MAX_PLAYERS> result{};  // times 2 * (players - 1)
  std::vector<TrainingMove> moves;
};

// (from, to, promotion) of a move: what identifies it among the legal moves (types.h).
constexpr Move training_move(Move m) { return m & 0x1FFFFFu; }

std::string training_data_header(const std::string& game);
std::string encode_training_game(const TrainingGame& game);

struct TrainingData {
  std::string game;
  std::vector<TrainingGame> games;
  size_t complete_bytes = 0;  // the bytes of the header and the whole records: where to append
};

// Reads a data file's bytes, every value checked before use; InvalidTrainingData saying what is
// wrong and where. A last record cut short is left out (complete_bytes says where it began).
TrainingData decode_training_data(const std::string& bytes);

}  // namespace polychess
