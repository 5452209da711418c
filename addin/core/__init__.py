"""The pure core: ratings, bands, pairing, scoring. Never imports a spreadsheet library."""
