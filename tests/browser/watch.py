"""What a page did that a user would call broken: a console error, an uncaught exception, or a request
to any host but the test server (the browser's resolver fails those, see conftest.CHROMIUM_ARGS)."""
from urllib.parse import urlparse


class PageWatch:
    """What a page did that a user would call broken."""

    def __init__(self, server_url: str):
        self.host = urlparse(server_url).netloc
        self.errors: list[str] = []
        self.outside_requests: list[str] = []
        self.expected: list[str] = []

    def expect_error(self, text: str) -> None:
        """A test that sends bad input on purpose: the browser logs the 4xx answer, and that is fine."""
        self.expected.append(text)

    def on_console(self, message):
        if message.type == "error" and not any(text in message.text for text in self.expected):
            self.errors.append(f"console: {message.text}")

    def on_page_error(self, error):
        self.errors.append(f"uncaught: {error}")

    def on_request(self, request):
        url = request.url
        local = urlparse(url).scheme in ("data", "blob", "file") or urlparse(url).netloc == self.host
        if not local:
            self.outside_requests.append(url)

    def attach(self, context, page) -> None:
        context.on("request", self.on_request)
        page.on("console", self.on_console)
        page.on("pageerror", self.on_page_error)


def watched_page(browser, server_url: str, width: int = 1280, height: int = 720, **context_options):
    """A page in a context of its own at the given window size, watched (see PageWatch): returns
    (context, page, watch); the caller closes the context and checks the watch."""
    context = browser.new_context(viewport={"width": width, "height": height}, **context_options)
    watch = PageWatch(server_url)
    page = context.new_page()
    watch.attach(context, page)
    return context, page, watch
