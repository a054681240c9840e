#include "placement.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
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

std::unique_ptr<PlacementTable> build(const Layout& lay) {
  const int n = lay.cell_count;
  auto king_steps = [&](int c) { return lay.king_targets[c]; };

  // Centrality: how far a cell is from the graph centre (the cells of least eccentricity).
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

  auto reach = [&](const std::vector<std::vector<CellList>>& rays, int c) {
    size_t cells = 0;
    for (const CellList& r : rays[c]) cells += r.size();
    return int(cells);
  };

  auto table = std::make_unique<PlacementTable>();
  for (int colour = 0; colour < lay.colour_count; ++colour) {
    // Pawn advancement: pushes still needed to reach a promotion cell.
    const std::vector<int> to_promotion = distances(n, lay.promotion_cells[colour], [&](int c) {
      std::vector<int> back;
      for (int from = 0; from < n; ++from)
        if (lay.pawn_push[colour][from] == c) back.push_back(from);
      return back;
    });
    int longest = 1;
    for (int d : to_promotion) longest = std::max(longest, d);
    for (int c = 0; c < n; ++c) {
      const int central = far - from_centre[c];
      auto& sq = table->value[colour];
      sq[PAWN][c] = int16_t(PIECE_VALUE[PAWN] + (to_promotion[c] < 0 ? 0 : 60 * (longest - to_promotion[c]) / longest) +
                            2 * central);
      sq[KNIGHT][c] = int16_t(PIECE_VALUE[KNIGHT] + 4 * int(lay.knight_targets[c].size()) + 3 * central);
      sq[BISHOP][c] = int16_t(PIECE_VALUE[BISHOP] + 2 * reach(lay.bishop_rays, c) + 2 * central);
      sq[ROOK][c] = int16_t(PIECE_VALUE[ROOK] + reach(lay.rook_rays, c) + central);
      sq[QUEEN][c] = sq[ONE_POINT_QUEEN][c] =
          int16_t(PIECE_VALUE[QUEEN] + (reach(lay.rook_rays, c) + reach(lay.bishop_rays, c)) / 2 + central);
      sq[KING][c] = int16_t(-6 * central);  // keep the king away from the crowded centre
    }
  }
  return table;
}

}  // namespace

const PlacementTable& placement_table(const Layout& layout) {
  static std::mutex mutex;
  static std::map<const Layout*, std::unique_ptr<PlacementTable>> built;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = built[&layout];
  if (!slot) slot = build(layout);
  return *slot;
}

}  // namespace polychess
