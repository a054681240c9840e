#include "nnue/network.h"

#include <algorithm>
#include <cmath>

#include "base/errors.h"
#include "nnue/binary_io.h"

namespace polychess {
namespace {

constexpr char NETWORK_MAGIC[5] = "PCNN";

uint64_t fnv1a(const char* data, size_t size) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; ++i) h = (h ^ uint8_t(data[i])) * 0x100000001b3ull;
  return h;
}

using Writer = BinaryWriter;
using NetworkReader = BinaryReader<InvalidNetwork>;

std::string payload(const Network& n) {
  Writer w;
  w.put_all(n.ft_bias);
  w.put_all(n.ft_weight);
  w.put_all(n.out_weight);
  w.put_all(n.out_bias);
  return std::move(w.out);
}

// The integer arithmetic's bounds: an accumulator sums a bias and at most one feature per
// piece (MAX_PIECES_PER_COLOUR per colour) in int16; an output sums players * hidden products
// of a clipped accumulator (at most qa) and a weight in int32.
void check_bounds(const Network& n) {
  const int max_pieces = MAX_PIECES_PER_COLOUR * n.players;
  const size_t inputs = size_t(n.inputs()), hidden = size_t(n.hidden);
  std::vector<int> largest(hidden, 0);
  for (size_t f = 0; f < inputs; ++f)
    for (size_t i = 0; i < hidden; ++i) largest[i] = std::max(largest[i], std::abs(int(n.ft_weight[f * hidden + i])));
  for (size_t i = 0; i < hidden; ++i)
    if (std::abs(int(n.ft_bias[i])) + int64_t(max_pieces) * largest[i] > INT16_MAX)
      throw InvalidNetwork("network weights too large: hidden unit " + std::to_string(i) +
                           " could overflow its 16-bit accumulator (bias plus " + std::to_string(max_pieces) +
                           " pieces at the largest weight exceed 32767)");
  const size_t row = size_t(n.players) * hidden;
  for (int t = 0; t < n.players; ++t) {
    int64_t bound = std::abs(int64_t(n.out_bias[t]));
    for (size_t i = 0; i < row; ++i) bound += int64_t(n.qa) * std::abs(int(n.out_weight[t * row + i]));
    if (bound > INT32_MAX)
      throw InvalidNetwork("network weights too large: output bucket " + std::to_string(t) +
                           " could overflow its 32-bit sum");
  }
}

// The header before its hash field (version 4's layout).
std::string header_before_hash(const Network& n) {
  Writer w;
  w.put_signature(NETWORK_MAGIC, NETWORK_VERSION);
  w.put_text(n.game);
  for (int v :
       {n.cells, n.players, NETWORK_KINDS, n.slots, n.buckets, n.hidden, n.qa, n.qb, n.scale, int(n.on_classic)})
    w.put(uint32_t(v));
  return std::move(w.out);
}

// What the header says, checked; the reader stands after the hash field.
struct Header {
  Network shape;  // without weights
  uint32_t version = 0;
  uint64_t hash = 0;
  size_t payload_at = 0;
};

void check_shape(const Network& n);

