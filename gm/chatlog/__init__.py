"""Games played in any chatbot, brought back into gm: the text a chat was saved in, cleaned line by line
(:mod:`gm.chatlog.text`), its move log found and read (:mod:`gm.chatlog.read`), the seed its chance replays
with (:mod:`gm.chatlog.seed`), the chat's own dice and deals (:mod:`gm.chatlog.chance`), the replay
(:mod:`gm.chatlog.replay`) and the audit (:mod:`gm.chatlog.audit`, :mod:`gm.chatlog.report`).  Each game's
format is its ``chatlog`` module (:mod:`gm.core.chatlog`)."""
