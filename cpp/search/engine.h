// An engine for embedders: a transposition table kept from one search to the next (what it
// holds can speed a later search up, never turn its scores round: searcher.h), a flag that stops
// the running search from another thread, and one search at a time.
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
      std::atomic<bool>& stop;
      ~Idle() {
        stop = false;
        busy = false;
      }
    } idle{busy_, stop_};
    return polychess::search(state, tt_, limits, stop_, on_iteration);
  }
  // Ends the running search early, from another thread. The flag is lowered when a search
  // ends, not when one begins, so that a stop sent as a search starts is never lost; a stop
  // sent while no search runs ends the next one at once (polychess.Engine sends none then).
  void stop() { stop_ = true; }
  void allow() { stop_ = false; }  // takes back a stop sent while no search ran
  void clear() { tt_.clear(); }    // forgets every position searched

 private:
  TranspositionTable tt_;
  std::atomic<bool> stop_{false}, busy_{false};
};

}  // namespace polychess
