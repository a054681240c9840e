#include "variant.h"

#include <stdexcept>

namespace polychess {
namespace {

std::vector<const Variant*> build_registry() {
  static const Variant three_player{
      "three-player", build_layout(hexagon_geometry()), 3, 2,
      {"white", "red", "black"}, "wrb",
      /*king_capture=*/true, /*multi_colour_text=*/true, /*upper_case_text=*/true,
      {QUEEN, ROOK, BISHOP, KNIGHT}};
  static const Variant standard{
      "standard", build_layout(square_geometry()), 2, 1,
      {"white", "black"}, "wb",
      /*king_capture=*/false, /*multi_colour_text=*/false, /*upper_case_text=*/false,
      {QUEEN, ROOK, BISHOP, KNIGHT}};
  return {&three_player, &standard};
}

const std::vector<const Variant*>& registry() {
  static const std::vector<const Variant*> variants = build_registry();
  return variants;
}

}  // namespace

const Variant& find_variant(const std::string& name) {
  for (const Variant* v : registry())
    if (v->name == name) return *v;
  std::string known;
  for (const Variant* v : registry()) known += (known.empty() ? "" : ", ") + v->name;
  throw std::invalid_argument("unknown variant '" + name + "' (known: " + known + ")");
}

std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const Variant* v : registry()) names.push_back(v->name);
  return names;
}

}  // namespace polychess
