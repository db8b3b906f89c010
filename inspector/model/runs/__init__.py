"""Runs on disk: finding them, our run format, the stock harness's layouts, twins, progress, ids."""
