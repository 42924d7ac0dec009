"""Import resolution per language and the test ↔ source mapping."""

from __future__ import annotations

from ctxaction.repo import imports as im
from ctxaction.repo.imports import ModuleIndex, imports_of, is_test_path, module_names, sources_for

PATHS = [
    "src/pkg/__init__.py",
    "src/pkg/core.py",
    "src/pkg/util.py",
    "src/pkg/sub/helpers.py",
    "tests/test_core.py",
    "web/src/app.ts",
    "web/src/lib/index.ts",
    "web/src/lib/format.js",
    "web/src/app.test.ts",
    "go.mod",
    "server/handler.go",
    "server/handler_test.go",
    "server/routes.go",
    "src/main.rs",
    "src/parser.rs",
    "src/parser/mod.rs",
    "src/main/java/com/acme/Parser.java",
    "src/test/java/com/acme/ParserTest.java",
    "lib/read.c",
    "lib/read.h",
    "include/png.h",
]
IDX = ModuleIndex.build(PATHS)


def test_python_absolute_relative_and_from_imports() -> None:
    text = (
        "import os\nimport pkg.util\nfrom . import util\nfrom .sub.helpers import thing\nfrom ..x import y\n"
    )
    assert imports_of("src/pkg/core.py", text, IDX) == {"src/pkg/util.py", "src/pkg/sub/helpers.py"}
    assert imports_of("src/pkg/util.py", "from pkg import core, util\n", IDX) == {"src/pkg/core.py"}


def test_javascript_relative_imports_with_extensions_and_index() -> None:
    text = "import { a } from './lib';\nconst f = require('./lib/format');\nimport React from 'react';\n"
    assert imports_of("web/src/app.ts", text, IDX) == {"web/src/lib/index.ts", "web/src/lib/format.js"}


def test_go_rust_java_c() -> None:
    assert imports_of("main.go", 'import (\n\t"fmt"\n\t"example.com/proj/server"\n)\n', IDX) == {
        "server/handler.go",
        "server/routes.go",
    }
    assert imports_of("src/main.rs", "mod parser;\nuse std::io;\n", IDX) == {"src/parser.rs"}
    assert imports_of("src/main/java/com/acme/App.java", "import com.acme.Parser;\n", IDX) == {
        "src/main/java/com/acme/Parser.java"
    }
    assert imports_of("lib/read.c", '#include "read.h"\n#include <stdio.h>\n#include "png.h"\n', IDX) == {
        "lib/read.h",
        "include/png.h",
    }


def test_module_lookup_prefers_longest_dotted_prefix() -> None:
    assert IDX.module("pkg.sub.helpers.thing") == ["src/pkg/sub/helpers.py"]
    assert IDX.module("nothing.here") == []


def test_test_paths_and_mapping() -> None:
    assert is_test_path("tests/test_core.py")
    assert is_test_path("web/src/app.test.ts")
    assert is_test_path("server/handler_test.go")
    assert is_test_path("src/test/java/com/acme/ParserTest.java")
    assert not is_test_path("src/pkg/core.py")
    assert not is_test_path("src/pkg/latest.py")
    assert im.tested_name("tests/test_core.py") == "core"
    assert im.tested_name("ParserTest.java") == "Parser"
    assert im.tests_for("src/pkg/core.py", IDX) == ["tests/test_core.py"]
    assert im.tests_for("server/handler.go", IDX) == ["server/handler_test.go"]
    assert im.tests_for("src/main/java/com/acme/Parser.java", IDX) == [
        "src/test/java/com/acme/ParserTest.java"
    ]
    assert im.tests_for("web/src/app.ts", IDX) == ["web/src/app.test.ts"]
    assert sources_for("tests/test_core.py", IDX) == ["src/pkg/core.py"]
    assert module_names("src/pkg/__init__.py") == ["pkg"]
    assert module_names("web/src/lib/format.js") == ["format"]


def test_the_index_and_what_reads_it_do_not_change_with_the_hash_seed() -> None:
    # A Go import names a directory whose files are cut to the first eight: in a set's order, the
    # same build gave different packages from one run to the next (PYTHONHASHSEED varies per run).
    import json
    import os
    import subprocess
    import sys

    script = (
        "import json\n"
        "from ctxaction.repo.imports import ModuleIndex, imports_of\n"
        "paths = [f'pkg/tokens/f{i:02d}.go' for i in range(30)] + [f'lib/m{i}.py' for i in range(30)]\n"
        "idx = ModuleIndex.build(paths)\n"
        "print(json.dumps([sorted(imports_of('main.go', 'import \"example.com/x/pkg/tokens\"', idx)),"
        " idx.by_dir['pkg/tokens'], idx.by_dir['lib']]))\n"
    )
    outs = set()
    for seed in ("1", "2", "3", "4"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
        )
        outs.add(run.stdout)
    assert len(outs) == 1
    resolved, in_dir, _ = json.loads(outs.pop())
    assert resolved == in_dir[:8] == [f"pkg/tokens/f{i:02d}.go" for i in range(8)]
