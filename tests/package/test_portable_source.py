"""The C++ builds with MSVC as well as with GCC and Clang (the Windows wheel): a compiler's own
extensions (GCC's builtins, 128-bit integers, attributes, inline assembly, cpuid helpers) appear
only inside a preprocessor branch that names the compiler, with the other compilers' way beside it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = re.compile(r"__builtin_\w+|__int128|__attribute__|__asm__|__cpuid\w*|_xgetbv|__declspec")
COMPILER_BRANCH = re.compile(r"_MSC_VER|__GNUC__|__clang__")


def unguarded_extensions(source: str) -> list[tuple[int, str]]:
    """(line, extension) for every use outside an #if/#elif/#else branch whose chain names a compiler."""
    found = []
    chains: list[bool] = []  # per open #if: whether any condition of its chain names a compiler
    for number, line in enumerate(source.splitlines(), 1):
        directive = line.strip()
        if directive.startswith("#if"):
            chains.append(bool(COMPILER_BRANCH.search(directive)))
        elif directive.startswith("#elif"):
            chains[-1] = chains[-1] or bool(COMPILER_BRANCH.search(directive))
        elif directive.startswith("#endif"):
            chains.pop()
        elif not directive.startswith("//"):
            code = directive.split("//")[0]
            for match in EXTENSION.finditer(code):
                if not any(chains):
                    found.append((number, match.group()))
    return found


def test_the_checker_finds_an_unguarded_builtin_and_passes_a_guarded_one() -> None:
    assert unguarded_extensions("int n = __builtin_popcount(x);") == [(1, "__builtin_popcount")]
    guarded = "#if defined(__GNUC__)\n__builtin_prefetch(p);\n#elif defined(_MSC_VER)\n_mm_prefetch(p, 0);\n#endif\n"
    assert unguarded_extensions(guarded) == []
    assert unguarded_extensions("#ifdef __linux__\nunsigned __int128 x;\n#endif\n") == [(2, "__int128")]


def test_the_core_and_bindings_use_compiler_extensions_only_behind_a_compiler_check() -> None:
    sources = sorted((ROOT / "cpp").rglob("*.[ch]*")) + sorted((ROOT / "bindings").glob("*.[ch]*"))
    assert len(sources) > 40
    offenders = {
        str(path.relative_to(ROOT)): found for path in sources if (found := unguarded_extensions(path.read_text()))
    }
    assert offenders == {}
