// An efficiently updatable network: its shape, its quantized weights and its file format.
//
// The shape, for a game of n players and a hidden width H:
//   - a feature transformer per perspective (shared by all of them: the features are already
//     seen from the perspective, features.h): h_p = b1 + sum of W1's rows of p's features;
//   - player p's value reads every perspective's clipped h in seat order from p,
//     [crelu(h_p), crelu(h_p+1), ..., crelu(h_p+n-1)], through the output layer of the bucket
//     that says whose turn it is, counted from p (0: p to move):
//       v_p = scale * (b2[t] + w2[t] . concat)
// so one set of weights gives every player his value, as the search wants (a vector).
// A network may stand on the classic evaluation (core/evaluate.h): its values are then added
// to the classic evaluation's, so that it learns what the classic terms miss, not all of it.
//
// Quantized as the hobby engines do: W1 and b1 times QA (255) in int16, so crelu clips the
// accumulator to [0, QA]; w2 times QB (512) in int16; b2 times QA * QB in int32. The value is
// then (b2q + sum crelu(acc) * w2q) * scale / (QA * QB) centipawns. The sizes are checked on
// load so that neither the int16 accumulator nor the int32 output can overflow.
//
// The file, little-endian:
//   "PCNN", u32 version (4), u16 length + the game's name (network_game), u32 cells, players,
//   kinds, slots, king buckets (features.h), hidden, qa, qb, scale (centipawns per unit of output), base (0: the
//   network is the whole evaluation, 1: it is added to the classic evaluation), u64 FNV-1a hash of every other byte
//   of the file (the header before it, then the payload), then
//   the payload: i16 b1[H], i16 W1[inputs][H], i16 w2[players][players * H], i32 b2[players].
// Version 3 files, whose hash covered the payload alone, are still read (a flipped bit in their
// header is caught only where the header's checks catch it).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "nnue/features.h"

namespace polychess {

// A network file or network data that cannot be used: truncated, corrupted, of another game,
// or with weights its integer arithmetic cannot hold.
struct InvalidNetwork : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

constexpr int NETWORK_VERSION = 4;
constexpr int OLDEST_NETWORK_VERSION = 3;
constexpr int MAX_NETWORK_SCALE = 10000;  // centipawns per unit of output (the trained ones: 50 to 400)
constexpr int NETWORK_QA = 255;
constexpr int NETWORK_QB = 512;
constexpr int MAX_HIDDEN = 2048;
constexpr int HIDDEN_STEP = 16;  // the hidden width is a multiple of this (vector lanes)

struct Network {
  std::string game;  // network_game() of the games it evaluates
  int cells = 0, players = 0, slots = 0, buckets = 1, hidden = 0;
  int qa = NETWORK_QA, qb = NETWORK_QB, scale = 400;
  bool on_classic = false;          // its values are added to the classic evaluation's
  std::vector<int16_t> ft_bias;     // [hidden]
  std::vector<int16_t> ft_weight;   // [inputs][hidden]
  std::vector<int16_t> out_weight;  // [turn bucket][players * hidden]
  std::vector<int32_t> out_bias;    // [turn bucket]

  int inputs() const { return buckets * slots * NETWORK_KINDS * cells; }
  // The hash of the network's file (version 4), as its header holds it: what identifies it.
  uint64_t hash() const;
  // Throws InvalidNetwork unless the network can evaluate `variant`'s positions.
  void check_game(const Variant& variant) const;
};

// The network a file's bytes hold, of a game polychess knows, its header and weights checked
// against each other and the hash; InvalidNetwork saying what is wrong with them.
Network read_network(const std::string& bytes);
// The size of the file whose first bytes are `head` (its header and at least its hash), read
// before the rest so that a file of another size is refused unread; InvalidNetwork as above.
size_t network_file_size(const std::string& head);
// How many first bytes of a file network_file_size needs at most.
constexpr size_t NETWORK_HEADER_BYTES = 4 + 4 + 2 + 65535 + 10 * 4 + 8;
std::string write_network(const Network& network);

// Quantizes a float network of `variant` (arrays in the payload's order and sizes, hidden
// width `hidden`, `buckets` king buckets); InvalidNetwork for wrong sizes or weights too large
// to quantize.
Network quantize_network(const Variant& variant, int buckets, int hidden, const std::vector<float>& ft_bias,
                         const std::vector<float>& ft_weight, const std::vector<float>& out_weight,
                         const std::vector<float>& out_bias, int scale, bool on_classic);

}  // namespace polychess
