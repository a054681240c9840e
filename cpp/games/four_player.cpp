// Four-player chess on the cross (docs/rules.md §2, chess.com's rules), in two modes, teams and
// free-for-all, each from two setups, modern and classic (where kings and queens start).
#include "games/variant.h"

namespace polychess {
namespace {

// §2.3: the first mate (or king capture) wins for the mater's team; a stalemate draws; no draw
// by material.
Rules teams_rules() {
  return Rules{.army = Army::PASSES,
               .mate_judged = MateJudged::AT_TURN,
               .stalemate = StalemateEffect::DRAW,
               .first_out_decides = true,
               .insufficient = Insufficient::NEVER};
}

// §2.4: mates are judged right after every move; whoever is out leaves dead pieces; points rank
// the players.
Rules free_for_all_rules() {
  PointsTable points;
  points.capture[PAWN] = 1;
  points.capture[KNIGHT] = 3;
  points.capture[BISHOP] = 5;
  points.capture[ROOK] = 5;
  points.capture[QUEEN] = 9;
  points.capture[ONE_POINT_QUEEN] = 1;
  points.mate = 20;
  points.stalemate = 20;
  points.draw = 10;
  points.checks = {5, 20};  // two kings, three kings
  points.checks_by_queens = {1, 5};
  points.lead = 21;
  return Rules{.army = Army::DEAD,
               .mate_judged = MateJudged::AFTER_MOVE,
               .stalemate = StalemateEffect::OUT,
               .ranking = Ranking::POINTS,
               .points = points,
               .insufficient = Insufficient::NEVER};
}

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
                 teams ? std::vector<Kind>{QUEEN, ROOK, BISHOP, KNIGHT} : std::vector<Kind>{ONE_POINT_QUEEN},
                 /*default_algorithm=*/teams ? "brs" : "paranoid",
                 teams ? teams_rules() : free_for_all_rules(),
                 /*record_format=*/"pgn4",
                 /*record_suffix=*/".pgn4",
                 /*uci_variant=*/"",
                 /*record_variant=*/teams ? "Teams" : "FFA"};
}

// Each mode and setup's definition, made once.
template <bool Teams, bool Modern>
const Variant& four_player_game() {
  static const Variant game = four_player(Teams, Modern);
  return game;
}

// Teams first: a variant's first entry is its default mode, and a mode's first its setup.
const GameEntry entries[] = {{2, four_player_game<true, true>},
                             {3, four_player_game<true, false>},
                             {4, four_player_game<false, true>},
                             {5, four_player_game<false, false>}};

}  // namespace
}  // namespace polychess
