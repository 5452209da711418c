"""Importing this module registers every action in ``addin.actions.registry.ACTIONS``."""

from addin.actions import registration, reports  # noqa: F401
