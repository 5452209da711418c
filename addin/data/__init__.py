"""Data shipped with the package: a sample of the AGA TDListA for the demo."""
