"""Games and boards written out and read back (polychess.formats, polychess.svg): PGN, FEN4/PGN4, game
records, the tag-pair lexer, SVG pictures."""
