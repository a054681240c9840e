// An engine for embedders: a transposition table kept from one search to the next, a flag that
// stops the running search from another thread, and one search at a time.
#pragma once

#include <atomic>
#include <stdexcept>

#include "search/search.h"

namespace polychess {

class Engine {
 public:
  explicit Engine(size_t hash_mb = 16) : tt_(hash_mb) {}  // std::invalid_argument beyond MAX_HASH_MB

  // Searches the state's position (search()); std::invalid_argument while another search runs.
  template <int W>
  SearchReport search(const GameState<W>& state, const SearchLimits& limits,
                      const IterationCallback& on_iteration = {}) {
    if (busy_.exchange(true)) throw std::invalid_argument("this engine is already searching");
    const struct Idle {
      std::atomic<bool>& busy;
      ~Idle() { busy = false; }
    } idle{busy_};
    stop_ = false;
    return polychess::search(state, tt_, limits, stop_, on_iteration);
  }
  void stop() { stop_ = true; }  // ends the running search early, from another thread
  void clear() { tt_.clear(); }  // forgets every position searched

 private:
  TranspositionTable tt_;
  std::atomic<bool> stop_{false}, busy_{false};
};

}  // namespace polychess
