// The gm page: new game, your games, a game (board, chat with the referee, secret picks, live
// updates) and the transcript viewer.  Plain ES module, no build step; talks to gm serve's /api.
import { drawBoard } from "./board.js";

const $ = (id) => document.getElementById(id);
const STORE = "gm.games";

// ------------------------------------------------------------------ storage of seat tokens
function held() {
  try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch { return []; }
}
function keep(entry) {
  const all = held().filter((e) => e.token !== entry.token);
  all.unshift(entry);
  localStorage.setItem(STORE, JSON.stringify(all.slice(0, 100)));
}
function tokensOf(session) { return held().filter((e) => e.session === session); }

// ------------------------------------------------------------------ API
async function api(path, { method = "GET", token = null, body = undefined } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data;
  try { data = await res.json(); } catch { data = { ok: false, error: { status: res.status, message: res.statusText } }; }
  return data;
}

// ------------------------------------------------------------------ commit / reveal
export async function sha256hex(text) {
  const bytes = new TextEncoder().encode(text);
  const hash = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
async function verifyReveal(rev) {
  if (!(globalThis.crypto && crypto.subtle)) return null; // not a secure context
  return (await sha256hex(`${rev.nonce}:${rev.choice}`)) === rev.commitment;
}

// ------------------------------------------------------------------ views
function show(which) {
  for (const id of ["home", "game", "replay"]) $(id).hidden = id !== which;
}
function setConn(text, kind = "") {
  const c = $("conn");
  c.textContent = text;
  c.dataset.state = kind;
}

// ------------------------------------------------------------------ home
let catalog = [];
async function home() {
  show("home");
  closeGame();
  if (!catalog.length) {
    const cat = await api("/api/catalog");
    catalog = cat.games || [];
    const sel = $("ng-game");
    sel.replaceChildren(...catalog.map((g) => new Option(g.name || g.game, g.game)));
    sel.onchange = () => gameChosen();
    await gameChosen();
  }
  await listGames();
  listTranscripts();
}

async function gameChosen() {
  const g = catalog.find((x) => x.game === $("ng-game").value);
  if (!g) return;
  $("ng-seat").replaceChildren(...g.seats.map((s) => new Option(s, s)));
  $("ng-bot").replaceChildren(...g.bots.map((b) => new Option(b, b)));
  $("ng-bot").value = g.bots.includes("default") ? "default" : g.bots[0];
  const form = await api(`/api/rules/${encodeURIComponent(g.game)}`);
  const box = $("ng-rules");
  box.replaceChildren();
  box.dataset.game = g.game;
  for (const f of form.fields || []) {
    const p = document.createElement("p");
    const id = `rule-${f.name}`;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = f.name.replaceAll("_", " ");
    let input;
    if (f.enum) {
      input = document.createElement("select");
      for (const v of f.enum) input.add(new Option(String(v), String(v)));
    } else if (f.type === "boolean") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = !!f.default;
    } else {
      input = document.createElement("input");
      input.type = "text";
      input.inputMode = f.type === "string" ? "text" : "numeric";
      input.size = 8;
    }
    input.id = id;
    input.name = f.name;
    input.dataset.type = f.type;
    input.dataset.default = JSON.stringify(f.default);
    if (input.type !== "checkbox") input.value = f.default ?? "";
    const hint = document.createElement("small");
    const bounds = [f.minimum !== undefined ? `from ${f.minimum}` : "", f.maximum !== undefined ? `to ${f.maximum}` : ""].filter(Boolean).join(" ");
    hint.textContent = [f.description || "", bounds].filter(Boolean).join("; ");
    hint.id = `${id}-hint`;
    input.setAttribute("aria-describedby", hint.id);
    p.append(label, " ", input, " ", hint);
    box.appendChild(p);
  }
}

function houseRules() {
  const out = {};
  for (const input of $("ng-rules").querySelectorAll("input, select")) {
    const def = JSON.parse(input.dataset.default);
    let v;
    if (input.type === "checkbox") v = input.checked;
    else if (input.dataset.type === "integer" || input.dataset.type === "number") {
      const t = input.value.trim();
      v = /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : t; // the server says what is wrong with it
    } else v = input.value;
    if (JSON.stringify(v) !== JSON.stringify(def)) out[input.name] = v;
  }
  return out;
}

