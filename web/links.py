"""Links in templates: the server's URLs when live, relative file paths in a static export
(`flask export`), so the same templates serve both."""
from flask import Flask, current_app, g, url_for

from web.assets import plotly_version
from web.static_assets import SCRIPTS, hashed_name


def exporting() -> bool:
    return g.get("static_export", False)


def static_url(filename: str) -> str:
    """A file of static/ (or a script bundle): at a content-hashed URL when served, a relative path in an export."""
    return f"static/{filename}" if exporting() else url_for("static_assets.asset", hashed=hashed_name(filename))


def script_modules() -> bool:
    """FLASK_SCRIPT_MODULES=1: a live page loads its ES modules one by one, as written, instead of the bundle."""
    return bool(current_app.config.get("SCRIPT_MODULES")) and not exporting()


def module_url(bundle: str) -> str:
    """The entry module a script bundle is made from, at the URL that serves modules as written."""
    return url_for("static_assets.module", name=SCRIPTS[bundle].removeprefix("js/"))


def slide_url(n: int) -> str:
    return f"#/{n}" if exporting() else url_for("deck.slide", n=n)


def plotly_url() -> str:
    return "vendor/plotly.min.js" if exporting() else url_for("assets.plotly", ver=plotly_version())


def page_url(endpoint: str, export_file: str) -> str:
    return export_file if exporting() else url_for(endpoint)


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(exporting=exporting, static_url=static_url, slide_url=slide_url,
                                 plotly_url=plotly_url, page_url=page_url,
                                 script_modules=script_modules, module_url=module_url)
