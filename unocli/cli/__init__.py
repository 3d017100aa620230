"""The click commands: thin adapters that parse, call the typed API and format."""
