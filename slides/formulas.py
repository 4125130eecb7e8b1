"""Formulas in the slide files, written between dollar signs and shown as MathML (which browsers
typeset: real superscripts, a radical over d_k, never broken across two lines).

A small notation, enough for the slides: `$softmax(QK^T / √d_k) · V$`, `$L(T) = a + b·T^{−c}$`;
`$$...$$` sets a formula on a line of its own, centred.
`^` and `_` raise or lower the next letter, number or `{group}`; `√` covers the next item; a run of
three or more letters is one name (softmax), shorter runs are single variables (QK is Q times K);
anything else is an operator.
"""
import re
import xml.etree.ElementTree as etree

from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor
from markdown.util import AtomicString

TOKEN = re.compile(r"\s*([A-Za-z]{3,}|[A-Za-z]|[0-9]+(?:\.[0-9]+)?|\S)")
FORMULA = r"(?<![\w$])(\$\$?)(?=\S)([^$\n]+?)(?<=\S)\1(?![\w$])"


class FormulaError(ValueError):
    """A formula the notation cannot read (an unclosed brace, a script with nothing to raise)."""


def leaf(tag: str, text: str) -> etree.Element:
    element = etree.Element(tag)
    element.text = AtomicString(text)
    return element


def row(items: list[etree.Element]) -> etree.Element:
    if len(items) == 1:
        return items[0]
    element = etree.Element("mrow")
    element.extend(items)
    return element


class Parser:
    def __init__(self, text: str):
        self.tokens = TOKEN.findall(text)
        self.at = 0

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise FormulaError("the formula ends too early")
        self.at += 1
        return token

    def items(self, until: str | None = None) -> list[etree.Element]:
        found = []
        while self.peek() is not None and self.peek() != until:
            found.append(self.item())
        if until is not None:
            if self.peek() != until:
                raise FormulaError("a { is never closed")
            self.take()
        return found

    def item(self) -> etree.Element:
        """An atom with its scripts: d_k, T^{−c}, K^T."""
        base = self.atom()
        while self.peek() in ("^", "_"):
            tag = "msup" if self.take() == "^" else "msub"
            script = etree.Element(tag)
            script.extend([base, self.atom()])
            base = script
        return base

    def atom(self) -> etree.Element:
        token = self.take()
        if token == "{":
            return row(self.items(until="}"))
        if token == "√":
            root = etree.Element("msqrt")
            root.append(self.item())
            return root
        if token in ("^", "_", "}"):
            raise FormulaError(f"{token} has nothing before it")
        if token[0].isalpha():
            return leaf("mi", token)
        if token[0].isdigit():
            return leaf("mn", token)
        return leaf("mo", token)


def to_mathml(text: str, display: str = "inline") -> etree.Element:
    math = etree.Element("math", display=display)
    math.append(row(Parser(text).items()))
    return math


class FormulaPattern(InlineProcessor):
    def handleMatch(self, match, data):
        display = "block" if match.group(1) == "$$" else "inline"
        return to_mathml(match.group(2), display), match.start(0), match.end(0)


class FormulaExtension(Extension):
    def extendMarkdown(self, md):
        md.inlinePatterns.register(FormulaPattern(FORMULA, md), "formula", 185)  # after `code`, before emphasis
