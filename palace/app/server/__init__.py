"""Serving the app to a class: Voilà with a pool, a ceiling, a line at the door, page guards, TLS.

Run it with ``make app`` or ``python -m palace.app.server notebooks/`` (docs/serving.md).
Nothing here is imported by the app's widgets: it runs in the server process only.
"""
