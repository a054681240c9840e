// Action codes for learning agents (docs/rl.md): a fixed numbering of every move a board can
// hold, seen from the mover's seat, so that one policy output serves every seat.
//
// A code is a geometric from-to pair of the board in seat 0's frame (Layout::turned): the
// cells a queen or a knight reaches on the empty board, and every pawn step, double step and
// capture of any colour (castling moves the king along a rook line). A pair on which some
// pawn can promote has three more codes, the under-promotions to knight, bishop and rook; its
// plain code promotes to the game's queen. Pairs are numbered by origin cell, then target
// cell, in seat 0's frame. A from-to pair is one move of a position, so each legal move has
// exactly one code (the forked diagonals through the hexagon's centre join two cells by one
// line at most: build_layout checks it).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "base/types.h"
#include "games/variant.h"

namespace polychess {

struct ActionSpace {
  int cells = 0;
  int size = 0;
  std::vector<int16_t> from, to;  // [code] in seat 0's frame
  std::vector<int8_t> promotion;  // [code] the under-promotion's kind, NO_KIND for a plain code
  std::vector<int32_t> plain;     // [from * cells + to] in seat 0's frame: the pair's code, -1 if none
  std::vector<int32_t> under;     // [from * cells + to]: its knight under-promotion (bishop, rook follow), -1
  const std::vector<std::vector<int>>* frame = nullptr;  // [seat][cell] -> seat 0's frame: Layout::turned
  std::vector<std::vector<int>> board;                   // [seat][frame cell] -> cell: the inverse
  Kind queen = QUEEN;                                    // what a plain code promotes to
};

// The variant's action space, built once.
const ActionSpace& action_space(const Variant& v);

// Whether `code`, a number of any integer type, is one of the space's codes (0 to size - 1).
// Every entry point checks its codes with this before narrowing them to int: a wider number
// must not wrap around onto a code.
template <class Int>
bool is_action_code(const ActionSpace& space, Int code) {
  static_assert(std::is_integral_v<Int>);
  if constexpr (std::is_signed_v<Int>)
    if (code < 0) return false;
  return static_cast<uint64_t>(code) < static_cast<uint64_t>(space.size);
}

// What an action code is, for messages: "the action codes are whole numbers from 0 to N".
std::string action_codes_text(const ActionSpace& space);
// The message for `value` (as the caller shows it), which is not an action code of the space.
std::string not_an_action(const ActionSpace& space, const std::string& value);

// The code of move `m` made by the player of `seat` (a colour index); -1 for a move the space
// has no code for (none is legal).
int encode_action(const ActionSpace& space, int seat, Move m);

// The codes of `moves` (a position's legal moves, its mover at `seat`), in increasing order.
std::vector<int> action_codes(const ActionSpace& space, int seat, const Move* moves, int count);

// Writes the mask of `moves` (a position's legal moves, its mover at `seat`) into `mask`
// (space.size bytes): 1 at their codes, 0 elsewhere.
void write_action_mask(const ActionSpace& space, int seat, const Move* moves, int count, int8_t* mask);

// The move a code stands for in seat 0's frame (a plain code written without its promotion).
Move action_move(const ActionSpace& space, int code);

// The move among `moves` (a position's legal moves, its mover at `seat`) that has `code`;
// MOVE_NONE if none has it (also for a number that is no code).
Move decode_action(const ActionSpace& space, int seat, int code, const Move* moves, int count);

}  // namespace polychess
