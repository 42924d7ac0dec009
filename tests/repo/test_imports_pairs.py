"""C/C++ includes and header ↔ source pairs; test ↔ source mapping across language layouts."""

from __future__ import annotations

from ctxaction.repo import imports as im
from ctxaction.repo.imports import ModuleIndex, header_source_pairs, imports_of, sources_for
from ctxaction.repo.kinds import code_globs, is_code, language_of

IDX = ModuleIndex.build(
    [
        "include/yaml-cpp/emitter.h",
        "include/yaml-cpp/node/emit.h",
        "src/emitter.cpp",
        "src/emit.cpp",
        "src/emitterutils.h",
        "src/emitterutils.cpp",
        "test/emitter_test.cpp",
        "lib/cJSON.c",
        "lib/cJSON.h",
        "tests/parse_tests.c",
        "src/main/java/org/jsoup/parser/CharacterReader.java",
        "src/test/java/org/jsoup/parser/CharacterReaderTest.java",
        "src/main/java/org/other/CharacterReader.java",
        "render/tree.go",
        "render/tree_test.go",
        "src/number.rs",
        "tests/number.rs",
        "tests/common/mod.rs",
        "src/mod.rs",
        "packages/zod/src/checks.ts",
        "packages/zod/src/__tests__/checks.test.ts",
        "lib/command.ts",
        "test/command.cjs",
        "lib/format.ts",
        "lib/format.spec.js",
    ]
)


def test_include_paths_resolve_from_include_roots_and_angle_brackets() -> None:
    text = '#include "yaml-cpp/emitter.h"\n#include "emitterutils.h"\n#include <yaml-cpp/node/emit.h>\n'
    assert imports_of("src/emitter.cpp", text, IDX) == {
        "include/yaml-cpp/emitter.h",
        "src/emitterutils.h",
        "include/yaml-cpp/node/emit.h",
    }
    # A system header never matches a project file by its bare name; a partial name never matches.
    assert imports_of("src/emit.cpp", '#include <emitter.h>\n#include "tter.h"\n', IDX) == set()


def test_header_source_pairs_both_directions() -> None:
    assert header_source_pairs("include/yaml-cpp/emitter.h", IDX) == ["src/emitter.cpp"]
    assert header_source_pairs("src/emitter.cpp", IDX) == ["include/yaml-cpp/emitter.h"]
    assert header_source_pairs("src/emitterutils.cpp", IDX) == ["src/emitterutils.h"]
    assert header_source_pairs("lib/cJSON.h", IDX) == ["lib/cJSON.c"]
    assert header_source_pairs("test/emitter_test.cpp", IDX) == []
    assert header_source_pairs("src/number.rs", IDX) == []


def test_tests_and_sources_per_language_layout() -> None:
    java = "src/main/java/org/jsoup/parser/CharacterReader.java"
    java_test = "src/test/java/org/jsoup/parser/CharacterReaderTest.java"
    assert im.tests_for(java, IDX) == [java_test]
    # Same-named classes elsewhere come after the one in the matching package.
    assert sources_for(java_test, IDX)[0] == java
    assert im.tests_for("render/tree.go", IDX) == ["render/tree_test.go"]
    assert sources_for("render/tree_test.go", IDX) == ["render/tree.go"]
    assert im.tests_for("src/number.rs", IDX) == ["tests/number.rs"]
    assert sources_for("tests/number.rs", IDX) == ["src/number.rs"]
    assert sources_for("tests/common/mod.rs", IDX) == []
    assert im.tests_for("packages/zod/src/checks.ts", IDX) == ["packages/zod/src/__tests__/checks.test.ts"]
    assert sources_for("packages/zod/src/__tests__/checks.test.ts", IDX) == ["packages/zod/src/checks.ts"]
    assert im.tests_for("lib/command.ts", IDX) == ["test/command.cjs"]
    assert sources_for("test/command.cjs", IDX) == ["lib/command.ts"]
    assert im.tests_for("lib/format.ts", IDX) == ["lib/format.spec.js"]
    assert sources_for("lib/format.spec.js", IDX) == ["lib/format.ts"]
    assert im.tests_for("src/emitter.cpp", IDX) == ["test/emitter_test.cpp"]
    assert sources_for("tests/parse_tests.c", IDX) == []


def test_cuda_and_template_sources_are_code_that_pairs_and_includes() -> None:
    idx = ModuleIndex.build(
        ["cub/device/scan.cuh", "cub/device/scan.cu", "lib/detail/vec.tcc", "lib/vec.hpp", "src/kernel.cu"]
    )
    assert is_code("cub/device/scan.cuh") and language_of("src/kernel.cu") == "cpp"
    assert "*.cuh" in code_globs() and "*.tcc" in code_globs() and "*.pxd" in code_globs()
    assert header_source_pairs("cub/device/scan.cuh", idx) == ["cub/device/scan.cu"]
    assert header_source_pairs("cub/device/scan.cu", idx) == ["cub/device/scan.cuh"]
    text = '#include "../cub/device/scan.cuh"\n#include "lib/detail/vec.tcc"\n'
    assert imports_of("src/kernel.cu", text, idx) == {"cub/device/scan.cuh", "lib/detail/vec.tcc"}
