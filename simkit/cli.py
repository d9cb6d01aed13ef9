"""The ``simkit`` command line: thin; parses options and calls analysis functions.

Commands are ``simkit COMMAND GAME [options]`` (``weapons``, ``hazards``, ``crash``, ``builds``,
``board``... as each game offers them) plus ``simkit variants GAME`` and ``simkit tables GAME``.
Bad input prints one line naming the file or option and the field, and exits with status 2.
"""

from __future__ import annotations

import argparse
import os
import sys

from . import games
from .core.errors import UserInputError


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, status 2, no usage dump
        raise UserInputError(message, where=self.prog)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="simkit", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    by_command: dict[str, dict] = {}
    for name in games.available():
        game = games.get(name)
        for cname, cmd in game.commands.items():
            by_command.setdefault(cname, {})[name] = (game, cmd)
    for cname in sorted(by_command):
        cp = sub.add_parser(cname, help=f"{cname} analysis for: {', '.join(by_command[cname])}")
        gsub = cp.add_subparsers(dest="game", metavar="GAME", parser_class=_Parser)
        for gname, (game, cmd) in by_command[cname].items():
            gp = gsub.add_parser(gname, help=cmd.help, description=f"{game.title}: {cmd.help}")
            cmd.add_arguments(gp)
            gp.set_defaults(_run=cmd.run)
    for meta, helptext in (("variants", "list a game's named rule variants and their defaults"),
                           ("tables", "list a game's rules tables with label and source")):
        mp = sub.add_parser(meta, help=helptext)
        mp.add_argument("game", choices=games.available())
        mp.set_defaults(_run=_variants if meta == "variants" else _tables)
    return parser


def _variants(args) -> int:
    rules = games.get(args.game).rules()
    for v in rules.variants.values():
        print(f"{v.name} (default: {v.default})\n    {v.doc}")
        for c in v.choices:
            print(f"    {v.name}={c}: {v.choice_doc(c)}")
    return 0


def _tables(args) -> int:
    for name, label, source in games.get(args.game).rules().provenance():
        print(f"{name:28s} {label:14s} {source}")
    return 0


def main(argv=None) -> int:
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "_run", None):
            parser.print_help()
            return 2
        return int(args._run(args) or 0)
    except UserInputError as e:
        print(f"simkit: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("simkit: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
