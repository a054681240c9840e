"""The match runner (polychess.match) and its statistics."""
