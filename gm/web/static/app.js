// The gm page: the start page (new game, your games, recorded games), a game (the board, your move
// built by pointing, the table's story and the chat with the referee, secret picks verified, live
// updates) and the recorded-game viewer.  Plain ES modules, no build step; talks to gm serve's /api.
// Nothing here knows a game: the board and the move builder come from the game's own hooks.
import { drawBoard, markTargets, clearTargets, focusBox, drawLegend, drawHand, geometry } from "./board.js";
import { createBuilder, element, listMoves } from "./builder.js";

const $ = (id) => document.getElementById(id);
const STORE = "gm.games";

const el = (tag, attrs = {}, ...kids) => element(document, tag, attrs, ...kids);

// ------------------------------------------------------------------ seat tokens, kept in this browser
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
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (exc) {
    return { ok: false, error: { status: 0, message: `the server did not answer (${exc.message || exc})` } };
  }
  try { return await res.json(); } catch { return { ok: false, error: { status: res.status, message: res.statusText || "no answer" } }; }
}

// ------------------------------------------------------------------ commit / reveal
async function sha256hex(text) {
  const bytes = new TextEncoder().encode(text);
  const hash = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
/** true: the pick and nonce hash to the commitment (and it is the one shown before); false: they do not; null: cannot check here. */
async function verifyReveal(rev, shownBefore) {
  if (!(globalThis.crypto && crypto.subtle)) return null; // not a secure context
  if (shownBefore && shownBefore !== rev.commitment) return false;
  return (await sha256hex(`${rev.nonce}:${rev.choice}`)) === rev.commitment;
}

// ------------------------------------------------------------------ views
function show(which) {
  for (const id of ["start", "game", "replay"]) $(id).hidden = id !== which;
}
function setConn(text, kind = "") {
  const c = $("conn");
  c.textContent = text;
  c.dataset.state = kind;
}

// ------------------------------------------------------------------ the start page
let catalog = [];
async function start() {
  closeGame();
  show("start");
  document.title = "gm: play";
  if (!catalog.length) {
    const cat = await api("/api/catalog");
    catalog = cat.games || [];
    const box = $("ng-games");
    box.replaceChildren();
    catalog.forEach((g, i) => {
      const id = `ng-game-${i}`;
      box.appendChild(el("label", { class: "game-option", for: id },
        el("input", { type: "radio", name: "game", id, value: g.game, checked: i === 0, onchange: () => gameChosen() }),
        el("span", { class: "game-name" }, g.name || g.game, g.default ? el("span", { class: "badge" }, "flagship") : null),
        g.about ? el("span", { class: "game-about" }, g.about) : null));
    });
    await gameChosen();
  }
  await Promise.all([listGames(), listTranscripts()]);
}

function chosenGame() {
  const input = document.querySelector("#ng-games input[name=game]:checked");
  return catalog.find((g) => input && g.game === input.value);
}

async function gameChosen() {
  const g = chosenGame();
  if (!g) return;
  $("ng-seat").replaceChildren(...g.seats.map((s) => new Option(s, s)));
  $("ng-bot").replaceChildren(...g.bots.map((b) => new Option(b === "default" ? "default (the house bot)" : b, b)));
  $("ng-bot").value = g.bots.includes("default") ? "default" : g.bots[0];
  const form = await api(`/api/rules/${encodeURIComponent(g.game)}`);
  if (chosenGame() !== g) return;
  const box = $("ng-rules");
  box.replaceChildren(el("p", { class: "muted" }, "House rules (the server checks them):"));
  box.dataset.game = g.game;
  for (const f of form.fields || []) {
    const id = `rule-${f.name}`;
    let input;
    if (f.enum) {
      input = el("select", {});
      for (const v of f.enum) input.add(new Option(String(v), String(v)));
    } else if (f.type === "boolean") {
      input = el("input", { type: "checkbox" });
      input.checked = !!f.default;
    } else {
      input = el("input", { type: "text", inputmode: f.type === "string" ? "text" : "numeric", size: 8 });
    }
    input.id = id;
    input.name = f.name;
    input.dataset.type = f.type;
    input.dataset.default = JSON.stringify(f.default);
    if (input.type !== "checkbox") input.value = f.default ?? "";
    const bounds = [f.minimum !== undefined ? `from ${f.minimum}` : "", f.maximum !== undefined ? `to ${f.maximum}` : ""].filter(Boolean).join(" ");
    const hint = el("small", { id: `${id}-hint` }, [f.description || "", bounds].filter(Boolean).join("; "));
    input.setAttribute("aria-describedby", hint.id);
    box.appendChild(el("p", { class: "rule" }, el("label", { for: id }, f.name.replaceAll("_", " ")), " ", input, " ", hint));
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
  const g = chosenGame();
  const body = { game: g.game, seat: $("ng-seat").value, opponent: mode === "bot" ? `bot:${$("ng-bot").value}` : "human" };
  const seedText = $("ng-seed").value.trim();
  if (seedText) {
    if (!/^\d+$/.test(seedText)) { $("ng-error").textContent = "the seed is a whole number"; return; }
    body.seed = Number(seedText);
  }
  const rules = houseRules();
  if (Object.keys(rules).length) body.rules = rules;
  $("ng-start").disabled = true;
  const res = await api("/api/games", { method: "POST", body });
  $("ng-start").disabled = false;
  if (!res.ok) {
    const e = res.error || {};
    const message = e.message || "could not create the game";
    $("ng-error").textContent = (e.rule && !message.startsWith(`[${e.rule}]`) ? `[${e.rule}] ` : "") + message;
    return;
  }
  keep({ session: res.session, game: res.game, seat: res.seat, token: res.token, mode });
  let invite = null;
  for (const [name, entry] of Object.entries(res.seats || {})) {
    if (name === res.seat || entry.player !== "human") continue;
    if (mode === "hotseat") {
      if (entry.token) keep({ session: res.session, game: res.game, seat: name, token: entry.token, mode });
      else if (entry.join_code) { // every seat at this screen: take the other seats now
        const joined = await api("/api/join", { method: "POST", body: { code: entry.join_code, ...(res.practice || body.seed !== undefined ? { accept_practice: true } : {}) } });
        if (joined.ok) keep({ session: res.session, game: res.game, seat: joined.seat, token: joined.token, mode });
      }
    } else if (entry.join_url) invite = entry.join_url;
  }
  if (invite) sessionStorage.setItem(`gm.invite.${res.session}`, invite);
  location.hash = `#game=${encodeURIComponent(res.session)}`;
}

async function listGames() {
  const mine = held();
  const ul = $("my-games");
  ul.replaceChildren();
  if (!mine.length) { ul.appendChild(el("li", { class: "muted" }, "None yet: start one.")); return; }
  const res = await api("/api/my-games", { method: "POST", body: { tokens: mine.map((e) => e.token) } });
  const seen = new Set();
  const names = new Map(catalog.map((g) => [g.game, g.name]));
  for (const row of res.games || []) {
    if (!row.ok || seen.has(row.session)) continue;
    seen.add(row.session);
    const state = row.over ? "over" : row.your_turn ? "your move" : "waiting";
    ul.appendChild(el("li", { "data-session": row.session, class: `game-row ${state.replace(" ", "-")}` },
      el("a", { href: `#game=${encodeURIComponent(row.session)}` }, `${names.get(row.game) || row.game}`),
      el("span", { class: `badge ${row.over ? "" : row.your_turn ? "go" : ""}` }, state),
      el("span", { class: "muted small" }, `you play ${row.seat} · ${row.status}`)));
  }
  if (!seen.size) ul.appendChild(el("li", { class: "muted" }, "None yet: start one."));
}

async function listTranscripts() {
  const res = await api("/api/transcripts");
  const ul = $("transcripts");
  ul.replaceChildren();
  for (const t of res.transcripts || []) {
    ul.appendChild(el("li", {}, el("a", { href: `#replay=${encodeURIComponent(t.game)}/${encodeURIComponent(t.name)}` }, t.title || t.name)));
  }
  if (!ul.children.length) ul.appendChild(el("li", { class: "muted" }, "No recorded games on this server."));
}

// ------------------------------------------------------------------ a game
const G = {
  session: null, entries: [], active: null, table: null, told: 0, shown: new Map(), commitSeen: new Map(),
  source: null, retry: 0, timer: null, closed: true, zoom: null, chain: Promise.resolve(), inflight: 0, stale: false,
  svg: null, builder: null, lastFocus: null, announced: new Set(), heard: null, pointing: false, streamNext: 0,
};

function closeGame() {
  G.closed = true;
  if (G.source) G.source.close();
  G.source = null;
  clearTimeout(G.timer);
}

function say(kind, content, extra = {}) {
  const li = el("li", { class: `msg ${kind}`, "data-kind": kind });
  for (const [k, v] of Object.entries(extra)) li.dataset[k] = v;
  if (typeof content === "string") li.textContent = content;
  else li.append(...[].concat(content));
  const chat = $("chat");
  const near = chat.scrollHeight - chat.scrollTop - chat.clientHeight < 60;
  chat.appendChild(li);
  while (chat.children.length > 400) chat.firstChild.remove();
  if (near || kind === "player") chat.scrollTop = chat.scrollHeight;
  return li;
}

const boardAdapter = {
  mark(targets, onPick, label) { if (G.svg) markTargets(G.svg, targets, onPick, { label }); },
  clear() { if (G.svg) clearTargets(G.svg); },
};

async function openGame(session) {
  closeGame();
  G.closed = false;
  G.session = session;
  G.entries = tokensOf(session);
  G.table = null;
  G.told = 0;
  G.streamNext = 0;
  G.shown = new Map();
  G.commitSeen = new Map();
  G.announced = new Set();
  G.heard = null;
  G.zoom = null;
  G.pointing = false;
  G.lastFocus = null;
  $("chat").replaceChildren();
  $("board-svg").replaceChildren();
  if (!G.entries.length) { await start(); $("ng-error").textContent = "you hold no seat of that game in this browser"; return; }
  G.active = G.entries[0];
  $("legend-box").open = !window.matchMedia("(max-width: 820px)").matches; // a phone: the board first, its legend on a tap
  show("game");
  const invite = sessionStorage.getItem(`gm.invite.${session}`);
  $("invite").hidden = !invite;
  $("invite-link").value = invite || "";
  // whether the server has an LLM referee, asked alongside the table (not before it: the board first)
  const refs = api("/api/referees").then((r) => {
    $("referee").hidden = $("referee-label").hidden = !r.llm;
    if (r.llm) $("referee").options[0].textContent = `LLM referee (${r.kind})`;
  }, () => {});
  await refresh();
  connect();
  await refs;
}

function pickActive(table) {
  // hot seat: the seat to act among the ones this page holds
  if (G.entries.length < 2) return false;
  for (const e of table.expected || []) {
    const mine = G.entries.find((x) => x.seat === e.seat);
    if (mine && mine !== G.active) { G.active = mine; return true; }
  }
  return false;
}

/** The table as the server has it now (another seat moved, or the page opened). */
async function refresh() {
  if (!G.session) return;
  G.stale = false;
  await work(async () => {
    const session = G.session;
    let t = await api(`/api/games/${encodeURIComponent(session)}/table?since=${G.told}`, { token: G.active.token });
    if (session !== G.session) return;
    if (!t.ok) { setConn(t.error?.message || "error", "error"); return; }
    if (pickActive(t)) t = await api(`/api/games/${encodeURIComponent(session)}/table?since=${G.told}`, { token: G.active.token });
    if (t.ok && session === G.session) await renderTable(t);
  });
}

/** Whether the event stream heard of a position after the table's (the store's records only grow). */
function newer(heard, table) {
  if (heard.records !== undefined && table.records !== undefined) return heard.records > table.records;
  return heard.moves !== table.moves || heard.status !== table.status;
}

/** Requests of one page go one after another (a move, then the words typed meanwhile). */
function work(fn) {
  G.inflight += 1;
  $("game").setAttribute("aria-busy", "true");
  // what the event stream says from now on is this request's move or newer: compared when it is done
  const run = G.chain.then(() => { G.heard = null; return fn(); }).catch((exc) => say("error", `Something went wrong on this page: ${exc.message || exc}`));
  G.chain = run.finally(() => {
    G.inflight -= 1;
    if (!G.inflight) {
      $("game").setAttribute("aria-busy", "false");
      const behind = G.heard && G.table && newer(G.heard, G.table);
      if ((G.stale || behind) && !G.closed) refresh();
    }
  });
  return run;
}

async function renderTable(t) {
  const before = G.table;
  G.table = t;
  if (t.moves < G.told) takeBack(t.moves);
  await tell(t.story || [], t);
  renderStatus(t);
  renderBoard(t, before);
  renderSecrets(t);
  G.builder.update(t.builder);
  renderMoves(t);
  if (t.outcome && !G.announced.has("over")) {
    G.announced.add("over");
    say("system", `The game is over: ${t.status}`);
    setConn("game over", "over");
  }
}

function takeBack(moves) {
  for (const [index, li] of G.shown) {
    if (index >= moves) {
      li.classList.add("taken-back");
      li.prepend(el("span", { class: "tag" }, "taken back "));
      G.shown.delete(index);
    }
  }
  G.told = moves;
  G.streamNext = moves;
}

function who(seat) {
  return G.entries.some((e) => e.seat === seat) ? (G.entries.length > 1 ? `${seat} (you)` : `You (${seat})`) : seat;
}

async function tell(entries, t) {
  // hot seat: a pick of one of this screen's seats stays hidden while another of them has yet to pick
  // (its commitment is open): the screen is shared
  const latest = new Map(entries.filter((e) => e.index >= 0).map((e) => [e.seat, e.index]));
  const hidden = (e) => G.entries.length > 1 && G.entries.some((x) => x.seat === e.seat) && (t.commitments || {})[e.seat] !== undefined
    && latest.get(e.seat) === e.index && (t.expected || []).some((x) => x.seat !== e.seat && G.entries.some((y) => y.seat === x.seat));
  for (const e of entries) {
    if (e.index === -1) {
      if (e.earlier) say("system", `${e.earlier} earlier moves are not shown.`);
      else if (!G.shown.has(-1) && (e.events || []).length) {
        G.shown.set(-1, say("move opening", [el("span", { class: "who" }, "Before the first move"), eventList(e.events)], { index: "-1" }));
      }
      continue;
    }
    const known = G.shown.get(e.index);
    if (known) {
      if (known.dataset.pending === "true") { // told by the event stream as it happened: its events now
        delete known.dataset.pending;
        G.told = Math.max(G.told, e.index + 1);
        const list = eventList(e.events);
        if (list) known.appendChild(list);
        for (const rev of e.reveals || []) await tellReveal(rev, known);
      }
      continue;
    }
    const move = hidden(e) ? "locked" : e.move;
    const what = move === "locked" ? "a secret pick, locked" : move;
    const li = say("move", [el("span", { class: "who" }, who(e.seat)), ": ", el("span", { class: "what", "data-move": move }, what), eventList(e.events)],
      { index: String(e.index), seat: e.seat });
    G.shown.set(e.index, li);
    G.told = Math.max(G.told, e.index + 1);
    for (const rev of e.reveals || []) await tellReveal(rev, li);
  }
}

function eventList(events) {
  if (!(events || []).length) return null;
  const ul = el("ul", { class: "events" });
  for (const ev of events) ul.appendChild(el("li", { "data-rule": ev.rule || "", "data-kind": ev.kind || "" }, ev.text));
  return ul;
}

async function tellReveal(rev, li) {
  const before = G.commitSeen.get(rev.index);
  const ok = await verifyReveal(rev, before);
  const verdict = ok === true ? "verified ✓: its SHA-256 matches the commitment shown before"
    : ok === null ? "not checked (this page needs HTTPS or localhost to compute SHA-256)"
      : "✗ DOES NOT MATCH the commitment shown before";
  const line = el("p", { class: "reveal", "data-verified": String(ok), "data-seat": rev.seat, "data-index": String(rev.index) },
    `${rev.seat}'s secret pick was ${rev.choice} — ${verdict}`,
    el("span", { class: "proof", title: `sha256("${rev.nonce}:${rev.choice}") = ${rev.commitment}` }, ` (nonce ${rev.nonce.slice(0, 8)}…, SHA-256 ${rev.commitment.slice(0, 8)}…)`));
  li.appendChild(line);
}

function renderStatus(t) {
  $("status").textContent = t.status;
  document.title = `${t.name}: ${t.status}`.slice(0, 120);
  const mine = (t.seats || []).filter((seat) => G.entries.some((e) => e.seat === seat));
  $("game-title").textContent = `${t.name}, you play ${mine.join(" and ")}` + (mine.length > 1 ? ` (now: ${G.active.seat})` : "");
  // a practice game, to every seat (the server's own words when it says them: practice_note)
  const banner = $("practice");
  banner.hidden = !t.practice;
  banner.textContent = t.practice ? (t.practice_note || "practice game: picks and cards are predictable") : "";
  const input = $("say-input");
  const ex = t.examples || [];
  input.placeholder = ex.length ? `e.g. ${ex[0]}` : "a move, or a question";
}

function pointing(t) {
  const b = t.board || {};
  const subSquare = (b.pieces || []).some((p) => p.dx !== undefined);
  const onBoard = (t.builder?.forms || []).some((f) => (f.parts || []).some((p) => p.input !== "choice") || (f.assign?.fields || []).some((x) => x.input === "square")
    || (f.sequence?.forms || []).length);
  return subSquare || onBoard;
}

/**
 * The board's scale when the player has not chosen one: the whole board when it fits with squares big
 * enough to see (to click, when moves are made on it), else as big as that needs, scrolled to the action.
 */
function autoZoom(t, natural) {
  const board = t.board;
  const phone = window.matchMedia("(max-width: 820px)").matches;
  const room = $("game").clientWidth || window.innerWidth;
  const w = (phone ? room : room * 0.6) - 8;
  const h = window.innerHeight * (phone ? 0.58 : 0.74) - 8;
  const sub = (board.pieces || []).some((p) => p.dx !== undefined);
  G.pointing = G.pointing || pointing(t);
  // px a square needs, as a scale: to see it (10), to click it (26), to click one of five pieces in it
  // (34; down to 24 if that shows the whole action)
  const need = (sub ? 34 : G.pointing ? 26 : 10) / natural.cs;
  const least = (sub ? 24 : G.pointing ? 26 : 10) / natural.cs;
  const rows = board.focus && board.focus.rows;
  const action = rows ? h / ((rows[1] - rows[0] + 1) * natural.cs) : need;
  const most = Math.max(1, 48 / natural.cs);
  return Math.max(0.3, Math.min(w / natural.width, most, Math.max(h / natural.height, Math.min(need, Math.max(action, least)))));
}

function renderBoard(t, before) {
  const board = t.board;
  $("board-ascii").textContent = t.ascii || "";
  const box = $("board-svg");
  const text = $("board-text");
  text.replaceChildren();
  if (!board) { box.replaceChildren(); G.svg = null; $("board-ascii").hidden = false; return; }
  const pane = $("board-pane");
  const natural = geometry(board);
  const zoom = G.zoom === null ? autoZoom(t, natural) : G.zoom;
  const svg = drawBoard(board, { zoom });
  box.replaceChildren(svg);
  G.svg = svg;
  for (const line of board.text || []) text.appendChild(el("li", {}, line));
  const legend = $("legend");
  legend.replaceChildren(drawLegend(board, G.pointing ? [{ shape: "target", kind: "target", text: "what you can choose now (click it, or Tab to it and press Enter)" }] : []));
  const hand = drawHand(board);
  $("hand").replaceChildren(...(hand ? [hand] : []));
  // open on the action: the part of the board where it is, kept in view as it moves
  const fb = focusBox(board, svg);
  const scale = zoom;
  if (fb) {
    const key = JSON.stringify(fb);
    const visible = fb.y0 * scale >= pane.scrollTop && fb.y1 * scale <= pane.scrollTop + pane.clientHeight
      && fb.x0 * scale >= pane.scrollLeft && fb.x1 * scale <= pane.scrollLeft + pane.clientWidth;
    if (key !== G.lastFocus || !before) {
      if (!visible || !before) {
        pane.scrollTop = Math.max(0, ((fb.y0 + fb.y1) / 2) * scale - pane.clientHeight / 2);
        pane.scrollLeft = Math.max(0, ((fb.x0 + fb.x1) / 2) * scale - pane.clientWidth / 2);
      }
      G.lastFocus = key;
    }
  }
}

function renderSecrets(t) {
  const box = $("secrets");
  box.replaceChildren();
  for (const [seat, digest] of Object.entries(t.commitments || {})) {
    // the commitment stands for the seat's latest locked pick on the table: remember it for the reveal
    const locked = [...G.shown].filter(([, li]) => li.dataset.seat === seat && li.querySelector(".what")?.dataset.move === "locked").map(([i]) => i);
    if (locked.length) G.commitSeen.set(Math.max(...locked), digest);
    if (seat === G.active.seat || (G.entries.length === 1 && G.entries[0].seat === seat)) continue;
    box.appendChild(el("p", { class: "commitment", "data-seat": seat, "data-commitment": digest },
      `${seat} has locked a secret pick. Its commitment (SHA-256 of a nonce and the pick): `, el("code", {}, digest)));
  }
}

function renderMoves(t) {
  const list = $("legal-list");
  list.replaceChildren(...(t.examples || []).map((x) => new Option(x, x)));
  const groups = listMoves(t.builder);
  const count = groups.reduce((n, g) => n + g.rows.length, 0);
  const typed = (t.builder?.forms || []).filter((f) => !f.parts);
  const box = $("all-moves");
  box.querySelector("summary").textContent = count ? `All legal moves (${count})` : typed.length ? "Your options in short" : "All legal moves";
  box.hidden = !count && !(t.builder?.summary || []).length;
  G.moves = { groups, summary: t.builder?.summary || [] };
  $("moves").replaceChildren();
  if (box.open) fillMoves();
}

/** The list of every legal move, made when it is opened (a reaction turn has hundreds). */
function fillMoves() {
  const box = $("moves");
  if (box.childElementCount || !G.moves) return;
  for (const g of G.moves.groups) {
    const ul = el("ul", { class: "move-list" });
    for (const r of g.rows) {
      ul.appendChild(el("li", {}, el("button", { type: "button", class: "move", "data-move": r.text, onclick: () => sendMove(r.call) }, r.text)));
    }
    box.appendChild(g.rows.length > 12 ? el("details", {}, el("summary", {}, `${g.label} (${g.rows.length})`), ul) : el("div", {}, el("h3", {}, g.label), ul));
  }
  for (const line of G.moves.summary) box.appendChild(el("p", { class: "summary-line" }, line));
}

/** A move built by pointing: the game's tool call, answered with the table. */
function sendMove(call) {
  G.builder.busy(true);
  return work(async () => {
    const session = G.session; // (the move itself is told with the story of the answer)
    const res = await api(`/api/games/${encodeURIComponent(session)}/move`, { method: "POST", token: G.active.token, body: { tool: call.tool, args: call.args, since: G.told } });
    if (session !== G.session) return;
    if (!res.ok) { say("error", res.error?.message || "the move was not sent"); G.builder.busy(false); return; }
    if (res.reply) tellReply(res.reply);
    await afterAnswer(res.table);
  });
}

/** Words for the referee: a move in the game's words, or a question.  A language model's narration is
 * shown as it is written (the answer streams), the rest when the answer is in. */
function sendWords(text) {
  const li = say("player", [el("span", { class: "who" }, who(G.active.seat)), `: ${text}`]);
  li.classList.add("pending");
  return work(async () => {
    li.classList.remove("pending");
    $("chat").appendChild(li); // said now: after what happened while it waited
    const session = G.session;
    const body = { text, since: G.told };
    const llm = !$("referee").hidden && $("referee").value === "llm";
    if (!$("referee").hidden) body.referee = $("referee").value;
    const path = `/api/games/${encodeURIComponent(session)}/say`;
    let live = null;
    const res = llm
      ? await streamSay(path, G.active.token, body, (piece) => {
        if (!live) { live = say("referee", ""); live.setAttribute("aria-busy", "true"); }
        live.textContent += piece;
      })
      : await api(path, { method: "POST", token: G.active.token, body });
    if (live) live.setAttribute("aria-busy", "false");
    if (session !== G.session) return;
    if (!res.ok) { say("error", res.error?.message || "not sent"); return; }
    if (res.reply && live) { // the streamed narration is the reply: styled as what it turned out to be
      live.replaceWith(replyItem(res.reply));
    } else if (res.reply) tellReply(res.reply);
    else if (live) live.remove(); // (the story tells it)
    await afterAnswer(res.table);
  });
}

/** POST words asking for the narration as it is written (server-sent delta events, then the result);
 * a server that answers with plain JSON is read as such. */
async function streamSay(path, token, body, onDelta) {
  let res;
  try {
    res = await fetch(path, { method: "POST", body: JSON.stringify(body),
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "text/event-stream" } });
  } catch (exc) {
    return { ok: false, error: { status: 0, message: `the server did not answer (${exc.message || exc})` } };
  }
  if (!(res.headers.get("content-type") || "").includes("text/event-stream") || !res.body) {
    try { return await res.json(); } catch { return { ok: false, error: { status: res.status, message: res.statusText || "no answer" } }; }
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let result = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let name = "message", data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) name = line.slice(6).trim();
        else if (line.startsWith("data:")) data += line.slice(5).trimStart();
      }
      if (!data) continue;
      if (name === "delta") onDelta(JSON.parse(data).text || "");
      else if (name === "result") result = JSON.parse(data);
      else if (name === "error") result = { ok: false, error: JSON.parse(data) };
    }
  }
  return result || { ok: false, error: { message: "the answer ended before its result" } };
}

