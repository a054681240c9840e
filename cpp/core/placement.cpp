#include "core/placement.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace polychess {
namespace {

// Breadth-first distances from a set of cells along a relation.
template <class Next>
std::vector<int> distances(int cells, const std::vector<int>& sources, Next next) {
  std::vector<int> dist(cells, -1);
  std::vector<int> queue = sources;
  for (int s : sources) dist[s] = 0;
  for (size_t i = 0; i < queue.size(); ++i)
    for (int n : next(queue[i]))
      if (dist[n] < 0) {
        dist[n] = dist[queue[i]] + 1;
        queue.push_back(n);
      }
  return dist;
}

// What the placement terms count on each cell of a layout, independent of the weights.
struct CellMeasures {
  std::vector<int> central;               // king steps closer to the centre than the farthest cell
  std::vector<std::vector<int>> advance;  // per colour: pawn pushes made toward promotion
  std::vector<int> knight, bishop, rook;  // cells reached on an empty board
};

}  // namespace

std::vector<int> centrality(const Layout& lay) {
  const int n = lay.cell_count;
  auto king_steps = [&](int c) { return lay.king_targets[c]; };
  // How far a cell is from the graph centre (the cells of least eccentricity).
  std::vector<int> eccentricity(n);
  for (int c = 0; c < n; ++c) {
    const std::vector<int> d = distances(n, {c}, king_steps);
    eccentricity[c] = *std::max_element(d.begin(), d.end());
  }
  const int least = *std::min_element(eccentricity.begin(), eccentricity.end());
  std::vector<int> centre;
  for (int c = 0; c < n; ++c)
    if (eccentricity[c] == least) centre.push_back(c);
  const std::vector<int> from_centre = distances(n, centre, king_steps);
  const int far = *std::max_element(from_centre.begin(), from_centre.end());
  std::vector<int> central(n);
  for (int c = 0; c < n; ++c) central[c] = far - from_centre[c];
  return central;
}

std::vector<std::vector<int>> pawn_advance(const Layout& lay) {
  const int n = lay.cell_count;
  std::vector<std::vector<int>> result;
  for (int colour = 0; colour < lay.colour_count; ++colour) {
    // Pawn advancement: pushes still needed to reach a promotion cell, counted back from the
    // longest way.
    const std::vector<int> to_promotion = distances(n, lay.promotion_cells[colour], [&](int c) {
      std::vector<int> back;
      for (int from = 0; from < n; ++from)
        if (lay.pawn_push[colour][from] == c) back.push_back(from);
      return back;
    });
    int longest = 1;
    for (int d : to_promotion) longest = std::max(longest, d);
    std::vector<int> advance(n);
    for (int c = 0; c < n; ++c) advance[c] = to_promotion[c] < 0 ? 0 : longest - to_promotion[c];
    result.push_back(advance);
  }
  return result;
}

