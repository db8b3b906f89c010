"""Genesis Inspector: browse, replay, re-run and label RepoGenesis-style evaluations."""

__version__ = "0.1.0"
