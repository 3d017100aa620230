"""The one exception type users see."""


class ConfigError(ValueError):
    """Invalid user input: a rule set, policy, file or option.

    The message is one sentence naming the field and what is allowed; the CLI
    prints it without a traceback and exits non-zero.
    """
