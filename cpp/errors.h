// Exceptions the core throws for bad input; the bindings turn each into its own Python
// exception class (all subclasses of ValueError).
#pragma once

#include <stdexcept>

namespace polychess {

// A position string that cannot be read or describes an impossible position.
struct InvalidPosition : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
// Move text that cannot be read.
struct InvalidMove : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
// A well-formed move that is not legal in the position.
struct IllegalMove : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

}  // namespace polychess
