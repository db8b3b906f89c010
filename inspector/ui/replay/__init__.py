"""The replay screen's parts: one widget per region, plain helpers for its logic.

`ReplayLog` (the log view owning the replay's state: clock and frame timer, the filter its rows
show, following, the failure line, and the thread workers, which post messages to it),
`FilterBar` (the filter and search inputs and their state), `ReplayHeader` (what is replayed,
state, clock), `DemoHeader` (big phase and clock in demo mode), `NoticesLine` and `StatusLine`
redraw only when their reactive fields change; `Playback` moves the clock and the log view
together, `DemoMode` keeps demo mode's state, `seek` holds the pure seeking arithmetic, `jobs`
the plain parts of the thread workers (throttled progress, following a growing log), `export`
the export's default name and `evidence` a log line kept as evidence for a label.
"""

from __future__ import annotations
