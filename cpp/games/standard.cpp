// Standard chess (docs/rules.md §3), the board that validates the core against other engines.
#include "games/variant.h"

namespace polychess {
namespace {

const Variant& standard_chess() {
  static const Variant game{"standard",
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
                            {QUEEN, ROOK, BISHOP, KNIGHT},
                            /*default_algorithm=*/"brs",
                            // The first mate decides; a stalemate freezes the one side left, which draws.
                            Rules{.army = Army::PASSES,
                                  .mate_judged = MateJudged::AT_TURN,
                                  .stalemate = StalemateEffect::FREEZE,
                                  .first_out_decides = true,
                                  .insufficient = Insufficient::FIDE},
                            /*record_format=*/"pgn",
                            /*record_suffix=*/".pgn",
                            /*uci_variant=*/"chess",
                            /*record_variant=*/""};
  return game;
}

const GameEntry standard_entry{1, standard_chess};

}  // namespace
}  // namespace polychess
