"""User-facing errors. The CLI prints the message on one line and exits with status 2."""

from __future__ import annotations


class UserInputError(ValueError):
    """Bad input from a user: a file, a field or an option that cannot be used.

    ``where`` names the file (or the option) and ``field`` the offending field or token, so the
    message alone tells the user what to fix.
    """

    def __init__(self, message: str, *, where: str | None = None, field: str | None = None):
        self.where = where
        self.field = field
        self.detail = message
        prefix = ""
        if where and field:
            prefix = f"{where}: {field}: "
        elif where:
            prefix = f"{where}: "
        elif field:
            prefix = f"{field}: "
        super().__init__(prefix + message)


class ScriptedDiceError(RuntimeError):
    """A scripted-dice replay ran out of rolls or was given a roll the dice cannot show."""
