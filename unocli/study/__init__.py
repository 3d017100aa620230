"""Questions asked of the engines: simulate, compare, sweep, experiment files and their statistics."""
