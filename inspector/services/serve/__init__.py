"""``inspector serve``: the real app in a browser, one app process per tab.

textual-serve's process driver (:mod:`textual_serve.app_service`) and its page script
(xterm.js) do the terminal work; this package adds what it lacks: every asset from the server
itself (no web font service), a token (:mod:`.access`), a cap on sessions with processes that
never outlive their tab (:mod:`.sessions`), and the app's command line (:mod:`.command`).
:mod:`.server` is the aiohttp application that ties them together.
"""
