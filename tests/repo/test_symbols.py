"""Definition finders for every supported language, with body spans."""

from __future__ import annotations

import ast

from ctxaction.repo.symbols import Definition, definitions, innermost, python_ast


def _spans(text: str, path: str) -> dict[str, tuple[str, int, int, str]]:
    return {d.name: (d.kind, d.start, d.end, d.parent) for d in definitions(text, path)}


PY = '''import os

LIMIT = 10


@decorator(
    "arg",
)
def top(a,
        b):
    """Doc.

not indented inside the string
    """
    return a


class Thing(Base):
    name: str
    count = 0

    @property
    def value(self):
        local = 1
        return local

    async def fetch(self):
        pass
'''


def test_python_scanner_matches_ast() -> None:
    spans = _spans(PY, "m.py")
    assert spans["top"] == ("function", 6, 15, "")
    assert spans["Thing"] == ("class", 18, 28, "")
    assert spans["value"] == ("method", 22, 25, "Thing")
    assert spans["fetch"] == ("method", 27, 28, "Thing")
    assert spans["LIMIT"] == ("variable", 3, 3, "")
    assert spans["name"][0] == spans["count"][0] == "variable"
    assert "local" not in spans
    by_ast = {(d.name, d.start, d.end) for d in python_ast(PY) if d.kind != "variable"}
    by_scan = {(d.name, d.start, d.end) for d in definitions(PY, "m.py") if d.kind != "variable"}
    assert by_ast == by_scan


PY_TEMPLATES = (
    'TEMPLATE = """<Rules>\n'
    "  <ID>{{ rule.id }}</ID>\n"
    "</Rules>\n"
    '"""\n'
    "PAIR = \"\"\"a\"\"\" + '''b'''\n"
    "DOC = textwrap.dedent(\n"
    '    """\n'
    "    (\n"
    '    """\n'
    ")\n"
)


def test_python_variable_spans_run_to_the_end_of_their_triple_quoted_strings() -> None:
    # A template's text is its variable's: the scanner agrees with ast on where each one ends.
    spans = {d.name: (d.start, d.end) for d in definitions(PY_TEMPLATES, "responses.py")}
    assert spans == {"TEMPLATE": (1, 4), "PAIR": (5, 5), "DOC": (6, 10)}
    assert spans == {d.name: (d.start, d.end) for d in python_ast(PY_TEMPLATES)}


PY_QUOTES_IN_STRINGS_AND_COMMENTS = '''QUOTE = '"""'  # a docstring's opening quotes, as text


def strip_docstring(text):
    # ends at the next """
    return text.split("\\'\\'\\'")[0]


def plot(  # None is hashable :(
    self,
    x=None,
):
    return x


def after():
    pass


HELP = """a \\""" inside stays inside (
"""
PATTERN = "#(" + '\\\\'  # a hash, a bracket and a backslash in strings


def last():
    return HELP
'''


def test_python_quotes_inside_strings_and_comments_open_nothing() -> None:
    # A triple quote inside a string or a comment, or a bracket in a comment, used to swallow
    # every definition after it (or stretch one to the file's end).
    ast.parse(PY_QUOTES_IN_STRINGS_AND_COMMENTS)  # valid Python: the comparison below is with ast itself
    spans = {d.name: (d.start, d.end) for d in definitions(PY_QUOTES_IN_STRINGS_AND_COMMENTS, "doc.py")}
    assert spans == {
        "QUOTE": (1, 1), "strip_docstring": (4, 6), "plot": (9, 13), "after": (16, 17),
        "HELP": (20, 21), "PATTERN": (22, 22), "last": (25, 26),
    }
    assert spans == {d.name: (d.start, d.end) for d in python_ast(PY_QUOTES_IN_STRINGS_AND_COMMENTS)}


def test_python2_code_still_parses() -> None:
    text = "def old(x):\n    print 'hi'\n    return x\n\nclass A:\n    def m(self):\n        raise E, 'x'\n"
    assert _spans(text, "old.py") == {
        "old": ("function", 1, 3, ""),
        "A": ("class", 5, 7, ""),
        "m": ("method", 6, 7, "A"),
    }


