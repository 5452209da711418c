"""Publishing the tournament for players: a static site (``publish``) and a local server
(``serve``)."""
