"""The web app (polychess.web): its HTTP API, games by invitation, storage, and the page in a browser."""
