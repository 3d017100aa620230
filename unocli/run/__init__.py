"""How games are run: shards of game indices, backends (local threads, Dask), accumulators, adaptive precision."""
