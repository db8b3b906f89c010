"""The main screen's tabs, one pane each: runs, samples, matrix and benchmark health."""