def test_javascript_and_typescript() -> None:
    text = (
        "export function parse(src) {\n  if (x) {\n    return 1;\n  }\n}\n"
        "const helper = (a) => {\n  return a;\n};\n"
        "export class Parser extends Base {\n  constructor() {\n    super();\n  }\n"
        "  async run(input: string): Promise<void> {\n    await go('}');\n  }\n}\n"
        "interface Options {\n  strict: boolean;\n}\n"
    )
    spans = _spans(text, "src/parser.ts")
    assert spans["parse"] == ("function", 1, 5, "")
    assert spans["helper"] == ("function", 6, 8, "")
    assert spans["Parser"] == ("class", 9, 16, "")
    assert spans["run"] == ("method", 13, 15, "Parser")
    assert spans["Options"] == ("type", 17, 19, "")
    assert "if" not in spans


def test_go() -> None:
    text = (
        "package server\n\ntype Server struct {\n\taddr string\n}\n\n"
        "func (s *Server) Handle(w Writer) error {\n\tif s == nil {\n\t\treturn nil\n\t}\n\treturn nil\n}\n\n"
        "func New() *Server {\n\treturn &Server{}\n}\n"
    )
    spans = _spans(text, "server/server.go")
    assert spans["Server"] == ("type", 3, 5, "")
    assert spans["Handle"] == ("method", 7, 12, "Server")
    assert spans["New"] == ("function", 14, 16, "")


def test_rust() -> None:
    text = (
        "pub struct Parser {\n    pos: usize,\n}\n\nimpl Parser {\n"
        "    pub fn parse(&mut self) -> Result<(), E> {\n"
        '        let s = "}";\n        Ok(())\n    }\n}\n\npub trait Visit {\n    fn visit(&self);\n}\n'
    )
    spans = _spans(text, "src/parser.rs")
    assert spans["Parser"][0] in ("type", "impl")
    assert spans["parse"] == ("function", 6, 9, "Parser")
    assert spans["Visit"] == ("type", 12, 14, "")


def test_java_and_kotlin() -> None:
    text = (
        "package com.acme;\n\npublic class Parser {\n    @Override\n"
        "    public String parse(String in) throws IOException {\n"
        "        return in;\n    }\n\n    private void helper();\n}\n"
    )
    spans = _spans(text, "src/main/java/com/acme/Parser.java")
    assert spans["Parser"] == ("class", 3, 10, "")
    assert spans["parse"] == ("method", 4, 7, "Parser")
    assert "helper" not in spans  # a declaration without a body
    kt = _spans("class Repo {\n    fun load(id: Int): User {\n        return find(id)\n    }\n}\n", "Repo.kt")
    assert kt["load"] == ("method", 2, 4, "Repo")


def test_c_and_cpp() -> None:
    text = (
        "#define MAX_LEN 16\n\nstruct point {\n    int x;\n"
        "};\n\nstatic int\nread_row(png_struct *p, int n)\n{\n"
        "    /* } in a comment */\n    return n;\n}\n\nint declared_only(int a);\n\n"
        "void Widget::paint(Canvas &c) const {\n    c.draw();\n}\n"
    )
    spans = _spans(text, "lib/read.cpp")
    assert spans["MAX_LEN"] == ("macro", 1, 1, "")
    assert spans["point"] == ("type", 3, 5, "")
    assert spans["read_row"] == ("function", 7, 12, "")  # GNU style: the return type line starts it
    assert spans["paint"] == ("method", 16, 18, "Widget")
    assert spans["declared_only"] == ("function", 14, 14, "")  # a prototype


def test_innermost_and_unknown_language() -> None:
    defs = definitions(PY, "m.py")
    found = innermost(defs, 24)
    assert isinstance(found, Definition) and found.qualname == "Thing.value"
    assert innermost(defs, 1) is None
    assert definitions("anything", "notes.txt") == []
