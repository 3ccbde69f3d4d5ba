// gm board drawing: a board's geometry (Game.board_json, kind "grid") as SVG, the targets a move
// builder lights on it, its legend and a hand of cards.  A self-contained ES module: no page globals,
// no network, no game names; colours come from CSS variables (board.css), so a host can theme it.
// The page (app.js) and the MCP App view compose it with builder.js.
const NS = "http://www.w3.org/2000/svg";
/** the margins for the row labels (left) and column labels (top and bottom), in SVG units */
export const MARGIN = { left: 26, top: 14, bottom: 14, right: 4 };

function svgEl(doc, name, attrs = {}, title = null) {
  const node = doc.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === "fill") node.style.setProperty("fill", String(v)); // the game's own colour wins over the style sheet's
    else node.setAttribute(k, String(v));
  }
  if (title) {
    const t = doc.createElementNS(NS, "title");
    t.textContent = title;
    node.appendChild(t);
  }
  return node;
}

/** Where things are on a drawn board: cell size, x of a column, y of a row (SVG units). */
export function geometry(board, opts = {}) {
  const cs = opts.cell || board.cell || 12;
  const order = board.row_order || [...Array(board.rows).keys()].map((i) => i + 1);
  const yOf = new Map(order.map((row, i) => [row, MARGIN.top + i * cs]));
  // the row labels' margin: room for the longest (7-unit type, about 4.2 units a character)
  const longest = Math.max(0, ...order.map((row) => String((board.row_labels || {})[row] ?? row).length));
  const left = Math.max(MARGIN.left, Math.ceil(6 + 4.2 * longest));
  return {
    cs,
    order,
    left,
    x: (col) => left + col * cs,
    y: (row) => yOf.get(row),
    width: left + board.columns * cs + MARGIN.right,
    height: MARGIN.top + order.length * cs + MARGIN.bottom,
  };
}

function sideIndex(board) {
  const out = new Map();
  (board.sides || []).forEach((s, i) => out.set(s, i));
  for (const p of board.pieces || []) if (p.side !== undefined && !out.has(p.side)) out.set(p.side, out.size);
  return out;
}

/**
 * The board as an SVG element.
 * board: {columns, rows, row_order, col_labels, row_labels, bands, lines, cells, pieces, path, sides, surface, headline}
 * opts: {cell: px per square, zoom: scale, document}
 */
