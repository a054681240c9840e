#include "core/evaluate.h"

#include <map>
#include <memory>
#include <mutex>

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