namespace {

CellMeasures measure(const Layout& lay) {
  const int n = lay.cell_count;
  auto reach = [&](const std::vector<std::vector<CellList>>& rays, int c) {
    size_t cells = 0;
    for (const CellList& r : rays[c]) cells += r.size();
    return int(cells);
  };

  CellMeasures g;
  g.central = centrality(lay);
  for (int c = 0; c < n; ++c) {
    g.knight.push_back(int(lay.knight_targets[c].size()));
    g.bishop.push_back(reach(lay.bishop_rays, c));
    g.rook.push_back(reach(lay.rook_rays, c));
  }
  g.advance = pawn_advance(lay);
  return g;
}

const CellMeasures& measures(const Layout& layout) {
  static std::mutex mutex;
  static std::map<const Layout*, std::unique_ptr<CellMeasures>> measured;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = measured[&layout];
  if (!slot) slot = std::make_unique<CellMeasures>(measure(layout));
  return *slot;
}

std::unique_ptr<PlacementTable> build(const Layout& lay, const EvalWeights& weights, const CellWeights& cells) {
  auto table = std::make_unique<PlacementTable>();
  table->weights = weights;
  table->cells = cells;
  table->late_placement = false;
  table->late_positional = false;
  for (int t = KNIGHT_MOBILITY; t < BASE_TERM_COUNT; ++t) table->late_positional |= weights[late_twin(t)] != 0;
  table->pawn_structure = false;
  for (int t : {PASSED_PAWN, PASSED_PAWN_NEAR, DOUBLED_PAWN})
    table->pawn_structure |= weights[t] != 0 || weights[late_twin(t)] != 0;
  int features[TERM_COUNT];
  for (int colour = 0; colour < lay.colour_count; ++colour)
    for (int kind = PAWN; kind < KIND_NB; ++kind)
      for (int c = 0; c < lay.cell_count; ++c) {
        placement_features(lay, colour, Kind(kind), c, features);
        int value = 0, late = 0;
        for (int t = 0; t < BASE_TERM_COUNT; ++t) {
          value += weights[t] * features[t];
          late += weights[late_twin(t)] * features[t];
        }
        if (!cells.empty()) {
          const int index = cell_weight_index(lay, colour, Kind(kind), c);
          value += cells[index];
          late += cells[CELL_KINDS * lay.cell_count + index];
        }
        table->value[colour][kind][c] = int16_t(std::clamp(value, -32000, 32000));
        table->late_value[colour][kind][c] = int16_t(std::clamp(late, -32000, 32000));
        table->late_placement |= late != 0;
      }
  return table;
}

struct Tables {
  std::mutex mutex;
  std::map<const Variant*, const PlacementTable*> current;
  std::vector<std::unique_ptr<PlacementTable>> all;  // kept: positions point at the tables they began with
};

Tables& tables() {
  static Tables t;
  return t;
}

}  // namespace

void placement_features(const Layout& layout, int colour, Kind kind, int cell, int* f) {
  std::fill(f, f + TERM_COUNT, 0);
  const CellMeasures& g = measures(layout);
  const int central = g.central[cell];
  switch (kind) {
    case PAWN:
      f[PAWN_VALUE] = 1;
      f[PAWN_ADVANCE] = g.advance[colour][cell];
      f[PAWN_ADVANCE_SQUARED] = g.advance[colour][cell] * g.advance[colour][cell];
      f[PAWN_CENTRE] = central;
      break;
    case KNIGHT:
      f[KNIGHT_VALUE] = 1;
      f[KNIGHT_REACH] = g.knight[cell];
      f[KNIGHT_CENTRE] = central;
      break;
    case BISHOP:
      f[BISHOP_VALUE] = 1;
      f[BISHOP_REACH] = g.bishop[cell];
      f[BISHOP_CENTRE] = central;
      break;
    case ROOK:
      f[ROOK_VALUE] = 1;
      f[ROOK_REACH] = g.rook[cell];
      f[ROOK_CENTRE] = central;
      break;
    case QUEEN:
    case ONE_POINT_QUEEN:
      f[QUEEN_VALUE] = 1;
      f[QUEEN_REACH] = g.rook[cell] + g.bishop[cell];
      f[QUEEN_CENTRE] = central;
      break;
    case KING:
      f[KING_CENTRE] = central;
      break;
    default:
      break;
  }
}

const PlacementTable& placement_table(const Variant& variant) {
  Tables& t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  const PlacementTable*& slot = t.current[&variant];
  if (!slot) {
    t.all.push_back(build(variant.layout, DEFAULT_EVAL_WEIGHTS, {}));
    slot = t.all.back().get();
  }
  return *slot;
}

void set_evaluation_weights(const Variant& variant, const EvalWeights& weights, const CellWeights& cells) {
  for (int w : weights)
    if (w < -30000 || w > 30000) throw std::invalid_argument("evaluation weight out of range: " + std::to_string(w));
  if (!cells.empty() && int(cells.size()) != cell_weight_count(variant.layout))
    throw std::invalid_argument("cell weights: " + std::to_string(cell_weight_count(variant.layout)) +
                                " expected (2 x 6 kinds x " + std::to_string(variant.layout.cell_count) +
                                " cells), got " + std::to_string(cells.size()));
  for (int w : cells)
    if (w < -30000 || w > 30000) throw std::invalid_argument("cell weight out of range: " + std::to_string(w));
  Tables& t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  const PlacementTable*& slot = t.current[&variant];
  if (slot && slot->weights == weights && slot->cells == cells) return;
  t.all.push_back(build(variant.layout, weights, cells));
  slot = t.all.back().get();
}

}  // namespace polychess
