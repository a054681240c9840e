#include "nnue/features.h"

namespace polychess {

FeatureSet feature_set(const Variant& variant) {
  const Layout& lay = variant.layout;
  FeatureSet f;
  f.cells = lay.cell_count;
  f.players = variant.players;
  f.slots = variant.players + 1;
  f.inputs = f.slots * NETWORK_KINDS * f.cells;
  f.turned.resize(size_t(f.players) * f.cells);
  for (int seat = 0; seat < f.players; ++seat)
    for (int cell = 0; cell < f.cells; ++cell)
      f.turned[size_t(seat) * f.cells + cell] = int16_t(lay.turned[seat][cell]);
  return f;
}

std::string network_game(const Variant& variant) {
  return variant.mode.empty() ? variant.name : variant.name + "-" + variant.mode;
}

}  // namespace polychess
