"""The Files tab: the generated repository's tree beside a code view. Files open safely
(binary, huge, undecodable and escaping files get a notice and a capped preview) and at a
line; the tree is listed in a worker."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Static, TabPane, Tree

from inspector.ui.safe import plain, sanitize
from inspector.ui.widgets.code_view import CodeView

_PREFERRED = ("app.py", "main.py", "start.sh", "README.md")


class FilesTab(TabPane):
    """Repository tree and one open file."""

    class TreeFilled(Message):
        """The tree is listed; ``first`` is the file worth opening first, if any."""

        def __init__(self, first: str | None) -> None:
            super().__init__()
            self.first = first

    def __init__(self) -> None:
        super().__init__("Files", classes="files-tab")
        self.repo: Path | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(classes="files-row"):
            yield Tree("repo", classes="repo-tree")
            with Vertical(classes="code-col"):
                yield Static("", classes="file-label")
                yield Static("", classes="file-notice")
                yield CodeView(classes="code")

    def show_repo(self, repo: Path | None) -> None:
        """Empty the view and list ``repo`` (in a worker), or say it is missing."""
        self.repo = repo
        tree = self.query_one(".repo-tree", Tree)
        tree.clear()
        tree.root.set_label("repo")
        self.query_one(".file-label", Static).update("")
        self.query_one(CodeView).clear()
        if repo is None or not repo.is_dir():
            self.notice(f"The generated repository is not available"
                        f"{': ' + str(repo) if repo else ''}.")
        else:
            self.notice("")
            self._list(repo)

    def notice(self, text: str) -> None:
        self.query_one(".file-notice", Static).update(plain(text))

    @work(thread=True, exclusive=True, group="tree")
    def _list(self, repo: Path) -> None:
        from inspector.services.repo.preview import list_repo_tree

        listing = list_repo_tree(repo)
        self.app.call_from_thread(self._fill_tree, repo, listing)

    def _fill_tree(self, repo: Path, listing: Any) -> None:
        if repo != self.repo:  # another sample was shown meanwhile
            return
        tree = self.query_one(".repo-tree", Tree)
        tree.clear()
        tree.root.set_label(plain(repo.name))
        _add_nodes(tree.root, listing.entries)
        tree.root.expand_all()
        notice = getattr(listing, "notice", "")
        if notice:
            self.notice(notice)
        self.post_message(self.TreeFilled(_first_interesting(listing)))

    def show_file(self, base: Path, root: str, rel: str, line: int | None) -> None:
        """Show ``rel`` under ``base`` (``root`` is "repo" or "task"), at ``line`` if given."""
        from inspector.services.repo.preview import preview_file

        preview = preview_file(base, rel)
        where = "" if root == "repo" else "task: "
        self.query_one(".file-label", Static).update(Text(
            f"{where}{sanitize(rel)}{':' + str(line) if line else ''}  ({preview.size} bytes"
            f"{', ' + preview.lexer if preview.lexer != 'text' else ''})", style="bold"))
        self.notice(preview.notice or "")
        self.query_one(CodeView).show(preview.text, preview.lexer, rel, line)

    def files(self) -> list[str]:
        """Every file in the tree, sorted."""
        tree = self.query_one(".repo-tree", Tree)
        out: list[str] = []
        stack = [tree.root]
        while stack:
            node = stack.pop()
            if isinstance(node.data, str) and not node.children:
                out.append(node.data)
            stack.extend(node.children)
        return sorted(out)


def _add_nodes(node: Any, entries: Any) -> None:
    for child in entries:
        name = sanitize(child.name)
        if child.kind == "dir":
            label = Text(name + "/", style="bold")
            if child.error:
                label.append(f"  ({sanitize(child.error)})", style="dim")
            sub = node.add(label, expand=True)
            _add_nodes(sub, child.children)
        elif child.kind == "symlink":
            target = sanitize(child.link_target)
            if child.escapes:
                node.add_leaf(Text(f"{name} ↗ {target} (outside the repo, not followed)",
                                   style="dim italic"), data=child.rel_path)
            elif child.broken:
                node.add_leaf(Text(f"{name} → {target} (broken link)", style="dim italic"),
                              data=child.rel_path)
            else:
                node.add_leaf(Text(f"{name} → {target}"), data=child.rel_path)
        elif child.kind == "file":
            node.add_leaf(Text(name), data=child.rel_path)
        else:
            node.add_leaf(Text(f"{name} (special file)", style="dim"))


def _first_interesting(listing: Any) -> str | None:
    files = [e.rel_path for _, e in listing.walk() if e.kind == "file"]
    for name in _PREFERRED:
        for f in files:
            if f.split("/")[-1] == name:
                return f
    return files[0] if files else None