async function afterAnswer(t) {
  if (!t || !t.ok) return;
  const switched = pickActive(t);
  await renderTable(t);
  if (switched) G.stale = true; // hot seat: show the seat to act its own table next
}

function replyItem(reply) {
  const kind = reply.kind === "error" ? "error" : reply.kind === "narration" ? "referee" : "answer";
  const li = el("li", { class: `msg ${kind}`, "data-kind": kind, "data-rule": reply.rule }, reply.text);
  if (reply.legal && reply.legal.length) li.append(el("span", { class: "legal" }, ` You can: ${reply.legal.join(", ")}${reply.more ? ` … and ${reply.more} more` : ""}.`));
  if (reply.board) li.append(el("pre", { class: "board-text" }, reply.board));
  return li;
}

function tellReply(reply) {
  const chat = $("chat");
  chat.appendChild(replyItem(reply));
  chat.scrollTop = chat.scrollHeight;
}

// live updates: the server's event stream (another seat moved) -> the table since what the page told
function connect() {
  if (G.closed || !G.session) return;
  if (G.table?.outcome) { setConn("game over", "over"); return; }
  const session = G.session;
  const primary = G.entries[0];
  const src = new EventSource(`/api/games/${encodeURIComponent(session)}/events?access_token=${encodeURIComponent(primary.token)}&since=${G.told}`);
  G.source = src;
  setConn("connecting…", "connecting");
  src.onopen = () => { G.retry = 0; setConn("live", "live"); };
  // another seat moved: told at once (its events follow with the table), as the stream says it
  src.addEventListener("move", (ev) => {
    const m = JSON.parse(ev.data);
    // (only the next move after those told: the table tells any gap; G.told stays the story's count)
    if (G.shown.has(m.index) || m.index !== Math.max(G.told, G.streamNext)) return;
    const what = m.move === "locked" ? "a secret pick, locked" : m.move;
    const li = say("move", [el("span", { class: "who" }, who(m.seat)), ": ", el("span", { class: "what", "data-move": m.move }, what)],
      { index: String(m.index), seat: m.seat, pending: "true" });
    G.shown.set(m.index, li);
    G.streamNext = m.index + 1;
  });
  // another seat moved: fetch the table, unless the page already shows that position (its own move's
  // answer) or is waiting for an answer that will (then it looks again once the answer is in)
  src.addEventListener("state", (ev) => {
    G.heard = JSON.parse(ev.data);
    if (G.inflight) return;
    if (!G.table || newer(G.heard, G.table)) refresh();
  });
  src.addEventListener("end", (ev) => {
    src.close();
    G.heard = { ...JSON.parse(ev.data), status: null };
    if (!G.inflight && (!G.table || !G.table.outcome || newer(G.heard, G.table))) refresh();
    setConn("game over", "over");
  });
  src.onerror = () => {
    if (G.source !== src) return;
    setConn("reconnecting…", "reconnecting");
    if (src.readyState === EventSource.CLOSED) {
      G.retry = Math.min(G.retry + 1, 6);
      G.timer = setTimeout(() => { if (G.source === src && !G.closed) connect(); }, 500 * G.retry);
    }
  };
}

