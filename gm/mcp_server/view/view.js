import { drawBoard } from "../../web/static/board.js";
export const draw = drawBoard;
