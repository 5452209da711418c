"""Importing this module registers every action in ``addin.actions.registry.ACTIONS``."""

from addin.actions import aga_reports, bands, pairing, registration, reports, standings  # noqa: F401
