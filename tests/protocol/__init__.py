"""The engine protocols (polychess.protocol): `polychess uci` and the client for external engines."""
