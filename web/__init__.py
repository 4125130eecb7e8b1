"""The Flask side of the lecture: one blueprint (or hook) per concern, wired up by app.create_app."""