async function startGame(ev) {
  ev.preventDefault();
  $("ng-error").textContent = "";
  const mode = new FormData($("new-game")).get("mode");
  const game = $("ng-game").value, seat = $("ng-seat").value;
  const body = { game, seat, opponent: mode === "bot" ? `bot:${$("ng-bot").value}` : "human" };
  const seedText = $("ng-seed").value.trim();
  if (seedText) {
    if (!/^\d+$/.test(seedText)) { $("ng-error").textContent = "the seed is a whole number"; return; }
    body.seed = Number(seedText);
  }
  const rules = houseRules();
  if (Object.keys(rules).length) body.rules = rules;
  const res = await api("/api/games", { method: "POST", body });
  if (!res.ok) {
    const e = res.error || {};
    const message = e.message || "could not create the game";
    $("ng-error").textContent = (e.rule && !message.startsWith(`[${e.rule}]`) ? `[${e.rule}] ` : "") + message;
    return;
  }
  keep({ session: res.session, game: res.game, seat: res.seat, token: res.token, mode });
  let invite = null;
  for (const [name, entry] of Object.entries(res.seats)) {
    if (name === res.seat || !entry.join_code) continue;
    if (mode === "hotseat") {
      // both sides at this screen: the page joins the other side itself (its token is made for this page)
      const joined = await api("/api/join", { method: "POST", body: { code: entry.join_code, accept_practice: Boolean(res.practice) } });
      if (joined.ok) keep({ session: res.session, game: res.game, seat: name, token: joined.token, mode });
    } else if (entry.join_url) invite = entry.join_url;
  }
  if (invite) sessionStorage.setItem(`gm.invite.${res.session}`, invite);
  location.hash = `#game=${encodeURIComponent(res.session)}`;
}

async function listGames() {
  const mine = held();
  const ul = $("my-games");
  ul.replaceChildren();
  if (!mine.length) { ul.innerHTML = "<li>none yet</li>"; return; }
  const res = await api("/api/my-games", { method: "POST", body: { tokens: mine.map((e) => e.token) } });
  const seen = new Set();
  for (const row of res.games || []) {
    if (!row.ok || seen.has(row.session)) continue;
    seen.add(row.session);
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `#game=${encodeURIComponent(row.session)}`;
    a.textContent = `${row.game} ${row.session} (you: ${row.seat})`;
    li.append(a, ` ${row.over ? "over" : row.your_turn ? "your turn" : "waiting"} — ${row.status}`);
    li.dataset.session = row.session;
    ul.appendChild(li);
  }
}

async function listTranscripts() {
  const res = await api("/api/transcripts");
  const ul = $("transcripts");
  ul.replaceChildren();
  for (const t of res.transcripts || []) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `#replay=${encodeURIComponent(t.game)}/${encodeURIComponent(t.name)}`;
    a.textContent = `${t.game}: ${t.name}`;
    li.appendChild(a);
    ul.appendChild(li);
  }
}

// ------------------------------------------------------------------ a game
const G = {
  session: null, entries: [], active: null, view: null, board: null, source: null,
  zoom: 1, prevBall: null, path: null, verified: new Map(), retry: 0, timer: null, closed: false,
};

function closeGame() {
  G.closed = true;
  if (G.source) G.source.close();
  G.source = null;
  clearTimeout(G.timer);
}

function say(kind, text, extra = {}) {
  const li = document.createElement("li");
  li.className = `msg ${kind}`;
  li.dataset.kind = kind;
  for (const [k, v] of Object.entries(extra)) li.dataset[k] = v;
  li.textContent = text;
  const chat = $("chat");
  chat.appendChild(li);
  while (chat.children.length > 300) chat.firstChild.remove();
  chat.scrollTop = chat.scrollHeight;
  return li;
}

async function openGame(session) {
  closeGame();
  G.closed = false;
  G.session = session;
  G.entries = tokensOf(session);
  G.prevBall = null;
  G.path = null;
  G.verified = new Map();
  $("chat").replaceChildren();
  if (!G.entries.length) { show("home"); $("ng-error").textContent = "you hold no seat of that game"; return home(); }
  G.active = G.entries[0];
  show("game");
  const invite = sessionStorage.getItem(`gm.invite.${session}`);
  $("invite").hidden = !invite;
  $("invite-link").value = invite || "";
  const refs = await api("/api/referees");
  $("referee").hidden = !refs.llm;
  if (refs.llm) $("referee").options[0].textContent = `LLM referee (${refs.kind})`;
  await refresh(true);
  say("system", `Game ${session}: you play ${G.entries.map((e) => e.seat).join(" and ")}. Type a move or 'help'.`);
  connect();
}

