"""The package version: one place, read by pyproject.toml (dynamic version) and recorded in every output."""
__version__ = "0.1.0"
