"""One command of the CLI: its name, help, arguments and handler, written once.

:mod:`inspector.cli.registry` lists them; the parser, the dispatch and the help come from it.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    SubParsers = argparse._SubParsersAction[argparse.ArgumentParser]

Handler = Callable[[argparse.Namespace], int]
Arguments = Callable[[argparse.ArgumentParser], None]


@dataclass(frozen=True)
class Command:
    """A command (``inspector NAME``) or an action of one (``inspector sandbox NAME``).

    A command with ``actions`` takes one of them (``args.action``) and runs its handler.
    ``tui``: it draws the terminal itself (no sanitising stream around it). ``trailing``:
    the list argument that also takes positionals given after the options.
    """

    name: str
    help: str
    arguments: Arguments | None = None
    run: Handler | None = None
    description: str | None = None
    actions: tuple[Command, ...] = ()
    tui: bool = False
    trailing: str | None = None

    def add_to(self, sub: SubParsers) -> argparse.ArgumentParser:
        """This command's parser (and its actions') under ``sub``."""
        p = sub.add_parser(self.name, help=self.help, description=self.description)
        if self.arguments is not None:
            self.arguments(p)
        if self.actions:
            actions = p.add_subparsers(dest="action", required=True)
            for action in self.actions:
                action.add_to(actions)
        return p

    def chosen(self, args: argparse.Namespace) -> Command:
        """The action ``args`` names, else this command."""
        if not self.actions:
            return self
        return next(a for a in self.actions if a.name == args.action).chosen(args)
