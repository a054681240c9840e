#include "games/variant.h"

#include <algorithm>
#include <stdexcept>

#include "base/errors.h"

namespace polychess {
namespace {

struct Entered {
  int place;
  const Variant& (*define)();
};

// Filled while the module loads, by each game file's GameEntry (constructed on first use, so
// that no file's entries can come before it exists).
std::vector<Entered>& entered() {
  static std::vector<Entered> games;
  return games;
}

std::vector<const Variant*> build_registry() {
  std::vector<Entered> games = entered();
  std::sort(games.begin(), games.end(), [](const Entered& a, const Entered& b) { return a.place < b.place; });
  std::vector<const Variant*> listed;
  for (size_t i = 0; i < games.size(); ++i) {
    if (i > 0 && games[i].place == games[i - 1].place)
      throw std::logic_error("two games entered at place " + std::to_string(games[i].place));
    listed.push_back(&games[i].define());
  }
  return listed;
}

std::string known(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

GameEntry::GameEntry(int place, const Variant& (*define)()) { entered().push_back({place, define}); }

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