export function drawBoard(board, opts = {}) {
  const doc = opts.document || globalThis.document;
  const g = geometry(board, opts);
  const { cs, order } = g;
  const zoom = opts.zoom || 1;
  const svg = svgEl(doc, "svg", {
    viewBox: `0 0 ${g.width} ${g.height}`, width: Math.round(g.width * zoom), height: Math.round(g.height * zoom),
    role: "img", "aria-label": board.headline || "board", class: "gm-board board", "data-surface": board.surface || "plain",
  });
  svg.gmGeometry = g;
  const fieldH = order.length * cs;
  const left = g.left;
  svg.appendChild(svgEl(doc, "rect", { x: left, y: MARGIN.top, width: board.columns * cs, height: fieldH, class: "field", "data-kind": "field" }));
  const span = (from, to) => {
    const ys = order.filter((r) => r >= from && r <= to).map((r) => g.y(r));
    return ys.length ? [Math.min(...ys), Math.max(...ys) + cs] : null;
  };
  for (const b of board.bands || []) {
    const s = span(b.from, b.to);
    if (s) svg.appendChild(svgEl(doc, "rect", { x: left, y: s[0], width: board.columns * cs, height: s[1] - s[0], class: "band", "data-kind": b.kind }, b.label));
  }
  const grid = svgEl(doc, "g", { class: "grid", "aria-hidden": "true" });
  for (let c = 0; c <= board.columns; c++) grid.appendChild(svgEl(doc, "line", { x1: g.x(c), y1: MARGIN.top, x2: g.x(c), y2: MARGIN.top + fieldH }));
  for (let i = 0; i <= order.length; i++) grid.appendChild(svgEl(doc, "line", { x1: left, y1: MARGIN.top + i * cs, x2: g.x(board.columns), y2: MARGIN.top + i * cs }));
  svg.appendChild(grid);
  for (const ln of board.lines || []) {
    const y = g.y(ln.row);
    if (y === undefined) continue;
    svg.appendChild(svgEl(doc, "rect", { x: left, y, width: board.columns * cs, height: cs, class: "line", "data-kind": ln.kind, "data-row": ln.row }, ln.label));
  }
  for (const c of board.cells || []) {
    const y = g.y(c.row);
    if (y === undefined) continue;
    svg.appendChild(svgEl(doc, "rect", {
      x: g.x(c.col) + 1, y: y + 1, width: cs - 2, height: cs - 2, class: "cell", fill: c.fill,
      "data-kind": c.kind, "data-col": c.col, "data-row": c.row,
    }, c.label));
    if (c.text) {
      const parts = String(c.text).split("\n");
      const widest = Math.max(...parts.map((line) => line.length));
      // as large as the square allows, the widest line inside it (monospace: ~0.6 of the size a character)
      const size = Math.min(parts.length > 1 ? Math.min(11, cs / (parts.length + 2)) : Math.min(cs * 0.42, 12), (cs * 0.9) / (0.6 * widest));
      const t = svgEl(doc, "text", {
        x: g.x(c.col) + cs / 2, y: y + cs / 2 - (parts.length - 1) * size * 0.6 + size * 0.35, class: "cell-text",
        "text-anchor": "middle", "font-size": size.toFixed(1), "aria-hidden": "true",
      });
      parts.forEach((line, k) => {
        const tspan = svgEl(doc, "tspan", { x: g.x(c.col) + cs / 2, dy: k ? (size * 1.2).toFixed(1) : 0 });
        tspan.textContent = line;
        t.appendChild(tspan);
      });
      svg.appendChild(t);
    }
  }
  const path = opts.path || board.path;
  if (path && path.length > 1 && path.every(([, r]) => g.y(r) !== undefined)) {
    const pts = path.map(([c, r]) => `${g.x(c) + cs / 2},${g.y(r) + cs / 2}`).join(" ");
    svg.appendChild(svgEl(doc, "polyline", { points: pts, class: "path", "data-kind": "path" }, opts.pathLabel || "the last move"));
  }
  const sides = sideIndex(board);
  for (const p of board.pieces || []) {
    const y = g.y(p.row);
    if (y === undefined) continue;
    let cx = g.x(p.col) + cs / 2, cy = y + cs / 2, rad = cs * 0.38;
    if (p.dx !== undefined) { // a position within the square
      cx = g.x(p.col) + cs * p.dx;
      cy = y + cs * p.dy;
      rad = cs * (p.r || 0.2);
    } else if (p.slots) { // several pieces share a square: a small one in its slot
      const n = p.slots, k = p.slot || 0, cols = Math.ceil(Math.sqrt(n));
      const sub = cs / cols;
      cx = g.x(p.col) + sub * (k % cols) + sub / 2;
      cy = y + sub * Math.floor(k / cols) + sub / 2;
      rad = sub * 0.42;
    }
    svg.appendChild(svgEl(doc, "circle", {
      cx, cy, r: rad, class: "piece", fill: p.fill, "data-kind": p.kind, "data-col": p.col, "data-row": p.row,
      "data-ref": p.ref, "data-side": p.side, "data-side-index": p.side !== undefined ? sides.get(p.side) : undefined,
    }, p.label));
    if (p.glyph && !p.slots) {
      const size = Math.max(3, rad * (p.glyph.length > 2 ? 0.75 : p.glyph.length > 1 ? 0.9 : 1.2));
      const t = svgEl(doc, "text", { x: cx, y: cy + size * 0.35, class: "glyph", "text-anchor": "middle", "font-size": size.toFixed(1), "aria-hidden": "true" });
      t.textContent = p.glyph;
      svg.appendChild(t);
    }
  }
  const labels = svgEl(doc, "g", { class: "labels", "aria-hidden": "true" });
  (board.col_labels || []).forEach((text, c) => {
    for (const y of [MARGIN.top - 3, g.height - 3]) {
      const t = svgEl(doc, "text", { x: g.x(c) + cs / 2, y, "text-anchor": "middle" });
      t.textContent = text;
      labels.appendChild(t);
    }
  });
  order.forEach((row, i) => {
    const t = svgEl(doc, "text", { x: left - 3, y: MARGIN.top + i * cs + cs * 0.72, "text-anchor": "end" });
    t.textContent = (board.row_labels || {})[row] ?? String(row);
    labels.appendChild(t);
  });
  svg.appendChild(labels);
  return svg;
}

