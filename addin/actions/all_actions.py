"""Importing this module registers every action in ``addin.actions.registry.ACTIONS``."""

from addin.actions import (  # noqa: F401
    accept_results,
    aga_check,
    aga_reports,
    bands,
    director,
    egd,
    member_lookup,
    opengotha,
    pairing,
    publish,
    registration,
    replace_id,
    reports,
    rules,
    serve,
    standings,
)
