"""The game flow (polychess.Game over the core's game state) of every variant: eliminations, points, draws,
clocks, take-backs, options, random games and the recorded event logs."""