/**
 * The part of the board where the action is, in SVG units ({x0, y0, x1, y1}): the board's own
 * focus (rows and columns), else every piece, else null (the whole board).
 */
export function focusBox(board, svg) {
  const g = svg.gmGeometry || geometry(board);
  const f = board.focus;
  let rows = null, cols = null;
  if (f && (f.rows || f.cols)) {
    rows = f.rows || null;
    cols = f.cols || null;
  } else if ((board.pieces || []).length) {
    const rs = board.pieces.map((p) => p.row), cs = board.pieces.map((p) => p.col);
    rows = [Math.min(...rs), Math.max(...rs)];
    cols = [Math.min(...cs), Math.max(...cs)];
  }
  if (!rows && !cols) return null;
  const ys = g.order.filter((r) => !rows || (r >= rows[0] && r <= rows[1])).map((r) => g.y(r));
  if (!ys.length) return null;
  return {
    x0: cols ? g.x(cols[0]) : g.x(0), x1: cols ? g.x(cols[1] + 1) : g.x(board.columns),
    y0: Math.min(...ys), y1: Math.max(...ys) + g.cs,
  };
}

/**
 * Light the targets a move builder offers and call onPick(target) when one is chosen (click, or
 * Enter / Space on the focused one; the arrow keys move between them, one of them in the tab order).
 * targets: [{kind: "piece"|"square", col, row, ref?, value, key?, label, chosen?, now?, text?}] (now: false
 * for the choices of an earlier step, drawn under the others; text: written on the square)
 */
