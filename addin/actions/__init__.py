"""The TD commands, front-door neutral: the CLI and the Excel buttons call the same functions."""