// ------------------------------------------------------------------ the recorded-game viewer
const R = { steps: [], at: 0 };
async function openReplay(ref) {
  closeGame();
  show("replay");
  const [folder, name] = ref.split("/").map(decodeURIComponent);
  $("replay-title").textContent = `${folder}: ${name}`;
  $("rp-board").replaceChildren();
  $("rp-move").textContent = "loading…";
  delete $("rp-move").dataset.step;
  R.steps = [];
  const res = await api(`/api/transcripts/${encodeURIComponent(folder)}/${encodeURIComponent(name)}`);
  if (!res.ok) { $("rp-move").textContent = res.error?.message || "cannot open it"; return; }
  $("replay-title").textContent = res.title || `${folder}: ${name}`;
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
  if (params.get("join")) return join(params.get("join"));
  if (params.get("game")) {
    if (params.get("game") === G.session && !G.closed) return; // already open
    return openGame(params.get("game"));
  }
  if (h.startsWith("replay=")) return openReplay(h.slice(7));
  return start();
}

async function join(code) {
  history.replaceState(null, "", location.pathname); // a code is used once: not in the address bar
  let res = await api("/api/join", { method: "POST", body: { code } });
  if (!res.ok && res.error?.status === 409 && res.error.practice) {
    // a practice game: join only if the player says yes (the code is still good if they do not)
    if (window.confirm(`${res.error.message}\n\nJoin this practice game anyway?`)) {
      res = await api("/api/join", { method: "POST", body: { code, accept_practice: true } });
    } else {
      await start();
      $("ng-error").textContent = "not joined: the game is a practice game";
      return;
    }
  }
  if (res.ok) {
    keep({ session: res.session, game: res.view?.game || res.game, seat: res.seat, token: res.token, mode: "friend" });
    location.hash = `#game=${encodeURIComponent(res.session)}`;
    return;
  }
  await start();
  $("ng-error").textContent = res.error?.message || "cannot join";
}

