// gm's board app (MCP Apps, SEP-1865): the view a chat client shows in a sandboxed frame beside a
// tool result.  It speaks the app protocol to its host over postMessage (JSON-RPC 2.0):
// ui/initialize, then tool results and context changes from the host, and tools/call through the
// host to gm (the move buttons, the long poll that hears of the other seats' moves).  Everything it
// draws comes from gm's view of the client's seat (gm.mcp_server.app.view_of): nothing here knows a
// game.  The board is drawn by the page's own module (gm/web/static/board.js, inlined by gm); where the
// package has the page's move builder (builder.js: GM_BUILDER, set by gm), a move is also built by
// pointing at the board, from the game's own description of its moves (the view's builder).
import * as board from "../../web/static/board.js";

const PROTOCOL = "2026-01-26";
const $ = (id) => document.getElementById(id);
const S = {
  view: null, // the view drawn (gm's view_of)
  pending: new Map(), // request id -> {resolve, reject}
  nextId: 1,
  polling: false,
  stopped: false,
  busy: false,
  backoff: 0,
  narration: [],
  verified: new Map(),
  lastSize: [0, 0],
  svg: null, // the board drawn
  focused: false, // the board was scrolled to the action once (then the player's scrolling is kept)
  builder: null, // the move builder's UI (GM_BUILDER.createBuilder), when the package has one
};

// what the move builder lights on the board (board.js's targets, where it has them)
const boardAdapter = {
  mark(targets, onPick, label) { if (S.svg && board.markTargets) board.markTargets(S.svg, targets, onPick, { label }); queueSize(); },
  clear() { if (S.svg && board.clearTargets) board.clearTargets(S.svg); },
};

// ------------------------------------------------------------------ the app protocol
function post(message) {
  window.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
}
function request(method, params, timeout = 60000) {
  const id = S.nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { S.pending.delete(id); reject(new Error(`${method}: no answer`)); }, timeout);
    S.pending.set(id, { resolve: (v) => { clearTimeout(timer); resolve(v); }, reject: (e) => { clearTimeout(timer); reject(e); } });
    post({ id, method, params });
  });
}
function notify(method, params) {
  post(params === undefined ? { method } : { method, params });
}

window.addEventListener("message", (ev) => {
  if (ev.source !== window.parent) return;
  const msg = ev.data;
  if (!msg || msg.jsonrpc !== "2.0") return;
  if (msg.id !== undefined && msg.method === undefined) { // a response to one of ours
    const waiting = S.pending.get(msg.id);
    if (!waiting) return;
    S.pending.delete(msg.id);
    if (msg.error) waiting.reject(Object.assign(new Error(msg.error.message || "error"), { code: msg.error.code }));
    else waiting.resolve(msg.result);
    return;
  }
  if (msg.id !== undefined) { // a request from the host
    if (msg.method === "ui/resource-teardown") { S.stopped = true; post({ id: msg.id, result: {} }); return; }
    if (msg.method === "ping") { post({ id: msg.id, result: {} }); return; }
    post({ id: msg.id, error: { code: -32601, message: `method not found: ${msg.method}` } });
    return;
  }
  const p = msg.params || {};
  if (msg.method === "ui/notifications/tool-result") toolResult(p);
  else if (msg.method === "ui/notifications/host-context-changed") applyContext(p);
  else if (msg.method === "ui/notifications/tool-input") setBusy(true);
  else if (msg.method === "ui/notifications/tool-cancelled") setBusy(false);
});

// ------------------------------------------------------------------ theme and size
function applyContext(ctx) {
  if (!ctx) return;
  const root = document.documentElement;
  if (ctx.theme === "dark" || ctx.theme === "light") {
    root.dataset.theme = ctx.theme;
    root.style.colorScheme = ctx.theme;
  }
  const vars = ctx.styles && ctx.styles.variables;
  if (vars) for (const [k, v] of Object.entries(vars)) if (v !== undefined && v !== null && k.startsWith("--")) root.style.setProperty(k, String(v));
  const fonts = ctx.styles && ctx.styles.css && ctx.styles.css.fonts;
  if (fonts && !$("host-fonts")) {
    const style = document.createElement("style");
    style.id = "host-fonts";
    style.textContent = fonts;
    document.head.appendChild(style);
  }
}

