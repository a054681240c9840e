"""The compiled core (cpp/board/, cpp/core/): topology, positions, move generation, perft, the rules engine and
the primitives between moves, against hand-derived facts and the pure-Python reference generator (reference/)."""
