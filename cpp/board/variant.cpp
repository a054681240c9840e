#include "board/variant.h"

#include <algorithm>
#include <stdexcept>

#include "base/errors.h"

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
                 teams ? ANY_PIECE : std::vector<Kind>{ONE_POINT_QUEEN},
                 /*default_algorithm=*/teams ? "brs" : "paranoid"};
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
                                    ANY_PIECE,
                                    /*default_algorithm=*/"brs"};
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
                                ANY_PIECE,
                                /*default_algorithm=*/"brs"};
  static const Variant teams_modern = four_player(true, true), teams_classic = four_player(true, false),
                       ffa_modern = four_player(false, true), ffa_classic = four_player(false, false);
  return {&three_player, &standard, &teams_modern, &teams_classic, &ffa_modern, &ffa_classic};
}

std::string known(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

const std::vector<const Variant*>& variants() {
  static const std::vector<const Variant*> registered = build_registry();
  return registered;
}

// A variant's first registered entry gives its default mode and setup (teams, modern).
const Variant& find_variant(const std::string& name, const std::string& mode, const std::string& setup) {
  const Variant* first = nullptr;
  std::vector<std::string> modes, setups;
  for (const Variant* v : variants()) {
    if (v->name != name) continue;
    if (!first) first = v;
    if (std::find(modes.begin(), modes.end(), v->mode) == modes.end()) modes.push_back(v->mode);
    if (std::find(setups.begin(), setups.end(), v->setup) == setups.end()) setups.push_back(v->setup);
  }
  if (!first)
    throw std::invalid_argument("unknown variant " + quoted(name) + " (known: " + known(variant_names()) + ")");
  if (first->mode.empty()) {
    if (!mode.empty() || !setup.empty())
      throw std::invalid_argument("mode and setup apply to four-player chess only, not " + name);
    return *first;
  }
  const std::string& wanted_mode = mode.empty() ? first->mode : mode;
  const std::string& wanted_setup = setup.empty() ? first->setup : setup;
  for (const Variant* v : variants())
    if (v->name == name && v->mode == wanted_mode && v->setup == wanted_setup) return *v;
  if (std::find(modes.begin(), modes.end(), wanted_mode) == modes.end())
    throw std::invalid_argument("unknown mode " + quoted(wanted_mode) + " (known: " + known(modes) + ")");
  throw std::invalid_argument("unknown setup " + quoted(wanted_setup) + " (known: " + known(setups) + ")");
}

std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const Variant* v : variants())
    if (names.empty() || names.back() != v->name) names.push_back(v->name);
  return names;
}

}  // namespace polychess
