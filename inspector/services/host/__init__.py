"""The machine the inspector runs on: venvs, installs in a box, confinement, ports, processes."""
