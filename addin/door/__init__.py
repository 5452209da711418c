"""What the window doors (the Excel add-in, LibreOffice Calc) share: the buttons they show
(``buttons``), the dispatcher every button runs (``dispatch``), the parameters read from the
TD's selection (``selected``), the dialogs' interface (``dialogs``) and the journal of an
open window (``window_journal``). A door gives its own gateway, dialogs and window; no
door imports another."""
