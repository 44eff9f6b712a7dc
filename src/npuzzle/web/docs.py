"""``/docs`` (Swagger UI) and ``/redoc`` (ReDoc) served from local files, so they work with no internet.

FastAPI's own pages load their JavaScript and CSS from a CDN: offline they are blank. The assets here come
from the ``fastapi-offline`` package (Swagger UI's bundle and CSS, ReDoc's standalone bundle), mounted at
``/docs-assets``; the two pages are FastAPI's own HTML pointed at them, with Google Fonts and Swagger's
online validator badge turned off, and ReDoc's sidebar badge without its vendor's logo (an image from a CDN:
the docs' Content-Security-Policy blocks it, and a page that works offline asks nothing of a third party).
"""

from __future__ import annotations

import logging
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import (
    get_redoc_html,
    get_swagger_ui_html,
    get_swagger_ui_oauth2_redirect_html,
)
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

ASSETS_URL = "/docs-assets"
#: The image ReDoc's "API docs by Redocly" badge loads, and the empty local one served in its place (no
#: double quotes: it replaces the text inside a JavaScript string).
REDOC_LOGO_URL = "https://cdn.redoc.ly/redoc/logo-mini.svg"
NO_LOGO_URL = "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'/%3E"
_log = logging.getLogger("npuzzle.web")


def assets_folder() -> Path | None:
    """The folder holding ``swagger-ui-bundle.js``, ``swagger-ui.css`` and ``redoc.standalone.js``."""
    try:
        import fastapi_offline
    except ImportError:
        return None
    folder = Path(fastapi_offline.__file__).parent / "static"
    needed = ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js")
    return folder if all((folder / name).is_file() for name in needed) else None


def add_offline_docs(app: FastAPI, docs_url: str = "/docs", redoc_url: str = "/redoc") -> None:
    """Add the two documentation pages and their assets to ``app`` (created with ``docs_url=None``)."""
    folder = assets_folder()
    swagger_assets: dict[str, str] = {}  # empty: FastAPI's defaults, from a CDN
    redoc_assets: dict[str, str] = {}
    if folder is None:
        _log.warning("fastapi-offline is not installed: /docs and /redoc load their scripts from a CDN")
    else:
        redoc_js = folder / "redoc.standalone.js"
        bundle: list[bytes] = []  # read on the first request, then kept (about 1 MB)

        @app.get(f"{ASSETS_URL}/redoc.standalone.js", include_in_schema=False)  # before the mount: it wins
        def redoc_without_logo() -> Response:
            if not bundle:
                bundle.append(redoc_js.read_bytes().replace(REDOC_LOGO_URL.encode(), NO_LOGO_URL.encode()))
            return Response(bundle[0], media_type="text/javascript")

        app.mount(ASSETS_URL, StaticFiles(directory=folder), name="docs-assets")
        icon = f"{ASSETS_URL}/favicon.png" if (folder / "favicon.png").is_file() else ""
        swagger_assets = {
            "swagger_js_url": f"{ASSETS_URL}/swagger-ui-bundle.js",
            "swagger_css_url": f"{ASSETS_URL}/swagger-ui.css",
            "swagger_favicon_url": icon,
        }
        redoc_assets = {"redoc_js_url": f"{ASSETS_URL}/redoc.standalone.js", "redoc_favicon_url": icon}
    openapi_url = app.openapi_url or "/openapi.json"
    oauth2_url = f"{docs_url}/oauth2-redirect"
    title = app.title

    @app.get(docs_url, include_in_schema=False)
    def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{title} - API docs",
            **swagger_assets,
            oauth2_redirect_url=oauth2_url,
            swagger_ui_parameters={"validatorUrl": None},  # the badge would call an online validator
        )

    @app.get(oauth2_url, include_in_schema=False)
    def swagger_ui_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    @app.get(redoc_url, include_in_schema=False)
    def redoc() -> HTMLResponse:
        return get_redoc_html(
            openapi_url=openapi_url,
            title=f"{title} - API reference",
            **redoc_assets,
            with_google_fonts=False,
        )


__all__ = ["ASSETS_URL", "NO_LOGO_URL", "REDOC_LOGO_URL", "add_offline_docs", "assets_folder"]
