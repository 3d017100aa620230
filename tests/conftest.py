"""Shared pytest set-up.

Hypothesis runs derandomised by default, so the default test run (and CI) is
the same run every time: a failure in CI is a change in the code, never a new
random example. The number of examples is set per test (see each module's
``EXAMPLES``). ``--hypothesis-profile=explore`` draws fresh random examples
for a bug hunt, and prints the seed to reproduce any failure.
"""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile("ci")
