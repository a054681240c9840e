// Three-player chess on the 96-cell hexagon (docs/rules.md §1): a mated army passes to the mater,
// a stalemated player is frozen, and the last one in wins.
#include "games/variant.h"

namespace polychess {
namespace {

const Variant& three_player_chess() {
  static const Variant game{"three-player",
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
                            {QUEEN, ROOK, BISHOP, KNIGHT},
                            /*default_algorithm=*/"brs",
                            // §1.6-1.12: a second stalemate (or one after a mate) draws; a mate after a stalemate ends
                            // the game.
                            Rules{.army = Army::PASSES,
                                  .mate_judged = MateJudged::AT_TURN,
                                  .stalemate = StalemateEffect::FREEZE,
                                  .out_after_freeze_ends = true,
                                  .insufficient = Insufficient::BARE_KINGS},
                            /*record_format=*/"record",
                            /*record_suffix=*/".txt",
                            /*uci_variant=*/"",
                            /*record_variant=*/""};
  return game;
}

const GameEntry three_player_entry{0, three_player_chess};

}  // namespace
}  // namespace polychess
