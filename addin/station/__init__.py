"""The stations: how a desk's entry becomes a change, in one package.

- ``pages``: the registration and results desks' pages (HTML, no JavaScript needed).
- ``desk``: the served side: a desk's form checked, kept as an entry, answered.
- ``entries``: the entries kept beside the workbook, each once, with its state.
- ``writer``: the stations' door: each kept entry run through the tournament store
  (``addin.store``) as its action, signed with the station's name, and its outcome told back.

The served site (``addin.publish.serve``) mounts the desk beside the phones' pages.
"""