export function markTargets(svg, targets, onPick, opts = {}) {
  clearTargets(svg);
  if (!targets.length) return;
  const doc = svg.ownerDocument;
  const g = svg.gmGeometry;
  const group = svgEl(doc, "g", { class: "gm-targets", role: "group", "aria-label": opts.label || "choices on the board" });
  const shown = [];
  const notes = [];
  // drawn in layers, the last on top: choices of an earlier step (to change it) under those of the step
  // asked now (flag "now"), squares under pieces; top to bottom, left to right in each
  const layer = (t) => 2 * (t.now === false ? 0 : 1) + (t.kind === "piece" ? 1 : 0);
  const sorted = [...targets].sort((a, b) => (layer(a) - layer(b)) || (g.order.indexOf(a.row) - g.order.indexOf(b.row)) || (a.col - b.col));
  for (const t of sorted) {
    const y = g.y(t.row);
    if (y === undefined) continue;
    let node;
    const piece = t.kind === "piece" && t.ref !== undefined
      ? [...svg.querySelectorAll("circle.piece")].find((c) => c.getAttribute("data-ref") === t.ref) : null;
    if (piece) {
      const r = Number(piece.getAttribute("r"));
      node = svgEl(doc, "circle", { cx: piece.getAttribute("cx"), cy: piece.getAttribute("cy"), r: r + Math.max(1.5, g.cs * 0.06), class: "gm-target piece-target" });
    } else {
      node = svgEl(doc, "rect", { x: g.x(t.col) + 0.5, y: y + 0.5, width: g.cs - 1, height: g.cs - 1, rx: g.cs * 0.12, class: "gm-target square-target" });
    }
    if (t.taken) { // shown (what holds it), not a choice
      node.setAttribute("class", "gm-target taken");
      node.setAttribute("aria-hidden", "true");
      group.appendChild(node);
      if (t.text) notes.push(noteText(doc, g, t, y));
      continue;
    }
    node.setAttribute("tabindex", "-1");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", t.label);
    node.setAttribute("data-value", t.key ?? String(t.value));
    node.setAttribute("data-col", t.col);
    node.setAttribute("data-row", t.row);
    if (t.ref !== undefined) node.setAttribute("data-ref", t.ref);
    node.setAttribute("data-now", String(t.now !== false));
    if (t.chosen) { node.classList.add("chosen"); node.setAttribute("aria-pressed", "true"); }
    if (t.text) notes.push(noteText(doc, g, t, y)); // what the choice holds so far (an assignment's item)
    const pick = (ev) => { ev.preventDefault(); ev.stopPropagation(); onPick(t); };
    node.addEventListener("click", pick);
    node.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") pick(ev);
      else if (ev.key.startsWith("Arrow")) { ev.preventDefault(); step(shown, node, ev.key); }
    });
    group.appendChild(node);
    shown.push({ node, x: Number(node.getAttribute("cx") || node.getAttribute("x")), y: Number(node.getAttribute("cy") || node.getAttribute("y")) });
  }
  for (const tx of notes) group.appendChild(tx);
  svg.appendChild(group);
  svg.setAttribute("role", "group"); // an image's children are presentational: a board with choices on it is a group
  const first = shown.find((s) => s.node.classList.contains("chosen")) || shown[0];
  if (first) first.node.setAttribute("tabindex", "0");
}

function noteText(doc, g, t, y) {
  const tx = svgEl(doc, "text", { x: g.x(t.col) + g.cs / 2, y: y + g.cs * 0.9, class: "gm-target-text", "text-anchor": "middle",
    "font-size": Math.min(12, g.cs * 0.14).toFixed(1), "aria-hidden": "true" });
  tx.textContent = t.text;
  return tx;
}

function step(shown, from, key) {
  const here = shown.find((s) => s.node === from);
  const dir = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[key];
  let best = null, bestScore = Infinity;
  for (const s of shown) {
    if (s === here) continue;
    const dx = s.x - here.x, dy = s.y - here.y;
    const along = dx * dir[0] + dy * dir[1];
    if (along <= 0) continue;
    const across = Math.abs(dx * dir[1]) + Math.abs(dy * dir[0]);
    const score = along + 2 * across;
    if (score < bestScore) { best = s; bestScore = score; }
  }
  if (!best) return;
  here.node.setAttribute("tabindex", "-1");
  best.node.setAttribute("tabindex", "0");
  best.node.focus();
}

export function clearTargets(svg) {
  for (const old of svg.querySelectorAll("g.gm-targets")) old.remove();
  svg.setAttribute("role", "img");
}

