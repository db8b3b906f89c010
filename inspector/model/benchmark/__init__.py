"""Benchmark."""
