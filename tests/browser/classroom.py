"""A lecturer leading the class: the instructor token of the classroom tests' servers, taking the
lead in a page (the token entered in the instructor panel, follow mode switched on), and the
lecturer's (or, without the token, a new student's) request to the server's API."""
import json
import urllib.request

from playwright.sync_api import expect

TOKEN = "correct-horse-battery"


def lead_the_class(page):
    page.keyboard.press("i")
    page.locator(".instructor-token").fill(TOKEN)
    page.keyboard.press("Enter")
    expect(page.locator(".instructor-status")).to_have_text("This browser is recognised as the instructor.")
    page.locator(".instructor-follow").check()
    expect(page.locator(".instructor-message")).to_contain_text("Follow mode is on")
    page.keyboard.press("Escape")  # closes the panel, even from its token field
    expect(page.locator(".instructor")).to_be_hidden()


def as_lecturer(server, path: str, body: dict, token: bool = True) -> None:
    """POSTs `body` as JSON with the instructor token; without it, as a new browser (no cookie)."""
    headers = {"Content-Type": "application/json", **({"X-Instructor-Token": TOKEN} if token else {})}
    request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(), headers=headers)
    urllib.request.urlopen(request).close()
