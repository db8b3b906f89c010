"""The queue's loaded samples: read and triaged once each, from worker threads, with no
sample loaded twice at once (no Textual)."""

from __future__ import annotations

import threading

from inspector.model.results.entries import SampleEntry
from inspector.services.catalog.index import Catalog
from inspector.services.labels.queue import QueueSample, QueueTriage, load_queue_sample


class QueueLoader:
    """Loads queue samples by position; ``loaded`` is filled on the UI thread (:meth:`keep`)."""

    def __init__(self, entries: list[SampleEntry], triage: QueueTriage | None) -> None:
        self.entries = entries
        self.triage = triage
        self.loaded: dict[int, QueueSample] = {}
        self._inflight: set[int] = set()
        self._lock = threading.Lock()

    def load(self, catalog: Catalog, i: int) -> QueueSample | None:
        """Load sample ``i`` (blocking; from a worker), or ``None`` when it is loaded, being
        loaded or out of range."""
        with self._lock:
            if i in self.loaded or i in self._inflight or not 0 <= i < len(self.entries):
                return None
            self._inflight.add(i)
        try:
            return load_queue_sample(catalog, self.entries[i], self.triage)
        finally:
            with self._lock:
                self._inflight.discard(i)

    def keep(self, i: int, sample: QueueSample) -> None:
        """Remember sample ``i`` as loaded."""
        self.loaded[i] = sample

    def get(self, i: int) -> QueueSample | None:
        """Sample ``i`` if loaded."""
        return self.loaded.get(i)