function wire() {
  document.querySelector(".skip").addEventListener("click", (ev) => {
    ev.preventDefault();
    const target = !$("game").hidden ? ($("builder").querySelector("button, select") || $("say-input")) : $("main");
    target.focus();
  });
  $("new-game").addEventListener("submit", startGame);
  $("say").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("say-input");
    const text = input.value.trim();
    if (!text) return;
    if (text.length > 500) { say("error", "A message has at most 500 characters."); return; }
    input.value = "";
    sendWords(text);
  });
  const rezoom = (z) => { G.zoom = z; if (G.table) renderBoard(G.table, G.table); };
  $("zoom-in").onclick = () => rezoom(Math.min(4, (G.svg ? G.svg.width.baseVal.value / G.svg.viewBox.baseVal.width : 1) * 1.25));
  $("zoom-out").onclick = () => rezoom(Math.max(0.3, (G.svg ? G.svg.width.baseVal.value / G.svg.viewBox.baseVal.width : 1) / 1.25));
  $("zoom-fit").onclick = () => { G.lastFocus = null; rezoom(null); };
  $("ascii-toggle").onclick = (ev) => {
    const on = ev.currentTarget.getAttribute("aria-pressed") !== "true";
    ev.currentTarget.setAttribute("aria-pressed", String(on));
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
  G.builder = createBuilder($("builder"), { board: boardAdapter, onSend: (call) => sendMove(call) });
  $("all-moves").addEventListener("toggle", () => { if ($("all-moves").open) fillMoves(); });
  window.addEventListener("hashchange", route);
}

wire();
route();
