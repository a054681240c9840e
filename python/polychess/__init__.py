"""polychess: chess for more than two players, with a fast C++ core."""
