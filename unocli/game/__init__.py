"""What a game is made of: cards, rules, policies, counters and random streams (plain data, no engine)."""
