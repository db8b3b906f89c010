"""Side effects and computations over the model: metrics, coverage, the harness, writers.

Never imports Textual or Rich; reports progress through callbacks.
"""
