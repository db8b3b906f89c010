"""Tampering: what in a generated repo reaches for its own golden test run.

:func:`scan_repo` reads a repo statically (nothing is run); :mod:`.findings` gives a sample's
findings, recorded or scanned on demand, and summarises them for the CLI and the app.
"""

from inspector.services.tamper.scan import scan_repo

__all__ = ["scan_repo"]
