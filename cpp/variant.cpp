#include "variant.h"

#include <stdexcept>

#include "errors.h"

namespace polychess {
namespace {

const std::vector<Kind> ANY_PIECE = {QUEEN, ROOK, BISHOP, KNIGHT};

Variant four_player(bool teams, bool modern) {
  return Variant{"four-player",
                 teams ? "teams" : "ffa",
                 modern ? "modern" : "classic",
                 build_layout(cross_geometry(teams, modern)),
                 4,
                 3,
                 {"red", "blue", "yellow", "green"},
                 "rbyg",
                 /*king_capture=*/true,
                 /*multi_colour_text=*/true,
                 /*upper_case_text=*/false,
                 /*teams=*/teams,
                 /*captured_army_dies=*/!teams,
                 teams ? ANY_PIECE : std::vector<Kind>{ONE_POINT_QUEEN}};
}

std::vector<const Variant*> build_registry() {
  static const Variant three_player{"three-player",
                                    "",
                                    "",
                                    build_layout(hexagon_geometry()),
                                    3,
                                    2,
                                    {"white", "red", "black"},
                                    "wrb",
                                    /*king_capture=*/true,
                                    /*multi_colour_text=*/true,
                                    /*upper_case_text=*/true,
                                    /*teams=*/false,
                                    /*captured_army_dies=*/false,
                                    ANY_PIECE};
  static const Variant standard{"standard",
                                "",
                                "",
                                build_layout(square_geometry()),
                                2,
                                1,
                                {"white", "black"},
                                "wb",
                                /*king_capture=*/false,
                                /*multi_colour_text=*/false,
                                /*upper_case_text=*/false,
                                /*teams=*/false,
                                /*captured_army_dies=*/false,
                                ANY_PIECE};
  static const Variant teams_modern = four_player(true, true), teams_classic = four_player(true, false),
                       ffa_modern = four_player(false, true), ffa_classic = four_player(false, false);
  return {&three_player, &standard, &teams_modern, &teams_classic, &ffa_modern, &ffa_classic};
}

const std::vector<const Variant*>& registry() {
  static const std::vector<const Variant*> variants = build_registry();
  return variants;
}

std::string known(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

const Variant& find_variant(const std::string& name, const std::string& mode, const std::string& setup) {
  bool name_known = false;
  for (const Variant* v : registry()) {
    if (v->name != name) continue;
    name_known = true;
    if (v->mode.empty() && (!mode.empty() || !setup.empty()))
      throw std::invalid_argument("mode and setup apply to four-player chess only, not " + name);
    if (v->mode.empty()) return *v;
    if ((mode.empty() ? "teams" : mode) == v->mode && (setup.empty() ? "modern" : setup) == v->setup) return *v;
  }
  if (!name_known)
    throw std::invalid_argument("unknown variant " + quoted(name) + " (known: " + known(variant_names()) + ")");
  if (!mode.empty() && mode != "teams" && mode != "ffa")
    throw std::invalid_argument("unknown mode " + quoted(mode) + " (known: teams, ffa)");
  throw std::invalid_argument("unknown setup " + quoted(setup) + " (known: modern, classic)");
}

std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const Variant* v : registry())
    if (names.empty() || names.back() != v->name) names.push_back(v->name);
  return names;
}

}  // namespace polychess
