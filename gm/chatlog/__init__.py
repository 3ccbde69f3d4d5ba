"""Games played in any chatbot, brought back into gm: the move log's text cleaning
(:mod:`gm.chatlog.text`) and the audit (:mod:`gm.chatlog.audit`).  Each game's format is its
``chatlog`` module (:mod:`gm.core.chatlog`)."""
