"""The search (cpp/search/, polychess.engine): forced mates, limits, the search signature, strength levels, and
the evaluation and its tuning."""
