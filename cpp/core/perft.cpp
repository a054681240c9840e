// Perft compiled with each level's instruction set: the bindings that call it are compiled once,
// for the lowest level (CMakeLists.txt), and would otherwise count with their own copy.
#include "core/perft.h"

namespace polychess {

POLYCHESS_PERFT_TEMPLATES(, 1)
POLYCHESS_PERFT_TEMPLATES(, 2)
POLYCHESS_PERFT_TEMPLATES(, 3)

}  // namespace polychess
