"""A lecturer leading the class: the instructor token of the classroom tests' servers, and taking
the lead in a page (the token entered in the instructor panel, follow mode switched on)."""
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
