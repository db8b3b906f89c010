"""The sample screen's parts: one widget per tab or region (README, endpoints, the sample
pane with its Files, Tests and Deploy tabs) and the loading of what they show."""