function tokenFor(seat) { return (G.entries.find((e) => e.seat === seat) || {}).token; }

function pickActive(view) {
  // hot seat: the seat to act among the ones this page holds
  if (G.entries.length < 2) return;
  for (const e of view.expected || []) {
    const mine = G.entries.find((x) => x.seat === e.seat);
    if (mine) { G.active = mine; return; }
  }
}

async function refresh(first = false) {
  if (!G.session) return;
  const session = G.session;
  let view = await api(`/api/games/${encodeURIComponent(session)}`, { token: G.active.token });
  if (!view.ok) { setConn(view.error?.message || "error", "error"); return; }
  const before = G.active.seat;
  pickActive(view);
  if (G.active.seat !== before) view = await api(`/api/games/${encodeURIComponent(session)}`, { token: G.active.token });
  const board = await api(`/api/games/${encodeURIComponent(session)}/board`, { token: G.active.token });
  if (session !== G.session) return;
  G.view = view;
  G.board = board;
  renderStatus(view);
  renderBoard(board);
  await renderSecrets(view);
  await renderMoves(view);
  if (first && view.outcome) say("event", `The game is over: ${view.status}`);
}

function renderStatus(view) {
  $("practice").hidden = !view.practice_note;
  $("practice").textContent = view.practice_note || "";
  $("status").textContent = view.status;
  const seats = $("seats");
  seats.replaceChildren();
  const p = document.createElement("p");
  p.textContent = `You: ${G.active.seat}` + (G.entries.length > 1 ? " (hot seat: the page switches to the side to act)" : "") +
    ` · players: ${Object.entries(view.players).map(([s, w]) => `${s} ${w}`).join(", ")}`;
  seats.appendChild(p);
}

function renderBoard(payload) {
  const board = payload.board;
  $("board-ascii").textContent = payload.ascii_full || payload.ascii || "";
  const box = $("board-svg");
  box.replaceChildren();
  const text = $("board-text");
  text.replaceChildren();
  if (!board) { $("board-ascii").hidden = false; return; }
  // the last move's path (Grid Football): from where the ball was to where it is, lateral leg first
  // unless the call said "after" (forward first)
  const ball = (board.pieces || []).find((p) => p.kind === "ball");
  const now = ball ? [ball.col, ball.row] : null;
  if (now && G.prevBall && (now[0] !== G.prevBall[0] || now[1] !== G.prevBall[1])) {
    const corner = board.forward_first ? [G.prevBall[0], now[1]] : [now[0], G.prevBall[1]];
    G.path = [G.prevBall, corner, now];
  } else if (!now) G.path = null;
  if (now) G.prevBall = now;
  const compact = $("compact").getAttribute("aria-pressed") === "true";
  const svg = drawBoard(board, { zoom: compact ? 0.6 : G.zoom, path: G.path, onMove: (text) => send(text), pathLabel: G.path ? `last move: ${G.path[0]} to ${G.path[2]}` : "" });
  box.appendChild(svg);
  for (const line of board.text || []) {
    const li = document.createElement("li");
    li.textContent = line;
    text.appendChild(li);
  }
}

async function renderSecrets(view) {
  const box = $("secrets");
  box.replaceChildren();
  for (const [seat, digest] of Object.entries(view.commitments || {})) {
    if (seat === G.active.seat) continue;
    const p = document.createElement("p");
    p.className = "commitment";
    p.dataset.seat = seat;
    p.dataset.commitment = digest;
    p.textContent = `${seat} has locked a pick. Commitment (SHA-256): ${digest}`;
    box.appendChild(p);
  }
  const reveals = (view.reveals || []).slice(-3);
  for (const rev of reveals) {
    const key = `${rev.index}`;
    let ok = G.verified.get(key);
    if (ok === undefined) {
      ok = await verifyReveal(rev);
      G.verified.set(key, ok);
      if (ok !== undefined) say("reveal", `${rev.seat} revealed ${rev.choice} — ${ok ? "verified" : ok === null ? "not checked (needs HTTPS)" : "DOES NOT MATCH its commitment"}`, { verified: String(ok) });
    }
    const p = document.createElement("p");
    p.className = "reveal";
    p.dataset.index = key;
    p.dataset.verified = String(ok);
    p.textContent = `${rev.seat} chose ${rev.choice} (nonce ${rev.nonce}); sha256(nonce:choice) = ${rev.commitment.slice(0, 16)}… ${ok ? "✓ verified" : ok === null ? "not checked" : "✗ does not match"}`;
    box.appendChild(p);
  }
}

