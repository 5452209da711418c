"""Importing this module registers every action in ``addin.actions.registry.ACTIONS``."""

from addin.actions import (  # noqa: F401
    aga_check,
    aga_reports,
    bands,
    director,
    member_lookup,
    pairing,
    publish,
    registration,
    replace_id,
    reports,
    serve,
    standings,
)
