#include "core/eval_tables.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "core/placement.h"

namespace polychess {
namespace {

template <int W>
std::unique_ptr<EvalTables<W>> build(const Topology<W>& t) {
  auto tables = std::make_unique<EvalTables<W>>();
  const int n = t.cell_count;
  for (int c = 0; c < n; ++c) {
    Bitboard<W> zone = t.king[c];
    for_each_cell(t.king[c], [&](int near) { zone |= t.king[near]; });
    tables->king_zone[c] = zone;
  }
  // Centrality, as the placement counts it: king steps from the cells farthest from the centre.
  const std::vector<int> central = centrality(t.variant->layout);
  for (int c = 0; c < n; ++c) tables->central[c] = int8_t(central[c]);
  const std::vector<std::vector<int>> advance = pawn_advance(t.variant->layout);
  for (size_t colour = 0; colour < advance.size(); ++colour)
    for (int c = 0; c < n; ++c) tables->advance[colour][c] = int8_t(std::min(advance[colour][c], 127));
  // A pawn's way: its pushes to promotion, each cell's capturers beside it.
  for (int colour = 0; colour < t.variant->colours(); ++colour) {
    for (int c = 0; c < n; ++c) {
      Bitboard<W> way = Bitboard<W>::empty(), span = Bitboard<W>::empty();
      int pushes = 0;
      bool promotes = false;
      for (int at = t.pawn_push[colour][c]; at >= 0 && at != NO_CELL && pushes < MAX_CELLS;
           at = t.pawn_push[colour][at]) {
        way |= t.only[at];
        span |= t.only[at] | t.pawn_attackers_of_any[at];
        ++pushes;
        if (t.promotion[colour] & t.only[at]) {
          promotes = true;
          break;
        }
      }
      tables->pawn_way[colour][c] = way;
      tables->passed_span[colour][c] = span;
      tables->pushes_left[colour][c] = int8_t(promotes ? std::min(pushes, 127) : -1);
    }
  }
  return tables;
}

}  // namespace

template <int W>
const EvalTables<W>& eval_tables(const Topology<W>& topology) {
  static std::mutex mutex;
  static std::map<const Topology<W>*, std::unique_ptr<EvalTables<W>>> built;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = built[&topology];
  if (!slot) slot = build<W>(topology);
  return *slot;
}

template const EvalTables<1>& eval_tables<1>(const Topology<1>&);
template const EvalTables<2>& eval_tables<2>(const Topology<2>&);
template const EvalTables<3>& eval_tables<3>(const Topology<3>&);

}  // namespace polychess
