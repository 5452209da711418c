"""One click for the newest rating list: the button that downloads and imports it.

Which list is the event's: the AGA's TDListA for an AGA event, the EGD's list of players
for a BGA or EGF event (the Tournament sheet's McMahon rules). The work is the imports'
own (``import-tdlista --download``, ``import-egd-list --download``).
"""

from __future__ import annotations

from dataclasses import dataclass

from addin.actions import egd_list, registration
from addin.actions.change import Change, Snapshot
from addin.actions.registry import ParamKind, action, param
from addin.actions.sections import PLAYERS, SETTLED
from addin.core.european import McMahonRules
from addin.download import EGD_URL, TDLISTA_URL, Downloaded
from addin.workbook.book import read_settings
from addin.workbook.layout import Section


@dataclass(frozen=True, kw_only=True)
class DownloadListParams:
    url: str | None = param(
        "the address to download from (default: the list's own)", asked=False, metavar="URL"
    )
    update_players: bool = param(
        "when a round is paired already, update the registered players' data anyway",
        ParamKind.FLAG,
        asked=False,
    )
    downloaded: Downloaded | None = None
    """The list the store downloaded (the imports ask for it)."""


@action(
    "download-list",
    "Download rating list",
    "download the newest rating list and import it: the AGA's TDListA, or for a BGA or EGF "
    "event (McMahon rules) the EGD's list of players",
    DownloadListParams,
    reads=SETTLED,
    writes=PLAYERS | {Section.MEMBERS, Section.EGD_LIST},
)
def download_list(snapshot: Snapshot, params: DownloadListParams) -> Change:
    rules = read_settings(snapshot).settings.mcmahon_rules
    url, update, got = params.url, params.update_players, params.downloaded
    if rules is McMahonRules.AGA:
        return registration.import_tdlista(
            snapshot,
            registration.ImportTdlistaParams(
                download=url or TDLISTA_URL, update_players=update, downloaded=got
            ),
        )
    return egd_list.import_egd_list(
        snapshot,
        egd_list.ImportEgdListParams(
            download=url or EGD_URL, update_players=update, downloaded=got
        ),
    )