function swatch(doc, entry, board) {
  const s = svgEl(doc, "svg", { viewBox: "0 0 16 16", width: 16, height: 16, class: `gm-board swatch`, "data-surface": board.surface || "plain", "aria-hidden": "true" });
  const shape = entry.shape || "cell";
  if (shape === "band" || shape === "line") {
    s.appendChild(svgEl(doc, "rect", { x: 0, y: 0, width: 16, height: 16, class: "field" }));
    s.appendChild(svgEl(doc, "rect", { x: 0, y: shape === "line" ? 5 : 0, width: 16, height: shape === "line" ? 6 : 16, class: shape, "data-kind": entry.kind }));
  } else if (shape === "piece") {
    s.appendChild(svgEl(doc, "rect", { x: 0, y: 0, width: 16, height: 16, class: "field" }));
    const idx = entry.side !== undefined ? sideIndex(board).get(entry.side) : undefined;
    s.appendChild(svgEl(doc, "circle", { cx: 8, cy: 8, r: 6, class: "piece", "data-kind": entry.kind, fill: entry.fill, "data-side-index": idx }));
  } else if (shape === "path") {
    s.appendChild(svgEl(doc, "rect", { x: 0, y: 0, width: 16, height: 16, class: "field" }));
    s.appendChild(svgEl(doc, "polyline", { points: "2,14 2,8 14,2", class: "path" }));
  } else if (shape === "target") {
    s.appendChild(svgEl(doc, "rect", { x: 0, y: 0, width: 16, height: 16, class: "field" }));
    s.appendChild(svgEl(doc, "rect", { x: 1.5, y: 1.5, width: 13, height: 13, rx: 2, class: "gm-target" }));
  } else {
    s.appendChild(svgEl(doc, "rect", { x: 1, y: 1, width: 14, height: 14, class: "cell", "data-kind": entry.kind, fill: entry.fill }));
  }
  return s;
}

/**
 * A legend for every colour and mark on the board: the board's own legend entries, then a plain one
 * for any kind drawn that it does not explain.  extra: entries to add (the builder's targets).
 */
export function drawLegend(board, extra = [], opts = {}) {
  const doc = opts.document || globalThis.document;
  const entries = [...(board.legend || [])];
  const said = new Set(entries.map((e) => `${e.shape || "cell"}:${e.kind}`));
  const add = (shape, kind) => {
    if (!kind || said.has(`${shape}:${kind}`)) return;
    said.add(`${shape}:${kind}`);
    entries.push({ shape, kind, text: String(kind).replaceAll("-", " ") });
  };
  for (const b of board.bands || []) add("band", b.kind);
  for (const l of board.lines || []) add("line", l.kind);
  for (const c of board.cells || []) if (!c.fill) add("cell", c.kind);
  for (const p of board.pieces || []) if (p.side === undefined) add("piece", p.kind);
  entries.push(...extra);
  const ul = doc.createElement("ul");
  ul.className = "gm-legend";
  for (const e of entries) {
    const li = doc.createElement("li");
    li.dataset.kind = e.kind;
    li.append(swatch(doc, e, board), " ", e.text);
    ul.appendChild(li);
  }
  return ul;
}

/** A hand of cards (board.hand: {title, groups: [{label, name, cards: [{text, label, tone}]}]}), or null. */
export function drawHand(board, opts = {}) {
  const hand = board.hand;
  if (!hand) return null;
  const doc = opts.document || globalThis.document;
  const box = doc.createElement("section");
  box.className = "gm-hand";
  box.setAttribute("aria-label", hand.title || "hand");
  const h = doc.createElement("h3");
  h.textContent = hand.title || "Hand";
  box.appendChild(h);
  const ul = doc.createElement("ul");
  for (const group of hand.groups || []) {
    const li = doc.createElement("li");
    li.dataset.name = group.name || group.label;
    const who = doc.createElement("span");
    who.className = "gm-who";
    who.textContent = group.label;
    li.appendChild(who);
    for (const card of group.cards || []) li.appendChild(cardChip(doc, card));
    if (!(group.cards || []).length) li.append(" (no cards)");
    ul.appendChild(li);
  }
  box.appendChild(ul);
  return box;
}

/** One card as a chip: its text, its label for screen readers and as a tooltip, its tint. */
export function cardChip(doc, card, tag = "span") {
  const chip = doc.createElement(tag);
  chip.className = `gm-card tone-${card.tone ?? 5}`;
  chip.textContent = card.text;
  chip.title = card.label || card.text;
  if (tag === "span") {
    chip.setAttribute("role", "img");
    chip.setAttribute("aria-label", `${card.text}: ${card.label || card.text}`);
  }
  return chip;
}