function reportSize() {
  const root = document.documentElement;
  const was = root.style.height;
  root.style.height = "max-content";
  const height = Math.ceil(root.getBoundingClientRect().height);
  root.style.height = was;
  const width = Math.ceil(window.innerWidth);
  if (width === S.lastSize[0] && height === S.lastSize[1]) return;
  S.lastSize = [width, height];
  notify("ui/notifications/size-changed", { width, height });
}
let sizeQueued = false;
function queueSize() {
  if (sizeQueued) return;
  sizeQueued = true;
  requestAnimationFrame(() => { sizeQueued = false; reportSize(); });
}

// ------------------------------------------------------------------ views
function newer(view) {
  if (!S.view || !view) return !!view;
  const [sid, n] = view.version.split("#");
  const [mine, m] = S.view.version.split("#");
  return sid !== mine || Number(n) >= Number(m);
}

function toolResult(result) {
  setBusy(false);
  const meta = (result && result._meta) || {};
  const data = (result && result.structuredContent) || {};
  if (Array.isArray(data.narration) && data.narration.length) S.narration = data.narration.slice(-8);
  if (data.ok === false && data.error) showError(data.error);
  else showError(null);
  const view = meta[GM.viewMeta] || (data.tool === GM.viewTool ? data.view : null);
  if (view && newer(view)) show(view);
  else if (view) render(); // the view already shows this position (or a later one): only what was said is new
  else refresh(); // a host that kept the result's _meta to itself: ask for the view
  poll();
}

function show(view, heard = false) {
  if (!newer(view)) return;
  const before = S.view;
  if (heard && before && before.session === view.session) {
    // moves the view heard of (not from a result it was given): they are what just happened
    const seen = before.log_from + before.log.length;
    const fresh = view.log.filter((_, i) => view.log_from + i >= seen).map(([seat, move]) => `${seat}: ${move}`);
    if (fresh.length) S.narration = fresh.slice(-8);
  }
  if (!before || before.session !== view.session) S.focused = false; // another game: open on its action
  S.view = view;
  render();
}

