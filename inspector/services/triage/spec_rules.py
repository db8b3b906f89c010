"""Spec-grounded readings: the failing assertion against the README's contract."""

from __future__ import annotations

from inspector.model.triage import Reading

from .rules import ItemEvidence


def spec_readings(ev: ItemEvidence) -> list[Reading]:
    """Readings from what the test expected versus what the README specifies."""
    return []
