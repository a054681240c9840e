#include "games/variant.h"

#include <algorithm>
#include <stdexcept>

#include "base/errors.h"

namespace polychess {
namespace {

// The games in the catalogue's order; a variant's first entry gives its default mode and setup.
std::vector<const Variant*> build_registry() {
  return {&three_player_chess(),           &standard_chess(),
          &four_player_chess(true, true),  &four_player_chess(true, false),
          &four_player_chess(false, true), &four_player_chess(false, false)};
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
