"""The tournament's journal: every action that changed the workbook, and undo."""