Header read_header(NetworkReader& r) {
  Header h;
  h.version = r.expect_signature(NETWORK_MAGIC, OLDEST_NETWORK_VERSION, NETWORK_VERSION, "a polychess network file");
  Network& n = h.shape;
  n.game = r.get_text("the game's name");
  n.cells = int(r.get<uint32_t>("the header"));
  n.players = int(r.get<uint32_t>("the header"));
  const uint32_t kinds = r.get<uint32_t>("the header");
  n.slots = int(r.get<uint32_t>("the header"));
  n.buckets = int(r.get<uint32_t>("the header"));
  n.hidden = int(r.get<uint32_t>("the header"));
  n.qa = int(r.get<uint32_t>("the header"));
  n.qb = int(r.get<uint32_t>("the header"));
  const uint32_t scale = r.get<uint32_t>("the header");
  const uint32_t base = r.get<uint32_t>("the header");
  h.hash = r.get<uint64_t>("the header");
  h.payload_at = r.at;
  if (kinds != NETWORK_KINDS)
    throw InvalidNetwork("network reads " + std::to_string(kinds) + " piece kinds, not " +
                         std::to_string(NETWORK_KINDS));
  if (base > 1) throw InvalidNetwork("network base " + std::to_string(base) + " is neither 0 (none) nor 1 (classic)");
  if (scale < 1 || scale > MAX_NETWORK_SCALE)
    throw InvalidNetwork("network output scale " + std::to_string(scale) + " is not between 1 and " +
                         std::to_string(MAX_NETWORK_SCALE));
  n.scale = int(scale);
  n.on_classic = base == 1;
  for (int* field : {&n.cells, &n.players, &n.slots, &n.buckets, &n.hidden, &n.qa, &n.qb})
    if (*field < 0) throw InvalidNetwork("network header holds a size beyond any board's");
  check_shape(n);
  const Variant* variant = variant_of_network_game(n.game);
  if (!variant) throw InvalidNetwork("network of an unknown game " + quoted(n.game));
  const FeatureSet f = feature_set(*variant);
  if (n.cells != f.cells || n.players != f.players || n.slots != f.slots)  // a name over another game's weights
    throw InvalidNetwork("network header names " + n.game + " (" + std::to_string(f.cells) + " cells, " +
                         std::to_string(f.players) + " players) but holds " + std::to_string(n.cells) + " cells, " +
                         std::to_string(n.players) + " players");
  return h;
}

size_t payload_bytes(const Network& n) {
  return 2 * (size_t(n.hidden) + size_t(n.inputs()) * n.hidden + size_t(n.players) * n.players * n.hidden) +
         4 * size_t(n.players);
}

void check_shape(const Network& n) {
  if (n.players < 2 || n.players > MAX_PLAYERS || n.slots != n.players + 1 || n.cells < 1 || n.cells > MAX_CELLS)
    throw InvalidNetwork("network shape is not one of a board: " + std::to_string(n.cells) + " cells, " +
                         std::to_string(n.players) + " players, " + std::to_string(n.slots) + " controller slots");
  if (n.buckets != 1 && n.buckets != KING_BUCKETS)
    throw InvalidNetwork("network king buckets " + std::to_string(n.buckets) + " is neither 1 (none) nor " +
                         std::to_string(KING_BUCKETS));
  if (n.hidden < HIDDEN_STEP || n.hidden > MAX_HIDDEN || n.hidden % HIDDEN_STEP)
    throw InvalidNetwork("network hidden width " + std::to_string(n.hidden) + " is not a multiple of " +
                         std::to_string(HIDDEN_STEP) + " between " + std::to_string(HIDDEN_STEP) + " and " +
                         std::to_string(MAX_HIDDEN));
  if (n.qa != NETWORK_QA || n.qb != NETWORK_QB)
    throw InvalidNetwork("network quantization " + std::to_string(n.qa) + "/" + std::to_string(n.qb) +
                         " is not this version's " + std::to_string(NETWORK_QA) + "/" + std::to_string(NETWORK_QB));
  if (n.scale <= 0 || n.scale > MAX_NETWORK_SCALE)
    throw InvalidNetwork("network output scale " + std::to_string(n.scale) + " is not between 1 and " +
                         std::to_string(MAX_NETWORK_SCALE));
}

}  // namespace

uint64_t Network::hash() const {
  const std::string covered = header_before_hash(*this) + payload(*this);
  return fnv1a(covered.data(), covered.size());
}

void Network::check_game(const Variant& variant) const {
  const FeatureSet f = feature_set(variant);
  if (game != network_game(variant) || cells != f.cells || players != f.players || slots != f.slots)
    throw InvalidNetwork("the network is for " + game + " (" + std::to_string(cells) + " cells, " +
                         std::to_string(players) + " players), not for " + network_game(variant) + " (" +
                         std::to_string(f.cells) + " cells, " + std::to_string(f.players) + " players)");
}

