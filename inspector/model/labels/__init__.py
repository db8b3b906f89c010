"""Failure labels: label files, all of a project's labels read together, roots and roll-up,
agreement, taxonomy, errata."""