async function renderMoves(view) {
  const box = $("moves");
  box.replaceChildren();
  const list = $("legal-list");
  list.replaceChildren();
  if (view.outcome) return;
  const mine = (view.expected || []).some((e) => e.seat === G.active.seat);
  if (!mine) {
    box.textContent = "Waiting for " + (view.expected || []).map((e) => e.seat).join(", ");
    return;
  }
  const res = await api(`/api/games/${encodeURIComponent(G.session)}/call`, { method: "POST", token: G.active.token, body: { tool: "legal_actions", args: {} } });
  const legal = res.legal || [];
  for (const text of legal) list.appendChild(new Option(text, text));
  for (const text of legal.slice(0, 48)) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "move";
    b.textContent = text;
    b.dataset.move = text;
    b.onclick = () => send(text);
    box.appendChild(b);
  }
  if (legal.length > 48) box.append(` … ${legal.length - 48} more (type them)`);
}

let sending = false;
async function send(text) {
  if (sending || !text.trim()) return;
  sending = true;
  document.body.dataset.busy = "true";
  try {
    say("player", `${G.active.seat}: ${text}`);
    const body = { text };
    if (!$("referee").hidden) body.referee = $("referee").value;
    const res = await api(`/api/games/${encodeURIComponent(G.session)}/say`, { method: "POST", token: G.active.token, body });
    if (!res.ok) say("error", res.error?.message || "rejected");
    else {
      if (res.narration) say(res.accepted ? "referee" : "referee rejected", res.narration);
      if (res.board && !res.accepted) say("board", res.board);
    }
    await refresh();
  } finally {
    sending = false;
    document.body.dataset.busy = "false";
    document.body.dataset.done = String(Number(document.body.dataset.done || 0) + 1); // tests wait on it
  }
}

// live updates: the server's SSE stream, reconnecting with Last-Event-ID (the browser's own retry),
// and from scratch with a backoff when the stream was closed
function connect() {
  if (G.closed || !G.session || G.view?.outcome) { if (G.view?.outcome) setConn("game over", "over"); return; }
  const session = G.session;
  const primary = G.entries[0];
  const since = (G.view?.log || []).length;
  const src = new EventSource(`/api/games/${encodeURIComponent(session)}/events?access_token=${encodeURIComponent(primary.token)}&since=${since}`);
  G.source = src;
  setConn("connecting…", "connecting");
  src.onopen = () => { G.retry = 0; setConn("live", "live"); };
  src.addEventListener("move", (ev) => {
    const m = JSON.parse(ev.data);
    if (!G.entries.some((e) => e.seat === m.seat)) say("event", `${m.seat}: ${m.move}`, { index: String(m.index) });
  });
  src.addEventListener("reveal", (ev) => {
    const m = JSON.parse(ev.data);
    say("event", `${m.seat} revealed: ${m.move}`);
  });
  src.addEventListener("state", (ev) => {
    const st = JSON.parse(ev.data);
    // the page already shows this position (its own move's answer): nothing to fetch
    if (sending || (G.view && st.moves === (G.view.log || []).length && st.status === G.view.status)) return;
    refresh();
  });
  src.addEventListener("end", () => { src.close(); refresh(); setConn("game over", "over"); });
  src.onerror = () => {
    if (G.source !== src) return;
    if (src.readyState === EventSource.CLOSED) {
      setConn("reconnecting…", "reconnecting");
      G.retry = Math.min(G.retry + 1, 6);
      G.timer = setTimeout(() => { if (G.source === src && !G.closed) connect(); }, 500 * G.retry);
    } else setConn("reconnecting…", "reconnecting");
  };
}

