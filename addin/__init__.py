"""AGA Swiss McMahon tournament tools for Excel and the command line."""

__version__ = "0.1.0"
