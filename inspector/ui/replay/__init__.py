"""The replay screen's parts: one widget per region, plain helpers for its logic.

`ReplayHeader` (what is replayed, state, clock), `DemoHeader` (big phase and clock in demo
mode), `NoticesLine`, `FilterBar` (filter and search inputs) and `StatusLine` redraw only
when their reactive fields change; `Playback` moves the clock and the log view together,
`DemoMode` keeps demo mode's state, `seek` holds the pure seeking arithmetic and `jobs` the
plain parts of the thread workers (throttled progress, following a growing log).
"""

from __future__ import annotations
