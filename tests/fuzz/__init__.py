"""Coverage-guided fuzzing with atheris (issue 16): the package door, both readers, both writers
and the upload route, seeded from the real-world corpus. ``python -m tests.fuzz.run --seconds N``
(``make fuzz FUZZ_SECONDS=N``) runs every target for N seconds; see :mod:`tests.fuzz.run`."""
