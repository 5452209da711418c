"""One click for the newest rating list: the button that downloads and imports it.

Which list is the event's: the AGA's TDListA for an AGA event, the EGD's list of players
for a BGA or EGF event (the Tournament sheet's McMahon rules). The work is the imports'
own (``import-tdlista --download``, ``import-egd-list --download``).
"""

from __future__ import annotations

from collections.abc import Mapping

from addin.actions import egd_list, registration
from addin.actions.list_source import DOWNLOAD
from addin.actions.registry import Param, ParamKind, action
from addin.actions.session import Session
from addin.core.european import McMahonRules
from addin.download import EGD_URL, TDLISTA_URL
from addin.workbook.book import read_settings


@action(
    "download-list",
    "Download rating list",
    "download the newest rating list and import it: the AGA's TDListA, or for a BGA or EGF "
    "event (McMahon rules) the EGD's list of players",
    Param(
        "url",
        "the address to download from (default: the list's own)",
        asked=False,
        metavar="URL",
    ),
    Param(
        "update_players",
        "when a round is paired already, update the registered players' data anyway",
        ParamKind.FLAG,
        asked=False,
    ),
)
def download_list(session: Session, params: Mapping[str, object]) -> None:
    rules = read_settings(session.gw).settings.mcmahon_rules
    url = params.get("url")
    update = {"update_players": params.get("update_players")}
    if rules is McMahonRules.AGA:
        registration.import_tdlista(session, {DOWNLOAD: url or TDLISTA_URL, **update})
    else:
        egd_list.import_egd_list(session, {DOWNLOAD: url or EGD_URL, **update})
