"""The ``gm`` command line (typer).  Domain errors become one-line CLI errors only here."""
