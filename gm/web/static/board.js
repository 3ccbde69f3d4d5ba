// Draws a board's geometry (Game.board_json: kind "grid") as SVG.  No library: a few rects,
// lines, circles and labels, each with data-kind and a <title> for screen readers.
const NS = "http://www.w3.org/2000/svg";

function el(name, attrs = {}, title = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (title) {
    const t = document.createElementNS(NS, "title");
    t.textContent = title;
    node.appendChild(t);
  }
  return node;
}

// board: {columns, rows, col_labels, row_order, bands, lines, cells, pieces, headline}
// opts: {cell: px, path: [[col,row],...]}
export function drawBoard(board, opts = {}) {
  const cs = opts.cell || board.cell || 12;
  const left = 26, top = 14;
  const order = board.row_order || [...Array(board.rows).keys()].map((i) => i + 1);
  const yOf = new Map(order.map((row, i) => [row, top + i * cs]));
  const x = (c) => left + c * cs;
  const width = left + board.columns * cs + 4;
  const height = top + order.length * cs + 14;
  const svg = el("svg", {
    viewBox: `0 0 ${width} ${height}`, width: width * (opts.zoom || 1), height: height * (opts.zoom || 1),
    role: "img", "aria-label": board.headline || "board", "data-game": board.game || "", class: "board",
  });
  svg.appendChild(el("rect", { x: left, y: top, width: board.columns * cs, height: order.length * cs, class: "field", "data-kind": "field" }));
  const span = (from, to) => {
    const ys = order.filter((r) => r >= from && r <= to).map((r) => yOf.get(r));
    return ys.length ? [Math.min(...ys), Math.max(...ys) + cs] : null;
  };
  for (const b of board.bands || []) {
    const s = span(b.from, b.to);
    if (s) svg.appendChild(el("rect", { x: left, y: s[0], width: board.columns * cs, height: s[1] - s[0], class: `band ${b.kind}`, "data-kind": b.kind }, b.label));
  }
  // grid lines (light)
  const grid = el("g", { class: "grid" });
  for (let c = 0; c <= board.columns; c++) grid.appendChild(el("line", { x1: x(c), y1: top, x2: x(c), y2: top + order.length * cs }));
  for (let i = 0; i <= order.length; i++) grid.appendChild(el("line", { x1: left, y1: top + i * cs, x2: x(board.columns), y2: top + i * cs }));
  svg.appendChild(grid);
  for (const ln of board.lines || []) {
    const y = yOf.get(ln.row);
    if (y === undefined) continue;
    svg.appendChild(el("rect", { x: left, y, width: board.columns * cs, height: cs, class: `line ${ln.kind}`, "data-kind": ln.kind, "data-row": ln.row }, ln.label));
  }
  for (const c of board.cells || []) {
    const y = yOf.get(c.row);
    if (y === undefined) continue;
    const attrs = { x: x(c.col) + 1, y: y + 1, width: cs - 2, height: cs - 2, class: `cell ${c.kind}`, "data-kind": c.kind, "data-col": c.col, "data-row": c.row };
    if (c.fill) attrs.fill = c.fill;
    if (c.move && opts.onMove) { // a square that makes a move when clicked (or Enter / Space)
      Object.assign(attrs, { tabindex: 0, role: "button", "data-move": c.move, "aria-label": `${c.label}: ${c.move}` });
    }
    const rect = svg.appendChild(el("rect", attrs, c.label));
    if (c.move && opts.onMove) {
      rect.addEventListener("click", () => opts.onMove(c.move));
      rect.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); opts.onMove(c.move); } });
    }
    if (c.text) {
      const parts = String(c.text).split("\n");
      const size = parts.length > 1 ? Math.min(11, cs / (parts.length + 2)) : Math.min(cs * 0.42, 12);
      const t = el("text", { x: x(c.col) + cs / 2, y: y + cs / 2 - (parts.length - 1) * size * 0.6 + size * 0.35, class: "cell-text", "text-anchor": "middle", "font-size": size.toFixed(1), "aria-hidden": "true" });
      parts.forEach((line, k) => {
        const span = el("tspan", { x: x(c.col) + cs / 2, dy: k ? (size * 1.2).toFixed(1) : 0 });
        span.textContent = line;
        t.appendChild(span);
      });
      svg.appendChild(t);
    }
  }
  const path = opts.path || board.path;
  if (path && path.length > 1) {
    const pts = path.map(([c, r]) => `${x(c) + cs / 2},${yOf.get(r) + cs / 2}`).join(" ");
    svg.appendChild(el("polyline", { points: pts, class: "path", "data-kind": "path" }, opts.pathLabel || "last move"));
  }
  for (const p of board.pieces || []) {
    const y = yOf.get(p.row);
    if (y === undefined) continue;
    let cx = x(p.col) + cs / 2, cy = y + cs / 2, rad = cs * 0.38;
    if (p.dx !== undefined) { // a position within the square (Chess-Football's five, a carried ball)
      cx = x(p.col) + cs * p.dx;
      cy = y + cs * p.dy;
      rad = cs * (p.r || 0.2);
    } else if (p.slots) { // several pieces share a square: a small one in its slot
      const n = p.slots, k = p.slot || 0, cols = Math.ceil(Math.sqrt(n));
      const sub = cs / cols;
      cx = x(p.col) + sub * (k % cols) + sub / 2;
      cy = y + sub * Math.floor(k / cols) + sub / 2;
      rad = sub * 0.42;
    }
    const attrs = { cx, cy, r: rad, class: `piece ${p.kind}`, "data-kind": p.kind, "data-col": p.col, "data-row": p.row };
    if (p.fill) attrs.fill = p.fill;
    if (p.side) attrs["data-side"] = p.side;
    svg.appendChild(el("circle", attrs, p.label));
    if (p.glyph && !p.slots && p.kind !== "ball") {
      const size = Math.max(3, rad * (p.glyph.length > 1 ? 0.9 : 1.2));
      svg.appendChild(el("text", { x: cx, y: cy + size * 0.35, class: "glyph", "text-anchor": "middle", "font-size": size.toFixed(1), "aria-hidden": "true" })).textContent = p.glyph;
    }
  }
  const labels = el("g", { class: "labels", "aria-hidden": "true" });
  (board.col_labels || []).forEach((t, c) => {
    labels.appendChild(el("text", { x: x(c) + cs / 2, y: top - 3, "text-anchor": "middle" })).textContent = t;
    labels.appendChild(el("text", { x: x(c) + cs / 2, y: height - 3, "text-anchor": "middle" })).textContent = t;
  });
  order.forEach((row, i) => {
    labels.appendChild(el("text", { x: left - 3, y: top + i * cs + cs * 0.75, "text-anchor": "end" })).textContent = (board.row_labels || {})[row] ?? String(row);
  });
  svg.appendChild(labels);
  return svg;
}
