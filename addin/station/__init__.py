"""The stations' door: entries sent from the registration and results stations, written into
the workbook through the tournament store (``addin.station.writer``).

The pages and the entry queue are the served site's (``addin.publish.stations``,
``addin.publish.station_queue``); this door only turns a kept entry into a run of its
action, signed with the station's name, and the run's outcome into what the station is told.
"""
