"""Movies app: movie resources owned by authenticated users."""
