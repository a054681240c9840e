"""The one exception the web layer raises on purpose: a request it refuses, with the HTTP
status and a message for the person at the browser."""

from __future__ import annotations


class ApiError(Exception):
    """A request that cannot be served as asked; ``status`` is the HTTP status to answer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
