"""A Maven file (``pom.xml``, ``.mvn/extensions.xml``) read into a small tree with line numbers.

Read with the standard library's expat parser (the one under :mod:`xml.etree`): namespaces are
dropped from names (a ``pom.xml`` with or without the Maven namespace, or with a prefix, reads
the same), entity declarations are refused (no expansion, nothing external is fetched), and a
malformed file raises :class:`XmlError` with one line saying where.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from xml.parsers import expat

MAX_DEPTH = 200


class XmlError(ValueError):
    """The file is not well-formed XML (or declares entities): ``line N: what``."""


@dataclass
class XmlNode:
    """One element: its local name, stripped text, attributes, line and child elements."""

    tag: str
    line: int
    attrs: dict[str, str] = field(default_factory=dict)
    text: str = ""
    children: list[XmlNode] = field(default_factory=list)

    def child(self, tag: str) -> XmlNode | None:
        """The first child element named ``tag``."""
        return next((c for c in self.children if c.tag == tag), None)

    def child_text(self, tag: str) -> str:
        """The text of the first child named ``tag`` ("" when there is none)."""
        found = self.child(tag)
        return found.text if found is not None else ""

    def path(self, *tags: str) -> list[XmlNode]:
        """Every element reached by following ``tags`` from here (``build``, ``plugins``, …)."""
        nodes = [self]
        for tag in tags:
            nodes = [c for n in nodes for c in n.children if c.tag == tag]
        return nodes

    def walk(self) -> Iterator[XmlNode]:
        """This element and every element under it, in document order."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


def _local(name: str) -> str:
    """``http://maven.apache.org/POM/4.0.0 project`` or ``pom:project`` -> ``project``."""
    return name.rpartition(" ")[2].rpartition(":")[2]


def parse_xml(text: str) -> XmlNode:
    """The document's root element; :class:`XmlError` when it is not well-formed XML."""
    parser = expat.ParserCreate(namespace_separator=" ")
    stack: list[XmlNode] = []
    texts: list[list[str]] = []
    root: list[XmlNode] = []

    def start(name: str, attrs: dict[str, str]) -> None:
        if len(stack) >= MAX_DEPTH:
            raise XmlError(f"line {parser.CurrentLineNumber}: nested deeper than {MAX_DEPTH}")
        node = XmlNode(_local(name), parser.CurrentLineNumber,
                       {_local(k): v for k, v in attrs.items()})
        if stack:
            stack[-1].children.append(node)
        else:
            root.append(node)
        stack.append(node)
        texts.append([])

    def end(name: str) -> None:
        node = stack.pop()
        node.text = "".join(texts.pop()).strip()

    def chars(data: str) -> None:
        if texts:
            texts[-1].append(data)

    def entity(*_: object) -> None:
        raise XmlError(f"line {parser.CurrentLineNumber}: declares an XML entity")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.EntityDeclHandler = entity
    try:
        parser.Parse(text.encode("utf-8"), True)
    except expat.ExpatError as exc:
        raise XmlError(f"line {exc.lineno}: {expat.ErrorString(exc.code)}") from None
    except RecursionError:
        raise XmlError("nested too deeply") from None
    if not root:
        raise XmlError("line 1: no root element")
    return root[0]
