"""The Excel add-in: the ribbon and its VBA (``build``), the one dispatcher every button
calls (``entry``), the dialogs it shows, and the installer (``install``)."""
