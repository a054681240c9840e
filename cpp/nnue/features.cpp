#include "nnue/features.h"

#include <algorithm>
#include <stdexcept>

namespace polychess {
namespace {

// King steps from `from` to every cell (a large number where a king cannot go).
std::vector<int> king_distances(const Layout& lay, int from) {
  std::vector<int> distance(size_t(lay.cell_count), lay.cell_count);
  std::vector<int> frontier{from};
  distance[size_t(from)] = 0;
  for (size_t i = 0; i < frontier.size(); ++i)
    for (int next : lay.king_targets[size_t(frontier[i])])
      if (distance[size_t(next)] > distance[size_t(frontier[i])] + 1) {
        distance[size_t(next)] = distance[size_t(frontier[i])] + 1;
        frontier.push_back(next);
      }
  return distance;
}

// The seat's king buckets by cell: the nearest of its anchors (the king's start, its two
// castled cells) within two king steps, ties to the earlier anchor; the last bucket beyond.
std::vector<uint8_t> king_zones(const Layout& lay, int seat) {
  constexpr int REACH = 2;
  const auto& castling = lay.castling[size_t(seat)];
  const int anchors[KING_BUCKETS - 1] = {castling[0].cells.king_from, castling[0].cells.king_to,
                                         castling[1].cells.king_to};
  std::vector<std::vector<int>> distances;
  for (int anchor : anchors) distances.push_back(king_distances(lay, anchor));
  std::vector<uint8_t> zone(size_t(lay.cell_count), KING_BUCKETS - 1);
  for (size_t cell = 0; cell < zone.size(); ++cell) {
    int best = REACH + 1;
    for (int a = 0; a < KING_BUCKETS - 1; ++a)
      if (distances[size_t(a)][cell] < best) {
        best = distances[size_t(a)][cell];
        zone[cell] = uint8_t(a);
      }
  }
  return zone;
}

}  // namespace

FeatureSet feature_set(const Variant& variant, int buckets) {
  if (buckets != 1 && buckets != KING_BUCKETS)
    throw std::invalid_argument("king buckets " + std::to_string(buckets) + " is neither 1 (none) nor " +
                                std::to_string(KING_BUCKETS));
  const Layout& lay = variant.layout;
  FeatureSet f;
  f.cells = lay.cell_count;
  f.players = variant.players;
  f.slots = variant.players + 1;
  f.buckets = buckets;
  f.inputs = buckets * f.slots * NETWORK_KINDS * f.cells;
  f.turned.resize(size_t(f.players) * f.cells);
  f.king_zone.assign(size_t(f.players) * f.cells, 0);
  for (int seat = 0; seat < f.players; ++seat) {
    for (int cell = 0; cell < f.cells; ++cell)
      f.turned[size_t(seat) * f.cells + cell] = int16_t(lay.turned[seat][cell]);
    if (buckets > 1) {
      const std::vector<uint8_t> zone = king_zones(lay, seat);
      std::copy(zone.begin(), zone.end(), f.king_zone.begin() + ptrdiff_t(seat) * f.cells);
    }
  }
  return f;
}

std::string network_game(const Variant& variant) {
  return variant.mode.empty() ? variant.name : variant.name + "-" + variant.mode;
}

const Variant* variant_of_network_game(const std::string& game) {
  for (const Variant* v : variants())
    if (network_game(*v) == game) return v;
  return nullptr;
}

}  // namespace polychess