std::string write_network(const Network& n) {
  const std::string header = header_before_hash(n), p = payload(n);
  Writer w;
  w.put(fnv1a((header + p).data(), header.size() + p.size()));
  return header + w.out + p;
}

size_t network_file_size(const std::string& head) {
  NetworkReader r{head, 0, "network file"};
  const Header h = read_header(r);
  return h.payload_at + payload_bytes(h.shape);
}

Network read_network(const std::string& bytes) {
  NetworkReader r{bytes, 0, "network file"};
  const Header h = read_header(r);
  Network n = h.shape;
  if (bytes.size() > h.payload_at + payload_bytes(n))
    throw InvalidNetwork("network file has " + std::to_string(bytes.size() - h.payload_at - payload_bytes(n)) +
                         " bytes after its weights");
  r.get_all(n.ft_bias, size_t(n.hidden), "the feature biases");
  r.get_all(n.ft_weight, size_t(n.inputs()) * n.hidden, "the feature weights");
  r.get_all(n.out_weight, size_t(n.players) * n.players * n.hidden, "the output weights");
  r.get_all(n.out_bias, size_t(n.players), "the output biases");
  // Version 4 hashes every byte but the hash's own; version 3 hashed the weights alone.
  std::string covered = bytes.substr(h.payload_at);
  if (h.version >= 4) covered = bytes.substr(0, h.payload_at - 8) + covered;
  if (fnv1a(covered.data(), covered.size()) != h.hash)
    throw InvalidNetwork(h.version >= 4 ? "network file corrupted: its header and weights do not match its hash"
                                        : "network file corrupted: its weights do not match the hash in its header");
  check_bounds(n);
  return n;
}

Network quantize_network(const Variant& variant, int buckets, int hidden, const std::vector<float>& ft_bias,
                         const std::vector<float>& ft_weight, const std::vector<float>& out_weight,
                         const std::vector<float>& out_bias, int scale, bool on_classic) {
  const FeatureSet f = feature_set(variant);
  Network n;
  n.game = network_game(variant);
  n.cells = f.cells;
  n.players = f.players;
  n.slots = f.slots;
  n.buckets = buckets;
  n.hidden = hidden;
  n.scale = scale;
  n.on_classic = on_classic;
  check_shape(n);
  auto expect = [](const std::vector<float>& values, size_t count, const char* what) {
    if (values.size() != count)
      throw InvalidNetwork(std::string(what) + " has " + std::to_string(values.size()) + " values, not " +
                           std::to_string(count));
  };
  const size_t h = size_t(hidden);
  expect(ft_bias, h, "ft_bias");
  expect(ft_weight, size_t(n.inputs()) * h, "ft_weight");
  expect(out_weight, size_t(n.players) * n.players * h, "out_weight");
  expect(out_bias, size_t(n.players), "out_bias");
  auto quantized = [](const std::vector<float>& values, double factor, auto limit) {
    using T = decltype(limit);
    std::vector<T> out(values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      const double v = std::round(double(values[i]) * factor);
      if (!std::isfinite(v) || std::abs(v) > double(limit))
        throw InvalidNetwork("network weight " + std::to_string(values[i]) + " cannot be quantized");
      out[i] = T(v);
    }
    return out;
  };
  n.ft_bias = quantized(ft_bias, n.qa, int16_t(INT16_MAX));
  n.ft_weight = quantized(ft_weight, n.qa, int16_t(INT16_MAX));
  n.out_weight = quantized(out_weight, n.qb, int16_t(INT16_MAX));
  n.out_bias = quantized(out_bias, double(n.qa) * n.qb, int32_t(INT32_MAX));
  check_bounds(n);
  return n;
}

}  // namespace polychess
