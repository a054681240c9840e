// A variant is a board layout plus the rule flags that distinguish one game from another.
// Variants are registered by name; nothing in the move generator switches on the name.
#pragma once

#include <string>
#include <vector>

#include "layout.h"

namespace polychess {

struct Variant {
  std::string name;
  Layout layout;
  int players;
  int words;                              // bitboard width for this board
  std::vector<std::string> colour_names;  // colour i, which is also player i's seat name
  std::string colour_letters;             // one letter per colour, for position strings
  bool king_capture;        // a king left attacked may be captured, eliminating its owner
  bool multi_colour_text;   // position strings of docs/position-strings.md instead of FEN
  bool upper_case_text;     // cell names and promotion letters in upper case
  std::vector<Kind> promotion_kinds;

  int colours() const { return layout.colour_count; }
};

// Throws std::invalid_argument naming the known variants.
const Variant& find_variant(const std::string& name);
std::vector<std::string> variant_names();

}  // namespace polychess
