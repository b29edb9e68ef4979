"""Reads the public C headers (``csrc/xq*.h``) into their documented declarations and writes them as reST.

The headers are the documentation of the C API: a comment before a run of declarations describes that run, a
trailing comment describes its line, a ``/* ---- title`` banner opens a section, and the first comment of the
file describes the header. This module reads exactly that layout and nothing looser: a line it cannot place
raises :class:`HeaderError`, so a new kind of declaration fails the docs build instead of going missing.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple


class HeaderError(ValueError):
    """A header line that the extractor cannot place."""


@dataclasses.dataclass
class Decl:
    kind: str                 # "function", "macro", "enumerator", "type", "struct", "member"
    name: str
    text: str                 # the declaration as the C domain reads it (signature, "NAME(args)", "NAME = 1")
    comment: str = ""         # the trailing comment
    value: str = ""           # a macro's value
    members: List["Decl"] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Block:
    title: str = ""           # a banner's title
    comment: str = ""         # the comment that opens the block
    decls: List[Decl] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Header:
    name: str
    intro: str
    blocks: List[Block]


_SKIP = re.compile(r'#\s*(ifndef|ifdef|if|else|elif|endif|error|include)\b|extern "C" \{$|\}$')
_DEFINE = re.compile(r"#define\s+(\w+(?:\([^)]*\))?)\s*(.*)$")
_FUNC = re.compile(r"(?:const\s+)?[\w\s]+?[\s*]+(xq_\w+)\s*\(.*\)$", re.S)
_TYPEDEF = re.compile(r"typedef\s+([\w\s]+?)\s+(xq_\w+)\s*;$")
_STRUCT = re.compile(r"typedef struct (xq_\w+) \{$")
_MEMBER = re.compile(r"(.*?)\b(\w+)\s*((?:\[[^\]]*\])*)\s*;$")
_ENUMERATOR = re.compile(r"(XQ_\w+)\s*=\s*(-?\w+)$")


def _comment_lines(raw: str) -> List[str]:
    """The text lines of one ``/* ... */`` comment, without the markers and the `` * `` margins."""
    body = raw.strip()
    assert body.startswith("/*") and body.endswith("*/")
    lines = body[2:-2].split("\n")
    if all(line.lstrip().startswith("*") for line in lines[1:] if line.strip()):
        lines = [lines[0]] + [re.sub(r"^\s*\* ?", "", line) for line in lines[1:]]
    else:  # continuation lines aligned under the text after "/* ": keep only their extra indentation
        rest = [line for line in lines[1:] if line.strip()]
        cut = min((len(line) - len(line.lstrip()) for line in rest), default=0)
        lines = [lines[0]] + [line[cut:] for line in lines[1:]]
    lines[0] = lines[0].strip()
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return [line.rstrip() for line in lines]


def _split_trailing(line: str) -> Tuple[str, Optional[str]]:
    """(code, comment or None) of a line with a trailing ``/* ... */`` (the comment may be unfinished)."""
    i = line.find("/*")
    if i < 0:
        return line.strip(), None
    return line[:i].strip(), line[i:]


def _join(comment: str) -> str:
    text = comment.strip()
    if text.startswith("/*"):
        text = text[2:]
    if text.endswith("*/"):
        text = text[:-2]
    return " ".join(text.split())


def parse(path: Path) -> Header:
    lines = path.read_text(encoding="utf-8").split("\n")
    intro = ""
    blocks: List[Block] = []
    current: Optional[Block] = None
    i = 0

    def take_comment(start: int, first: str) -> Tuple[str, int]:
        """The whole comment that opens at lines[start] (from ``first``), and the index after it."""
        parts = [first]
        j = start
        while "*/" not in parts[-1]:
            j += 1
            if j >= len(lines):
                raise HeaderError(f"{path.name}:{start + 1}: unterminated comment")
            parts.append(lines[j])
        return "\n".join(parts), j + 1

    def block() -> Block:
        nonlocal current
        if current is None:
            current = Block()
            blocks.append(current)
        return current

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        where = f"{path.name}:{i + 1}"
        if not stripped:
            current = None
            i += 1
        elif stripped.startswith("/*"):
            raw, i = take_comment(i, line)
            text = _comment_lines(raw)
            if not intro and not blocks:
                intro = "\n".join(text)
                continue
            banner = re.match(r"-{3,}\s*(.*)$", text[0]) if text else None
            current = Block(title=banner.group(1).strip(), comment="\n".join(text[1:]).strip()) if banner \
                else Block(comment="\n".join(text))
            blocks.append(current)
        elif stripped.startswith("#define"):
            code, comment = _split_trailing(stripped)
            if comment is not None and "*/" not in comment:
                comment, i = take_comment(i, comment)
            else:
                i += 1
            m = _DEFINE.match(code)
            if not m:
                raise HeaderError(f"{where}: cannot read {stripped!r}")
            name, value = m.group(1), m.group(2).strip()
            if not value and name.endswith("_H"):
                continue  # include guard
            block().decls.append(Decl("macro", name.split("(")[0], name, _join(comment or ""), value))
        elif _SKIP.match(stripped):
            i += 1
        elif stripped.startswith("enum"):
            parts = [stripped]
            while not parts[-1].rstrip().endswith("};"):
                i += 1
                parts.append(lines[i].strip())
            i += 1
            body = " ".join(parts)
            inner = body[body.index("{") + 1:body.rindex("}")]
            for item in inner.split(","):
                m = _ENUMERATOR.match(item.strip())
                if not m:
                    raise HeaderError(f"{where}: cannot read the enumerator {item.strip()!r}")
                block().decls.append(Decl("enumerator", m.group(1), f"{m.group(1)} = {m.group(2)}"))
        elif _STRUCT.match(stripped):
            name = _STRUCT.match(stripped).group(1)  # type: ignore[union-attr]
            struct = Decl("struct", name, name)
            i += 1
            while not lines[i].strip().startswith("}"):
                code, comment = _split_trailing(lines[i])
                if comment is not None and "*/" not in comment:
                    comment, i = take_comment(i, comment)
                else:
                    i += 1
                if not code:
                    continue
                m = _MEMBER.match(code)
                if not m:
                    raise HeaderError(f"{path.name}: cannot read the member {code!r} of {name}")
                struct.members.append(Decl("member", m.group(2), code.rstrip(";").strip(), _join(comment or "")))
            if lines[i].strip() != f"}} {name};":
                raise HeaderError(f"{path.name}:{i + 1}: expected '}} {name};'")
            i += 1
            block().decls.append(struct)
        elif stripped.startswith("typedef"):
            m = _TYPEDEF.match(stripped)
            if not m:
                raise HeaderError(f"{where}: cannot read {stripped!r}")
            i += 1
            block().decls.append(Decl("type", m.group(2), stripped.rstrip(";")))
        else:
            parts = [stripped]
            while not parts[-1].endswith(";"):
                i += 1
                if i >= len(lines) or not lines[i].strip():
                    raise HeaderError(f"{where}: cannot read {stripped!r}")
                parts.append(lines[i].strip())
            i += 1
            sig = " ".join(parts)[:-1].strip()
            m = _FUNC.match(sig)
            if not m:
                raise HeaderError(f"{where}: cannot read {sig!r}")
            block().decls.append(Decl("function", m.group(1), sig))
    return Header(path.name, intro, blocks)


def names(headers: Iterable[Header]) -> Dict[str, str]:
    """Every declared name of the headers and its C-domain role."""
    role = {"function": "c:func", "macro": "c:macro", "enumerator": "c:enumerator", "type": "c:type",
            "struct": "c:struct"}
    out: Dict[str, str] = {}
    for h in headers:
        for b in h.blocks:
            for d in b.decls:
                out[d.name] = role[d.kind]
    return out


# --------------------------------------------------------------------------- reST


def _escape(text: str) -> str:
    return re.sub(r"([\\*`|_])", r"\\\1", text)


def _inline(text: str, known: Dict[str, str]) -> str:
    """Escaped prose in which the declared names are cross-references."""
    out = []
    pos = 0
    for m in re.finditer(r"\b((?:xq|XQ)_\w+)\b(\(\))?", text):
        name = m.group(1)
        if name not in known:
            continue
        out.append(_escape(text[pos:m.start()]))
        # Inline markup must also start after a space or an opening bracket; an escaped space stands in for
        # one after other text ("1..XQ_MAX").
        before = text[m.start() - 1:m.start()]
        if before and not before.isspace() and before not in "([{'\"<-/:":
            out.append("\\ ")
        # The function role writes its own parentheses; other names keep the text's.
        parens = m.group(2) if m.group(2) and known[name] != "c:func" else ""
        # reST needs a word boundary after inline markup; an escaped space provides one when a word follows.
        after = text[m.end():m.end() + 1]
        out.append(f":{known[name]}:`{name}`" + parens
                   + ("\\ " if not parens and after and (after.isalnum() or after in "([") else ""))
        pos = m.end()
    out.append(_escape(text[pos:]))
    result = "".join(out)
    if re.match(r"[-*+]\s|\d+\.\s", text):
        result = "\\" + result
    return result


def _prose(comment: str, known: Dict[str, str], indent: str) -> List[str]:
    """Paragraphs of a comment; a paragraph with indented lines (a table, a list) stays preformatted."""
    out: List[str] = []
    for para in re.split(r"\n\s*\n", comment.strip()):
        lines = para.split("\n")
        if not para.strip():
            continue
        if any(line.startswith(" ") for line in lines[1:]) or lines[0].startswith(" "):
            out += [indent + "::", ""] + [indent + "   " + line for line in lines] + [""]
        else:
            out += [indent + _inline(" ".join(line.strip() for line in lines), known), ""]
    return out


def _directive(kind: str, signatures: List[str], indent: str) -> List[str]:
    head = f"{indent}.. c:{kind}:: "
    return [head + signatures[0]] + [" " * len(head) + s for s in signatures[1:]] + [""]


def render(header: Header, known: Dict[str, str]) -> List[str]:
    """The reST of one header: its introduction, then each block."""
    out = [f"``{header.name}``", "-" * (len(header.name) + 4), ""]
    out += _prose(header.intro, known, "")
    for b in header.blocks:
        if b.title:
            title = b.title[0].upper() + b.title[1:]
            out += [title, "~" * len(title), ""]
        functions = [d for d in b.decls if d.kind == "function"]
        if functions and len(functions) == len(b.decls):
            # One comment describes the whole run of functions: one entry with several signatures.
            out += _directive("function", [d.text for d in functions], "")
            out += _prose(b.comment, known, "   ") if b.comment else []
            continue
        if len(b.decls) == 1:  # the comment describes its one declaration
            out += _render_decl(b.decls[0], known, "", b.comment)
            continue
        out += _prose(b.comment, known, "")
        for d in b.decls:
            out += _render_decl(d, known, "")
    return out


def _render_decl(d: Decl, known: Dict[str, str], indent: str, lead: str = "") -> List[str]:
    body = indent + "   "
    text = _prose(lead, known, body) if lead else []
    if d.kind == "function":
        return _directive("function", [d.text], indent) + text
    if d.kind == "macro":
        trailing = _inline(d.comment, known) + " " if d.comment else ""
        return _directive("macro", [d.text], indent) + text + [body + trailing + f"(``{d.value}``)", ""]
    if d.kind == "enumerator":
        return _directive("enumerator", [d.text], indent) + text
    if d.kind == "type":
        return _directive("type", [d.name], indent) + text + [body + f"``{d.text}``", ""]
    if d.kind == "struct":
        out = _directive("struct", [d.name], indent) + text
        for m in d.members:
            out += _directive("member", [m.text], body)
            if m.comment:
                out += [body + "   " + _inline(m.comment, known), ""]
        return out
    raise HeaderError(f"unknown declaration kind {d.kind}")
