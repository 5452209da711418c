"""What the window doors (the Excel add-in, LibreOffice Calc) share: the buttons they show
(``buttons``), the dispatcher every button runs (``dispatch``), the parameters read from the
TD's selection (``selected``), the dialogs' interface (``dialogs``) and the journal of an
open window. A door gives its own open window (storage, dialogs, selection); no
door imports another."""
