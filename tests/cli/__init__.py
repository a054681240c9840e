"""The command line (polychess.cli), run through main() and end to end."""
