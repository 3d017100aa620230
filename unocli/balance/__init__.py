"""Balance regression for CI: baselines of a run's statistics and the check against them."""
