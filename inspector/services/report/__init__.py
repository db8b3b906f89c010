"""The self-contained HTML report (``inspector report PATH --html OUT.html``).

:mod:`.load` reads a runs folder into a :class:`~.data.ReportInput` (runs, metrics, benchmark
health, labels, plots, capped sample details); :mod:`.page` turns that into one HTML page,
a pure function of its input: the same input gives the same bytes.
"""
