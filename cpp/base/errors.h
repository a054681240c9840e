// Exceptions the core throws for bad input; the bindings turn each into its own Python
// exception class (all subclasses of ValueError).
#pragma once

#include <stdexcept>
#include <string>

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
// A move or an event offered to a game that is over.
struct GameOver : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// An index among `count` players, colours, cells...: a wrong one is std::out_of_range (an
// IndexError in Python) naming it.
inline int checked_index(int index, int count, const char* what) {
  if (index < 0 || index >= count) throw std::out_of_range(std::string("no ") + what + " " + std::to_string(index));
  return index;
}

// Input text as an error message shows it: in quotes, and cut (at a character boundary)
// when it is long, so a megabyte of garbage does not come back as a megabyte of message.
inline std::string quoted(const std::string& text, size_t limit = 60) {
  if (text.size() <= limit) return "'" + text + "'";
  size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 continuation
  return "'" + text.substr(0, cut) + "...' (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace polychess
