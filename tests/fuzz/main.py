"""One fuzz target under atheris: ``python -m tests.fuzz.main TARGET [libFuzzer arguments]``.

The project's modules are imported with atheris's coverage instrumentation, so libFuzzer keeps
the inputs that reach new code.
"""
from __future__ import annotations

import sys


def main() -> None:
    import atheris

    name = sys.argv[1]
    with atheris.instrument_imports(include=["adapters", "addin_backend"]):
        import adapters  # noqa: F401
        import adapters.docx.reader  # noqa: F401
        import adapters.odt.reader  # noqa: F401
        if name == "writers":
            import adapters.docx.writer  # noqa: F401
            import adapters.odt.writer  # noqa: F401
            import addin_backend.edits.operations  # noqa: F401
        if name == "upload":
            import addin_backend.api  # noqa: F401
        if name == "writeback":
            import adapters.docx.writer  # noqa: F401
            import adapters.odt.writer  # noqa: F401
            import adapters.properties  # noqa: F401

    from .targets import target

    fn, mutator = target(name)
    if name == "writers":
        from .targets import _documents

        _documents()  # read the seed documents before fuzzing starts
    argv = [sys.argv[0], *sys.argv[2:]]
    if mutator is not None:
        atheris.Setup(argv, fn, custom_mutator=mutator)
    else:
        atheris.Setup(argv, fn)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
