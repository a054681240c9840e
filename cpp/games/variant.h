// A game's whole definition: its board, its names, the rule facts the move generator follows,
// every rule value it is played by, the format of its records and the search it is played by.
// Each game is defined in its own file of this folder (three_player.cpp, standard.cpp,
// four_player.cpp), which also enters it in the list of games (GameEntry): a new game is a new
// file here, nothing else in the core changes. The Python package reads the list
// (polychess.catalogue) and defines nothing of its own. Nothing in the move generator switches
// on the name.
#pragma once

#include <string>
#include <vector>

#include "board/layout.h"
#include "games/rules.h"

namespace polychess {

struct Variant {
  std::string name;
  std::string mode;   // four-player: "teams" or "ffa"; empty elsewhere
  std::string setup;  // four-player: "modern" or "classic"; empty elsewhere
  Layout layout;
  int players;
  int words;                              // bitboard width for this board
  std::vector<std::string> colour_names;  // colour i, which is also player i's seat name
  std::string colour_letters;             // one letter per colour, for position strings
  bool king_capture;                      // a king left attacked may be captured, eliminating its owner
  bool multi_colour_text;                 // position strings of docs/position-strings.md instead of FEN
  bool upper_case_text;                   // cell names and promotion letters in upper case
  bool teams;                             // players p and p + 2 are partners (four-player teams)
  std::vector<Kind> promotion_kinds;
  // The search the engine plays the game by where more than two sides play (search/search.h's
  // names: "brs", "paranoid"): the strongest in our matches at equal time (bench/README.md).
  // Where two sides alternate every algorithm is the same alpha-beta. Decided here alone.
  std::string default_algorithm;
  Rules rules;  // the rules the game is played by (docs/rules.md), before a game's options change them
  // The text format of its records (python/polychess/formats/: "pgn", "pgn4" or "record", the
  // polychess game record) and the file suffix records of it take.
  std::string record_format;
  std::string record_suffix;
  // Its names in other programs' protocols and formats, where they have one of their own: UCI's
  // UCI_Variant ("chess", as GUIs and python-chess call standard chess; empty: the catalogue's
  // name) and its records' Variant tag (chess.com's PGN4 "Teams", "FFA"; empty: none).
  std::string uci_variant;
  std::string record_variant;

  int colours() const { return layout.colour_count; }
};

// Enters a game in the list, at its place: a game's file holds one at namespace scope for each
// of its definitions (`const GameEntry entry{place, definition};`), so that the list is whole
// once the module is loaded. `define` returns the definition, made on the list's first read.
struct GameEntry {
  GameEntry(int place, const Variant& (*define)());
};

// Every game the core knows, by place (the catalogue's one list); a variant's first gives its
// default mode and setup. Two games at one place throw std::logic_error on the first read.
const std::vector<const Variant*>& variants();
// Throws std::invalid_argument naming the known variants, modes or setups. Empty mode and
// setup mean the variant's first listed ones (teams, modern).
const Variant& find_variant(const std::string& name, const std::string& mode = "", const std::string& setup = "");
std::vector<std::string> variant_names();

}  // namespace polychess
