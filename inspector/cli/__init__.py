"""The command line, thin over the services: ``inspector [PATH]`` and its commands.

:func:`main` is the entry point (``inspector``, ``python -m inspector.cli``).
"""

from inspector.cli.entry import build_parser, main

__all__ = ["build_parser", "main"]
