"""Notes API package."""