// ------------------------------------------------------------------ transcript viewer
const R = { steps: [], at: 0 };
async function openReplay(ref) {
  closeGame();
  show("replay");
  const [game, name] = ref.split("/").map(decodeURIComponent);
  $("replay-title").textContent = `${game}: ${name}`;
  $("rp-board").replaceChildren();
  $("rp-move").textContent = "loading…";
  delete $("rp-move").dataset.step;
  R.steps = [];
  const res = await api(`/api/transcripts/${encodeURIComponent(game)}/${encodeURIComponent(name)}`);
  if (!res.ok) { $("rp-move").textContent = res.error?.message || "cannot open it"; R.steps = []; return; }
  R.steps = res.steps;
  R.at = 0;
  stepTo(0);
}
function stepTo(i) {
  if (!R.steps.length) return;
  R.at = Math.max(0, Math.min(R.steps.length - 1, i));
  const s = R.steps[R.at];
  $("rp-pos").textContent = `step ${R.at} of ${R.steps.length - 1}: ${s.status}`;
  const move = $("rp-move");
  move.textContent = s.move ? `${s.seat}: ${s.move}` + (s.divergence ? ` — differs from the recording: ${s.divergence}` : "") : "start";
  move.className = s.divergence ? "divergence" : "";
  move.dataset.step = String(R.at);
  const box = $("rp-board");
  box.replaceChildren();
  if (s.board) box.appendChild(drawBoard(s.board, {}));
  $("rp-ascii").textContent = s.ascii || "";
}

// ------------------------------------------------------------------ routing
async function route() {
  const h = location.hash.slice(1);
  const params = new URLSearchParams(h);
  if (params.get("join")) {
    const code = params.get("join");
    history.replaceState(null, "", location.pathname); // the code is used once: drop it from the address
    let res = await api("/api/join", { method: "POST", body: { code } });
    if (!res.ok && res.error?.status === 409 && res.error.practice) {
      // a practice game: join only if the player says yes (the code is still good if they do not)
      if (window.confirm(`${res.error.message}\n\nJoin this practice game anyway?`)) {
        res = await api("/api/join", { method: "POST", body: { code, accept_practice: true } });
      } else { await home(); $("ng-error").textContent = "not joined: the game is a practice game"; return; }
    }
    if (!res.ok) { await home(); $("ng-error").textContent = res.error?.message || "cannot join"; return; }
    keep({ session: res.session, game: res.view.game, seat: res.seat, token: res.token, mode: "friend" });
    location.hash = `#game=${encodeURIComponent(res.session)}`;
    return;
  }
  if (params.get("game")) {
    if (params.get("game") === G.session && !G.closed) return; // already open
    return openGame(params.get("game"));
  }
  if (h.startsWith("replay=")) return openReplay(h.slice(7));
  return home();
}

function wire() {
  // the skip link moves the focus, not the address (the address says which game is open)
  document.querySelector(".skip").addEventListener("click", (ev) => { ev.preventDefault(); $("say-input").focus(); });
  $("new-game").addEventListener("submit", startGame);
  $("say").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("say-input");
    const text = input.value;
    input.value = "";
    send(text);
  });
  $("zoom-in").onclick = () => { G.zoom = Math.min(4, G.zoom * 1.25); if (G.board) renderBoard(G.board); };
  $("zoom-out").onclick = () => { G.zoom = Math.max(0.4, G.zoom / 1.25); if (G.board) renderBoard(G.board); };
  $("compact").onclick = (ev) => {
    const on = ev.target.getAttribute("aria-pressed") !== "true";
    ev.target.setAttribute("aria-pressed", String(on));
    document.body.classList.toggle("compact", on);
    if (G.board) renderBoard(G.board);
  };
  $("ascii-toggle").onclick = (ev) => {
    const on = ev.target.getAttribute("aria-pressed") !== "true";
    ev.target.setAttribute("aria-pressed", String(on));
    $("board-ascii").hidden = !on;
    $("board-svg").hidden = on;
  };
  $("rp-first").onclick = () => stepTo(0);
  $("rp-prev").onclick = () => stepTo(R.at - 1);
  $("rp-next").onclick = () => stepTo(R.at + 1);
  $("rp-last").onclick = () => stepTo(R.steps.length - 1);
  document.addEventListener("keydown", (ev) => {
    if ($("replay").hidden || ev.target.tagName === "INPUT") return;
    if (ev.key === "ArrowRight") stepTo(R.at + 1);
    if (ev.key === "ArrowLeft") stepTo(R.at - 1);
  });
  window.addEventListener("hashchange", route);
}

wire();
route().then(() => { document.body.dataset.ready = "true"; });
window.gm = { G, sha256hex };
