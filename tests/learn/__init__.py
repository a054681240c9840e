"""The learning interfaces (cpp/learn/, polychess.rl): action codes, observations and the environments."""
