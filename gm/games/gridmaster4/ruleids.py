"""Every rule id of GridMaster4, with a one-line title.

``GM4-*`` ids name rules of the rules document (``shared/seeds/002``);
``GM4-R-*`` ids name the rulings recorded in ``rules_md/gridmaster4.md`` where
the document is silent or vague.
"""

RULES: dict[str, str] = {
    # --- the document
    "GM4-BOARD": "Board: a 20x20 grid of 400 cells; a tile fills one cell",
    "GM4-PLAYERS": "Four players in the initial order 1=orange, 2=magenta, 3=lime green, 4=aqua, each with tiles numbered 1-100",
    "GM4-TURN": "Players take turns in the initial player order",
    "GM4-ACTIVE": "Tiles are placed active (full colour) and can be made inactive (muted)",
    "GM4-SCORE": "Scores start at 0; the number of the tile a player places becomes their score",
    "GM4-FIRST": "Each player's first turn: tile 1 in any open cell",
    "GM4-NEXT": "Later turns place the player's next tile: 2, then 3, and so on",
    "GM4-OPEN": "A tile goes only on an open (unoccupied) cell",
    "GM4-MOVE": "Normal move: an open cell exactly 3 cells up/down/left/right of an active tile or exactly 2 cells diagonally (up to 32 options)",
    "GM4-EDGE": "Near a board edge a tile has fewer moves; a cell reachable from several active tiles is one option",
    "GM4-DEACTIVATE": "After a move every active tile within a legal move of the new tile becomes inactive (at least the one built on)",
    "GM4-BLOCKED": "A player with no legal move is blocked and removed from further play",
    "GM4-FREE": "After a block each player places a tile in any open cell, then normal play resumes",
    "GM4-WIN-TILE": "A player who places their tile 100 wins",
    "GM4-WIN-BLOCKED": "When all players are blocked, the player with the largest tile on the board wins",
    "GM4-SYNTAX": "An action is a placement: 'place 37 at K12' or just 'place K12'",
    # --- rulings (see rules_md/gridmaster4.md)
    "GM4-R-SEATS": "Seats are orange, magenta, lime (lime green) and aqua, shown as O, M, L, A; orange moves first",
    "GM4-R-CELLS": "Cells are column letter + row number: columns A-T left to right, rows 1-20 bottom to top (A1 bottom-left)",
    "GM4-R-OWN-TILES": "A player builds only on their own active tiles",
    "GM4-R-DEACT-ANY": "A move makes active tiles of every colour inactive, not only the mover's",
    "GM4-R-REACH": "A tile 'within a legal move' is exactly one move away (3 orthogonally or 2 diagonally), not any nearer cell",
    "GM4-R-NO-DEACT-FREE": "First tiles and free placements make no tile inactive; only normal moves do",
    "GM4-R-BLOCK-CHECK": "A player is checked for moves when their normal turn starts; the engine declares the block, the player does not act",
    "GM4-R-BLOCKED-TILES": "A blocked player's tiles stay on the board (they fill cells and count for the largest tile) and all become inactive",
    "GM4-R-FREE-ORDER": "After a block every player still in play places one free tile, in turn order from the player after the blocked one; normal play resumes with that same player",
    "GM4-R-FREE-TILE": "A free placement is the player's next numbered tile: it scores, starts active, and placing tile 100 this way wins",
    "GM4-R-LAST": "The last player left plays on alone until they place tile 100 or are blocked",
    "GM4-R-FULL": "A player due a free placement when no cell is open is blocked (only on small custom boards)",
    "GM4-R-TIE": "Equal largest tiles when all are blocked: the tied player who placed that number first wins",
    "GM4-R-INACTIVE-SHOW": "The board shows active tiles in upper case (O37) and inactive tiles in lower case (o37)",
    "GM4-R-NO-PASS": "There is no passing: a player with a legal move must place a tile",
}
