"""gm: a deterministic rules engine and LLM game-master toolkit for board games."""

__version__ = "0.1.0"
