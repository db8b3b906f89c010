"""No computed string is handed to a widget that parses strings as markup.

Textual parses a ``str`` given to ``Static``/``Label``/``Option``/``Button``, ``update()``,
``DataTable`` rows and columns, ``Tree`` labels, ``Select`` options and ``Select``/``OptionList``
prompts as markup, so a file name like ``b[/x]`` crashes the app and ``[@click=…]`` becomes an
action (``inspector/ui/safe.py``). The rule this test enforces over ``inspector/ui``: such a
call gets a literal (our own text, no markup needed), a local name or call that yields a
``Text`` (``plain(value)``, ``Text(...)``), never an f-string, a concatenation, a ``join``,
``sanitize()`` (which returns a ``str``) or a field read off an object (``f.task``). It is a
syntactic guard for the common slips; ``test_hostile_text.py`` is the behavioural one.
Notifications and titles go through the app's own safe path and are not checked.
"""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "inspector" / "ui"

#: method calls whose positional arguments a widget renders as markup when they are ``str``
SINK_METHODS = {"update", "add_row", "add_rows", "add_column", "add_columns", "add_leaf", "add",
                "set_label", "add_option", "add_options", "set_options"}
#: constructors that render a ``str`` argument as markup
SINK_CLASSES = {"Static", "Label", "Option", "Button", "ProgressLine"}
#: widgets whose ``update()`` shows text as is
PLAIN_WIDGETS = {"Digits", "ProgressBar", "RichLog", "Log", "Input", "TextArea"}


def _computed_str(node: ast.AST) -> bool:
    """An expression that builds a ``str`` at run time (and so may hold untrusted text), or
    reads one straight from an object (``f.task``, ``row["name"]``). An f-string whose every
    field has a format spec (``{n:,}``, ``{t:.1f}``) formats numbers and passes."""
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.FormattedValue) and v.format_spec is None
                   for v in node.values)
    if isinstance(node, (ast.Attribute, ast.Subscript)):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return _stringish(node.left) or _stringish(node.right)
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name in ("sanitize", "join", "format", "repr")
    if isinstance(node, ast.IfExp):
        return _computed_str(node.body) or _computed_str(node.orelse)
    if isinstance(node, ast.BoolOp):
        return any(_computed_str(v) for v in node.values)
    return False


def _stringish(node: ast.AST) -> bool:
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)) \
        or isinstance(node, ast.JoinedStr) or _computed_str(node)


def _cells(node: ast.AST) -> list[ast.AST]:
    """The argument itself and, for row/option lists, the items inside."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return [cell for item in node.elts for cell in _cells(item)]
    if isinstance(node, ast.ListComp):
        return _cells(node.elt)
    return [node]


def _renders_markup(call: ast.Call) -> bool:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name in SINK_CLASSES:
        return True
    if not (isinstance(func, ast.Attribute) and name in SINK_METHODS):
        return False
    receiver = func.value  # query_one(..., Digits).update(...): digits, not markup
    return not (isinstance(receiver, ast.Call) and any(
        isinstance(a, ast.Name) and a.id in PLAIN_WIDGETS for a in receiver.args))


def offending_calls(source: str) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _renders_markup(node):
            for arg in node.args:
                if any(_computed_str(cell) for cell in _cells(arg)):
                    found.append((node.lineno, ast.unparse(node)[:120]))
    return found


def test_no_computed_string_reaches_a_markup_sink() -> None:
    problems = []
    for path in sorted(UI.rglob("*.py")):
        for line, call in offending_calls(path.read_text("utf-8")):
            problems.append(f"{path.relative_to(UI.parent.parent)}:{line}: {call}")
    assert not problems, "wrap untrusted text in plain(...):\n" + "\n".join(problems)


def test_the_check_sees_the_patterns_that_crashed_the_app() -> None:
    bad = '''
box.update("\\\\n".join(lines))
right.mount(Static(f"Cannot open this sample: {sanitize(message)}"))
notice.update(sanitize(preview.notice))
node.add_leaf(name + "/", data=x)
table.add_row(f.task, Text("ok"))
options.add_options([Option(f"↪ {r.label}") for r in refs])
select.set_options([(v, v) for v in values])
'''
    good = '''
box.update(plain("\\\\n".join(lines)))
right.mount(Static(plain(f"Cannot open: {message}")))
table.add_row(plain(f.task), Text("ok"), "—")
options.add_options([Option(plain(f"↪ {r.label}")) for r in refs])
select.set_options([(plain(v), v) for v in values])
box.update("Nothing to show.")
'''
    assert len(offending_calls(bad)) == 6  # set_options((v, v)): a bare name, not caught
    assert offending_calls("clock.query_one('#c', Digits).update(f'{m}:{s}')") == []
    assert offending_calls(good) == []
