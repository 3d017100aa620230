"""The computations behind the reports: each plays its experiment and returns typed results and tidy frames.

A module here holds one report's own analysis (the bluff best-response search,
the stacking strategies, the skill measures, ...): it calls the study layer and
returns numbers. Nothing here writes prose, draws a chart or knows a report's
layout; that is ``unocli.report``, which imports from here and never the other way.
"""