function text(tag, content, attrs = {}) {
  const node = document.createElement(tag);
  if (content !== undefined && content !== null) node.textContent = content;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function render() {
  const v = S.view;
  if (!v) return;
  document.body.dataset.version = v.version;
  document.body.dataset.game = v.game;
  $("title").textContent = `${v.game_name} — you play ${v.seat}`;
  $("status").textContent = v.status;
  const over = v.outcome;
  $("outcome").hidden = !over;
  if (over) $("outcome").textContent = `Game over: ${over.winner ? `${over.winner} wins` : "a draw"}${over.reason ? ` (${over.reason})` : ""}`;
  // the board: the engine's geometry, else its text board
  const box = $("board");
  box.replaceChildren();
  S.svg = v.board ? board.drawBoard(v.board, { zoom: Number(box.dataset.zoom || 1) }) : null;
  box.appendChild(S.svg || text("pre", v.ascii, { class: "ascii", "aria-label": "board" }));
  const hand = v.board && board.drawHand ? board.drawHand(v.board) : null;
  $("hand").replaceChildren(...(hand ? [hand] : []));
  const legend = v.board && board.drawLegend ? board.drawLegend(v.board) : null;
  $("legend").replaceChildren(...(legend ? [legend] : []));
  $("board-text").replaceChildren(...((v.board && v.board.text) || []).map((line) => text("li", line)));
  $("board-words").hidden = !(v.board && v.board.text && v.board.text.length);
  focus(v, box);
  // what happened last
  const events = $("events");
  events.replaceChildren(...S.narration.map((line) => text("li", line)));
  $("just-now").hidden = !S.narration.length;
  const log = $("log");
  log.replaceChildren(...v.log.map(([seat, move], i) => text("li", `${seat}: ${move}`, { value: String(v.log_from + i + 1) })));
  renderSecrets(v);
  renderMoves(v);
  queueSize();
}

async function sha256hex(s) {
  const bytes = new TextEncoder().encode(s);
  const hash = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function verify(rev) {
  const key = `${rev.seat}:${rev.index}`;
  if (S.verified.has(key)) return S.verified.get(key);
  let ok = null; // not checked: no SubtleCrypto outside a secure context
  if (globalThis.crypto && crypto.subtle) ok = (await sha256hex(`${rev.nonce}:${rev.choice}`)) === rev.commitment;
  S.verified.set(key, ok);
  return ok;
}

function renderSecrets(v) {
  const box = $("secrets");
  box.replaceChildren();
  for (const [seat, digest] of Object.entries(v.commitments || {})) {
    if (seat === v.seat) continue;
    box.appendChild(text("p", `${seat} has locked a pick. Commitment (SHA-256): ${digest}`, { class: "commitment", "data-seat": seat, "data-commitment": digest }));
  }
  for (const rev of v.reveals || []) {
    const p = text("p", `${rev.seat} chose ${rev.choice} (nonce ${rev.nonce}); checking sha256(nonce:choice)…`, { class: "reveal", "data-seat": rev.seat, "data-index": String(rev.index) });
    box.appendChild(p);
    verify(rev).then((ok) => {
      p.dataset.verified = String(ok);
      p.textContent = `${rev.seat} chose ${rev.choice} (nonce ${rev.nonce}); sha256(nonce:choice) = ${rev.commitment.slice(0, 16)}… ` +
        (ok ? "✓ matches the commitment" : ok === null ? "(not checked here)" : "✗ DOES NOT MATCH the commitment");
      queueSize();
    });
  }
}

function renderMoves(v) {
  if (GM_BUILDER) {
    if (!S.builder) S.builder = GM_BUILDER.createBuilder($("builder"), { board: boardAdapter, onSend: (call) => play(call.tool, call.args, call.text) });
    S.builder.update(v.your_turn && !v.outcome ? v.builder : null);
  }
  const box = $("moves");
  box.replaceChildren();
  const form = $("typed");
  form.hidden = true;
  if (v.outcome) return;
  if (!v.your_turn || !v.legal) {
    const waiting = (v.expected || []).map((e) => e.seat).join(", ");
    box.appendChild(text("p", waiting ? `Waiting for ${waiting}…` : "", { class: "waiting" }));
    return;
  }
  const legal = v.legal;
  box.appendChild(text("p", `Your move (${legal.count} legal):`, { class: "prompt" }));
  const list = text("div", null, { role: "group", "aria-label": "Your legal moves", class: "buttons" });
  for (const m of legal.moves) {
    const b = text("button", m.text, { type: "button", class: "move", "data-move": m.text, "data-tool": m.tool });
    b.addEventListener("click", () => play(m.tool, m.args, m.text));
    list.appendChild(b);
  }
  box.appendChild(list);
  if (legal.summary || legal.count > legal.moves.length) {
    const lines = Array.isArray(legal.summary) ? legal.summary : legal.summary ? [legal.summary] : [];
    box.appendChild(text("p", `… ${legal.count - legal.moves.length} more moves. In short:`, { class: "summary" }));
    box.appendChild(text("ul", null, { class: "summary" })).replaceChildren(...lines.map((line) => text("li", line)));
    form.hidden = false;
  }
}

// the part of the board where the action is, in view (board.js's focus box where it has one, else the
// first piece on the board); the player's own scrolling is kept while the action stays in view
function focus(v, box) {
  if (!S.svg || !v.board) return;
  let fb = board.focusBox ? board.focusBox(v.board, S.svg) : null;
  if (!fb) {
    const piece = S.svg.querySelector("circle[data-kind]");
    if (!piece) return;
    const r = piece.getBBox();
    fb = { x0: r.x, y0: r.y, x1: r.x + r.width, y1: r.y + r.height };
  }
  const vb = S.svg.viewBox.baseVal;
  const scale = vb && vb.width ? S.svg.width.baseVal.value / vb.width : 1;
  const inView = fb.y0 * scale >= box.scrollTop && fb.y1 * scale <= box.scrollTop + box.clientHeight;
  if (inView && S.focused) return;
  S.focused = true;
  box.scrollTop = Math.max(0, ((fb.y0 + fb.y1) / 2) * scale - box.clientHeight / 2);
  box.scrollLeft = Math.max(0, ((fb.x0 + fb.x1) / 2) * scale - box.clientWidth / 2);
}

function showError(err) {
  const box = $("error");
  box.hidden = !err;
  box.textContent = err ? `Refused [${err.rule}]: ${err.reason}` : "";
}

function setBusy(on) {
  S.busy = on;
  document.body.dataset.busy = String(on);
  if (S.builder) S.builder.busy(on);
}

// ------------------------------------------------------------------ calls through the host
async function callTool(name, args, timeout = 60000) {
  const result = await request("tools/call", { name, arguments: args }, timeout);
  return result || {};
}

async function play(tool, args, label) {
  if (S.busy) return;
  setBusy(true);
  showError(null);
  try {
    const result = await callTool(tool, args);
    const data = result.structuredContent || {};
    if (result.isError) showError(data.error || { rule: "CORE", reason: (result.content || []).map((c) => c.text).join(" ") });
    if (Array.isArray(data.narration) && data.narration.length) S.narration = data.narration.slice(-8);
    const view = (result._meta || {})[GM.viewMeta];
    if (view && newer(view)) show(view);
    else if (view) render();
    else await refresh();
  } catch (e) {
    showError({ rule: "host", reason: `${label}: ${e.message}` });
  } finally {
    setBusy(false);
    document.body.dataset.played = String(Number(document.body.dataset.played || 0) + 1);
  }
}

async function refresh() {
  try {
    const result = await callTool(GM.viewTool, {});
    const data = result.structuredContent || {};
    if (data.view) show(data.view);
    else if (data.note) $("status").textContent = data.note;
  } catch (e) {
    showError({ rule: "host", reason: e.message });
  }
}

// the other seats' moves: a long poll through the host (app_view waits for the next move)
async function poll() {
  if (S.polling || S.stopped) return;
  S.polling = true;
  try {
    while (!S.stopped && S.view && !S.view.outcome) {
      let result;
      try {
        result = await callTool(GM.viewTool, { since: S.view.version, wait: GM.maxWait }, (GM.maxWait + 30) * 1000);
        S.backoff = 0;
      } catch (e) {
        S.backoff = Math.min(30000, (S.backoff || 500) * 2);
        await new Promise((r) => setTimeout(r, S.backoff));
        continue;
      }
      const data = result.structuredContent || {};
      if (data.view && data.changed) show(data.view, true);
      if (!data.view) break;
    }
  } finally {
    S.polling = false;
  }
}

// ------------------------------------------------------------------ start
function wire() {
  $("typed").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("typed-move");
    const move = input.value.trim();
    if (!move) return;
    input.value = "";
    play(GM.playTool, { move }, move);
  });
  $("zoom-in").addEventListener("click", () => zoom(1.25));
  $("zoom-out").addEventListener("click", () => zoom(0.8));
  new ResizeObserver(queueSize).observe(document.documentElement);
  new ResizeObserver(queueSize).observe(document.body);
}

function zoom(f) {
  const box = $("board");
  box.dataset.zoom = String(Math.max(0.4, Math.min(3, Number(box.dataset.zoom || 1) * f)));
  render();
}

async function start() {
  wire();
  const init = await request("ui/initialize", {
    appInfo: { name: "gm-board", version: "1" },
    appCapabilities: { availableDisplayModes: ["inline", "fullscreen"] },
    protocolVersion: PROTOCOL,
  });
  applyContext((init && init.hostContext) || {});
  notify("ui/notifications/initialized");
  document.body.dataset.ready = "true";
  queueSize();
  setTimeout(() => { if (!S.view) refresh().then(poll); }, 1500); // no tool result came: ask
}

start().catch((e) => showError({ rule: "host", reason: `could not start: ${e.message}` }));
