"""The web game and HTTP API: ``create_app(settings)`` builds the FastAPI application.

Importing this package imports FastAPI; ``npuzzle serve`` does so only when it runs.
"""

from __future__ import annotations

from .app import ServerBusy, WebSettings, create_app

__all__ = ["ServerBusy", "WebSettings", "create_app"]
