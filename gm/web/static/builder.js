// gm move builder: lets a player build a move by pointing, from a game's move builder
// (Game.move_builder; schema gm/core/move_builder.schema.json; docs/page.md).  It knows no game: each
// form's parts are chosen step by step (buttons for a choice, a lit piece or square on the board for
// the others), only legal moves can be built, and the finished move is handed to onSend as the game's
// tool call.  A self-contained ES module: no imports, no page globals, no network; the page (app.js)
// and the MCP App view compose it with board.js through a small board adapter:
//   board = {mark(targets, onPick, label), clear()}   (board.js markTargets / clearTargets)

/** A part value's key (as labels and where maps are keyed): a string as it is, else compact JSON. */
export function key(value) {
  return typeof value === "string" ? value : JSON.stringify(value === undefined ? null : value);
}

/** The tool call's arguments: each "$name" of the form's args template replaced by values[name]. */
export function fill(args, values) {
  const out = {};
  for (const [name, template] of Object.entries(args || {})) {
    out[name] = typeof template === "string" && template.startsWith("$") ? (values[template.slice(1)] ?? null) : template;
  }
  return out;
}

/** The call of one listed row: {tool, args, text}. */
export function callOf(form, row) {
  const values = {};
  (form.parts || []).forEach((p, i) => { values[p.name] = row[i]; });
  return { tool: form.tool, args: fill(form.args, values), text: String(row[row.length - 1]) };
}

/** A DOM element: attributes ("class", "onclick"-style listeners, true for a bare attribute; null,
 * undefined and false left out) and children (nodes or text). */
export function element(doc, tag, attrs = {}, ...kids) {
  const node = doc.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of kids) if (kid !== null && kid !== undefined && kid !== false) node.append(kid);
  return node;
}

function labelOf(part, k) {
  return (part.labels && part.labels[k]) || (k === "null" ? "none" : k);
}

/** Choosing the parts of one listed form, in order; only values some legal row still has are offered. */
export class Listed {
  constructor(form, keep = () => true) {
    this.form = form;
    this.parts = form.parts || [];
    this.keep = keep;
    this.chosen = new Map(); // part name -> value key
    this.auto = new Set(); // parts chosen because only one value was left
  }

  rows(upto = this.parts.length) {
    const want = this.parts.slice(0, upto).map((p, i) => [i, p.name]).filter(([, n]) => this.chosen.has(n));
    return (this.form.moves || []).filter((row) => this.keep(row) && want.every(([i, n]) => key(row[i]) === this.chosen.get(n)));
  }

  /** The values of part i left by the choices before it: [{key, value}] in the rows' order. */
  values(i) {
    const seen = new Map();
    for (const row of this.rows(i)) {
      const k = key(row[i]);
      if (!seen.has(k)) seen.set(k, row[i]);
    }
    return [...seen].map(([k, value]) => ({ key: k, value }));
  }

  /** The next part to ask ({part, index, values}), choosing on the way every part with one value left; null when done. */
  next() {
    for (let i = 0; i < this.parts.length; i++) {
      const p = this.parts[i];
      if (this.chosen.has(p.name)) continue;
      const values = this.values(i);
      if (values.length === 1) {
        this.chosen.set(p.name, values[0].key);
        this.auto.add(p.name);
        continue;
      }
      return { part: p, index: i, values };
    }
    return null;
  }

  choose(name, k) {
    const i = this.parts.findIndex((p) => p.name === name);
    for (const p of this.parts.slice(i)) { this.chosen.delete(p.name); this.auto.delete(p.name); }
    this.chosen.set(name, k);
  }

  clearFrom(name) {
    const i = this.parts.findIndex((p) => p.name === name);
    for (const p of this.parts.slice(Math.max(0, i))) { this.chosen.delete(p.name); this.auto.delete(p.name); }
  }

  /** The one row the choices make, once every part is chosen. */
  done() {
    if (this.next() !== null) return null;
    const rows = this.rows();
    return rows.length ? rows[0] : null;
  }

  /** Board targets: the asked part's values and, for the board parts chosen before it, their alternatives. */
  targets(ask) {
    const out = [];
    const upto = ask ? ask.index : this.parts.length;
    for (let i = 0; i <= upto && i < this.parts.length; i++) {
      const p = this.parts[i];
      if (p.input !== "piece" && p.input !== "square") continue;
      if (i < upto && (!this.chosen.has(p.name) || this.auto.has(p.name))) continue;
      for (const { key: k, value } of (i === upto && ask ? ask.values : this.values(i))) {
        const at = (p.where || {})[k];
        if (!at) continue;
        out.push({ kind: p.input, col: at.col, row: at.row, ref: at.ref, value, key: k, part: p.name, now: i === upto,
                   chosen: this.chosen.get(p.name) === k, label: `${p.label}: ${labelOf(p, k)}` });
      }
    }
    return out;
  }
}

/**
 * The builder's UI in root.  opts: {onSend({tool, args, text, form}), board (adapter), document}.
 * update(spec) shows a builder (keeping a half-built move when its form is unchanged); busy(true)
 * while a move is on its way.
 */
export function createBuilder(root, opts = {}) {
  const doc = opts.document || root.ownerDocument || globalThis.document;
  const board = opts.board || { mark() {}, clear() {} };
  const state = { spec: null, formIndex: 0, work: null, busy: false, sig: "" };
  const uid = `gmb${Math.random().toString(36).slice(2, 8)}`;

  const h = (tag, attrs = {}, ...kids) => element(doc, tag, attrs, ...kids);

  const forms = () => (state.spec ? state.spec.forms : []);
  const send = (call, form) => {
    if (state.busy) return;
    state.busy = true;
    render();
    (opts.onSend || (() => {}))({ ...call, form: form.id });
  };

  function newWork(form) {
    if (form.assign) return assignWork(form);
    if (form.sequence) return sequenceWork(form);
    return { kind: "listed", listed: new Listed(form) };
  }

  // ------------------------------------------------------------------ listed forms
  function renderListed(box, form, listed, { onDone, sendLabel } = {}) {
    // a choice that completes a move sends it at once (or adds it), unless the form asks to confirm
    const chose = (name, k) => {
      listed.choose(name, k);
      const row = listed.done();
      if (row && !form.confirm && onDone) onDone(row);
      else render();
    };
    const ask = listed.next();
    const chips = h("p", { class: "gm-chosen" });
    for (const p of listed.parts) {
      if (!listed.chosen.has(p.name) || (ask && listed.parts.indexOf(p) > ask.index)) continue;
      if (listed.auto.has(p.name) && (listed.chosen.get(p.name) === "null" || listed.chosen.get(p.name) === "false")) continue;
      const text = `${p.label}: ${labelOf(p, listed.chosen.get(p.name))}`;
      chips.append(listed.auto.has(p.name) ? h("span", { class: "gm-chip auto" }, text)
        : h("button", { type: "button", class: "gm-chip", title: `change ${p.label.toLowerCase()}`, "aria-label": `${text} (change)`,
            onclick: () => { listed.clearFrom(p.name); render(); } }, text, " ✕"));
    }
    if (chips.childNodes.length) box.appendChild(chips);
    const targets = listed.targets(ask);
    if (targets.length) board.mark(targets, (t) => chose(t.part, t.key), ask ? ask.part.label : form.label);
    else board.clear();
    if (ask) {
      const p = ask.part;
      if (p.input === "choice") {
        const group = h("div", { class: "gm-choices", role: "group", "aria-label": p.label });
        for (const v of ask.values) {
          group.appendChild(h("button", { type: "button", class: "gm-choice", "data-value": v.key,
            onclick: () => chose(p.name, v.key) }, labelOf(p, v.key)));
        }
        if (listed.parts.length > 1) box.append(h("p", { class: "gm-ask" }, `${p.label}:`));
        box.append(group);
        hint("");
      } else {
        const id = `${uid}-${form.id}-${p.name}`;
        const select = h("select", { id, class: "gm-pick", "data-part": p.name,
          onchange: (ev) => { if (ev.target.value) chose(p.name, ev.target.value); } },
        h("option", { value: "" }, `(${ask.values.length} to choose from)`),
        ...ask.values.map((v) => h("option", { value: v.key }, labelOf(p, v.key))));
        box.append(h("p", { class: "gm-ask" }, h("label", { for: id }, `${p.label}: click a lit ${p.input} on the board, or choose `), select));
        hint(`${p.label}: ${ask.values.length} lit on the board.`);
      }
      return null;
    }
    const row = listed.rows()[0];
    if (!row) return null;
    const text = String(row[row.length - 1]);
    box.append(h("p", { class: "gm-summary" }, h("span", { class: "gm-summary-label" }, sendLabel ? "Add: " : "Your move: "), h("strong", {}, text)));
    const actions = h("p", { class: "gm-actions" });
    actions.append(h("button", { type: "button", class: "gm-send", onclick: () => onDone && onDone(row) }, sendLabel || "Send"));
    actions.append(h("button", { type: "button", class: "gm-clear", onclick: () => { listed.clearFrom(listed.parts[0] && listed.parts[0].name); render(); } }, "Start again"));
    box.appendChild(actions);
    hint(`Ready: ${text}. ${sendLabel || "Send"} it, or start again.`);
    return row;
  }

  // ------------------------------------------------------------------ assign forms
  function assignWork(form) {
    const a = form.assign;
    const values = new Map(a.items.map((it) => [it.value, {}]));
    for (const it of a.items) {
      for (const f of a.fields) {
        const opts2 = f.values || (it.choices || {})[f.name] || [];
        if (opts2.length === 1) values.get(it.value)[f.name] = key(opts2[0]);
      }
    }
    return { kind: "assign", values, active: a.items[0].value, review: false };
  }

  function fieldValues(a, f, item) {
    return (f.values || (item.choices || {})[f.name] || []).map((v) => ({ key: key(v), value: v }));
  }

  function assignProblems(form, work) {
    const a = form.assign;
    const missing = [];
    for (const it of a.items) {
      const got = work.values.get(it.value);
      const lacks = a.fields.filter((f) => got[f.name] === undefined).map((f) => f.label.toLowerCase());
      if (lacks.length) missing.push(`${it.value} (${lacks.join(", ")})`);
    }
    const twice = [];
    for (const f of a.fields.filter((f2) => f2.distinct)) {
      const by = new Map();
      for (const it of a.items) {
        const k = work.values.get(it.value)[f.name];
        if (k !== undefined) by.set(k, [...(by.get(k) || []), it.value]);
      }
      for (const [k, who] of by) if (who.length > 1) twice.push(`${k} (${who.join(", ")})`);
    }
    return { missing, twice };
  }

  function assignRows(form, work) {
    const a = form.assign;
    return a.items.map((it) => {
      const row = { [a.key]: it.value };
      for (const f of a.fields) {
        const k = work.values.get(it.value)[f.name];
        const v = fieldValues(a, f, it).find((x) => x.key === k);
        row[f.name] = v ? v.value : null;
      }
      return row;
    });
  }

  function renderAssign(box, form, work) {
    const a = form.assign;
    const squareField = a.fields.find((f) => f.input === "square");
    const setValue = (item, f, k) => {
      const got = work.values.get(item);
      if (f.distinct) for (const [other, vals] of work.values) if (other !== item && vals[f.name] === k) delete vals[f.name];
      got[f.name] = k;
      const lacking = a.items.find((it) => a.fields.some((f2) => work.values.get(it.value)[f2.name] === undefined));
      if (f === squareField && lacking && a.fields.every((f2) => got[f2.name] !== undefined)) work.active = lacking.value;
      render();
    };
    const { missing, twice } = assignProblems(form, work);
    if (work.review) {
      board.clear();
      const list = h("ul", { class: "gm-review" });
      for (const row of assignRows(form, work)) {
        list.appendChild(h("li", {}, a.fields.reduce((text, f) => `${text} · ${labelOf(f, key(row[f.name]))}`, String(row[a.key]))));
      }
      box.append(h("p", { class: "gm-ask" }, `${form.label}: check and send`), list,
        h("p", { class: "gm-actions" },
          h("button", { type: "button", class: "gm-send", onclick: () => send({ tool: form.tool, args: fill(form.args, { rows: assignRows(form, work) }),
            text: assignRows(form, work).map((r) => `${r[a.key]} ${a.fields.map((f) => r[f.name]).join(" ")}`).join(", ") }, form) }, "Send"),
          h("button", { type: "button", class: "gm-back", onclick: () => { work.review = false; render(); } }, "Back")));
      hint("Check your cards and send them.");
      return;
    }
    if (form.help) box.appendChild(h("p", { class: "gm-help" }, form.help));
    const table = h("table", { class: "gm-assign" });
    table.appendChild(h("thead", {}, h("tr", {}, h("th", { scope: "col" }, a.key), ...a.fields.map((f) => h("th", { scope: "col" }, f.label)))));
    const body = h("tbody");
    for (const it of a.items) {
      const got = work.values.get(it.value);
      const active = work.active === it.value;
      const tr = h("tr", { "data-item": it.value, class: active ? "active" : "" });
      const more = it.label.startsWith(it.value) ? it.label.slice(it.value.length).replace(/^[\s:]+/, "") : it.label;
      tr.appendChild(h("th", { scope: "row" }, h("button", { type: "button", class: "gm-item", "aria-pressed": String(active), "aria-label": it.label,
        onclick: () => { work.active = it.value; render(); } }, it.value), more ? h("span", { class: "gm-note", "aria-hidden": "true" }, more) : null));
      for (const f of a.fields) {
        const td = h("td");
        const vals = fieldValues(a, f, it);
        if (f.input === "choice") {
          const group = h("div", { class: "gm-choices", role: "group", "aria-label": `${f.label} for ${it.value}` });
          for (const v of vals) {
            const tone = f.tones && f.tones[v.key];
            group.appendChild(h("button", { type: "button", class: `gm-choice gm-card tone-${tone ?? 5}`, "data-value": v.key,
              "aria-pressed": String(got[f.name] === v.key), title: labelOf(f, v.key), "aria-label": `${v.key}: ${labelOf(f, v.key)}`,
              onclick: () => { work.active = it.value; setValue(it.value, f, v.key); } }, v.key));
          }
          td.appendChild(group);
        } else {
          const used = new Map();
          if (f.distinct) for (const [other, vs] of work.values) if (other !== it.value && vs[f.name] !== undefined) used.set(vs[f.name], other);
          const select = h("select", { "aria-label": `${f.label} for ${it.value}`, "data-field": f.name,
            onchange: (ev) => { if (ev.target.value) { work.active = it.value; setValue(it.value, f, ev.target.value); } } },
          h("option", { value: "" }, "—"),
          ...vals.map((v) => h("option", { value: v.key, selected: got[f.name] === v.key },
            `${labelOf(f, v.key)}${used.has(v.key) ? ` (now ${used.get(v.key)})` : ""}`)));
          td.appendChild(select);
        }
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    table.appendChild(body);
    box.appendChild(table);
    if (squareField) {
      const item = a.items.find((it) => it.value === work.active);
      const holder = new Map(); // square -> the item holding it
      for (const [other, vs] of work.values) if (vs[squareField.name] !== undefined) holder.set(vs[squareField.name], other);
      const others = a.fields.filter((f) => f !== squareField);
      const note = (who) => [who, ...others.map((f) => work.values.get(who)[f.name]).filter((k) => k !== undefined)].join(" ");
      const targets = [];
      for (const v of fieldValues(a, squareField, item)) {
        const at = (squareField.where || {})[v.key];
        if (!at) continue;
        const who = holder.get(v.key);
        if (who !== undefined && who !== work.active) { // taken: shown, not a choice for this item
          targets.push({ kind: "square", col: at.col, row: at.row, value: v.value, key: v.key, taken: true, text: note(who),
                         label: `${labelOf(squareField, v.key)}: ${who}'s` });
          continue;
        }
        targets.push({ kind: "square", col: at.col, row: at.row, value: v.value, key: v.key, chosen: who === work.active,
                       text: who === work.active ? note(who) : undefined,
                       label: `${squareField.label} for ${work.active}: ${labelOf(squareField, v.key)}` });
      }
      board.mark(targets, (t) => { if (!t.taken) setValue(work.active, squareField, t.key); }, `${squareField.label} for ${work.active}`);
    } else board.clear();
    const placed = a.items.length - missing.length;
    const check = h("p", { class: `gm-check${twice.length ? " bad" : ""}`, role: "status" },
      `${placed} of ${a.items.length} ready` + (missing.length ? `; still to choose: ${missing.join("; ")}` : "") +
      (twice.length ? `; used twice: ${twice.join("; ")}` : ""));
    box.appendChild(check);
    const ready = !missing.length && !twice.length;
    box.appendChild(h("p", { class: "gm-actions" },
      h("button", { type: "button", class: "gm-review-btn gm-send", disabled: !ready, onclick: () => { work.review = true; render(); } }, "Review and send"),
      h("button", { type: "button", class: "gm-fill", onclick: () => {
        for (const it of a.items) for (const f of a.fields) {
          const got = work.values.get(it.value);
          if (got[f.name] !== undefined) continue;
          const taken = new Set(f.distinct ? [...work.values.values()].map((vs) => vs[f.name]).filter((k) => k !== undefined) : []);
          const free = fieldValues(a, f, it).find((v) => !taken.has(v.key));
          if (free) got[f.name] = free.key;
        }
        render();
      } }, "Fill the rest"),
      h("button", { type: "button", class: "gm-clear", onclick: () => { state.work = assignWork(form); render(); } }, "Clear")));
    hint(ready ? "Every player has a card and a zone: review and send." : `${work.active}: choose a card and click a lit zone.`);
  }

  // ------------------------------------------------------------------ sequence forms
  function sequenceWork(form) {
    return { kind: "sequence", items: [], sub: 0, listed: null };
  }

  function renderSequence(box, form, work) {
    const seq = form.sequence;
    const onceOf = (sub, row) => {
      const i = (sub.parts || []).findIndex((p) => p.name === seq.once);
      return i < 0 ? null : key(row[i]);
    };
    const order = seq.sort ? seq.sort.order.map(key) : null;
    const rankOf = (item) => {
      if (!order) return 0;
      const sub = seq.forms[item.form];
      const i = (sub.parts || []).findIndex((p) => p.name === seq.sort.part);
      return i < 0 ? order.length : order.indexOf(key(item.row[i]));
    };
    const items = order ? [...work.items].sort((x, y) => rankOf(x) - rankOf(y)) : work.items;
    if (form.help) box.appendChild(h("p", { class: "gm-help" }, form.help));
    const list = h("ol", { class: "gm-seq", "aria-label": `${form.label}: rows` });
    for (const item of items) {
      const text = String(item.row[item.row.length - 1]);
      list.appendChild(h("li", {}, text, " ", h("button", { type: "button", class: "gm-remove", "aria-label": `remove ${text}`,
        onclick: () => { work.items = work.items.filter((x) => x !== item); render(); } }, "✕")));
    }
    if (!items.length) list.appendChild(h("li", { class: "gm-empty" }, "no rows yet (sending now holds)"));
    box.appendChild(list);
    const used = new Set(work.items.map((it) => onceOf(seq.forms[it.form], it.row)).filter((k) => k !== null));
    if (work.items.length < seq.max) {
      const tabs = h("div", { class: "gm-tabs", role: "group", "aria-label": `add a row (${work.items.length + 1} of at most ${seq.max})` });
      seq.forms.forEach((sub, i) => {
        const left = (sub.moves || []).filter((row) => !used.has(onceOf(sub, row))).length;
        tabs.appendChild(h("button", { type: "button", class: "gm-tab", "aria-pressed": String(work.sub === i), disabled: !left,
          onclick: () => { work.sub = i; work.listed = null; render(); } }, sub.label));
      });
      box.append(h("p", { class: "gm-ask" }, `Add row ${work.items.length + 1} (at most ${seq.max}):`), tabs);
      const sub = seq.forms[work.sub];
      if (!work.listed || work.listed.form !== sub) work.listed = new Listed(sub, (row) => !used.has(onceOf(sub, row)));
      const inner = h("div", { class: "gm-sub" });
      box.appendChild(inner);
      renderListed(inner, sub, work.listed, { sendLabel: "Add this row", onDone: (row) => {
        work.items.push({ form: work.sub, row });
        work.listed = null;
        render();
      } });
    } else board.clear();
    const texts = items.map((it) => String(it.row[it.row.length - 1]));
    box.appendChild(h("p", { class: "gm-actions" },
      h("button", { type: "button", class: "gm-send", disabled: work.items.length < seq.min,
        onclick: () => send({ tool: form.tool, args: fill(form.args, { items: texts }), text: texts.join("; ") || "hold" }, form) },
      texts.length ? `Send the ${form.label.toLowerCase()} (${texts.length} row${texts.length > 1 ? "s" : ""})` : `Send: hold (no rows)`)));
  }

  // ------------------------------------------------------------------ the whole builder
  let hintNode = null;
  function hint(text) { if (hintNode) hintNode.textContent = text; }

  function render() {
    root.replaceChildren();
    root.classList.add("gm-builder");
    const spec = state.spec;
    if (!spec) { board.clear(); return; }
    root.appendChild(h("p", { class: "gm-prompt" }, spec.prompt));
    hintNode = h("p", { class: "gm-hint", "aria-live": "polite" });
    const all = forms();
    if (!all.length) {
      board.clear();
      return;
    }
    if (state.busy) {
      board.clear();
      root.appendChild(h("p", { class: "gm-busy", role: "status" }, "Sending…"));
      return;
    }
    const direct = all.filter((f) => f.parts && !f.parts.length);
    const built = all.filter((f) => !(f.parts && !f.parts.length) && !f.typed);
    const typed = all.filter((f) => f.typed);
    if (built.length > 1) {
      const tabs = h("div", { class: "gm-tabs", role: "group", "aria-label": "kind of move" });
      built.forEach((f, i) => tabs.appendChild(h("button", { type: "button", class: "gm-tab", "aria-pressed": String(state.formIndex === i), "data-form": f.id,
        onclick: () => { if (state.formIndex !== i) { state.formIndex = i; state.work = newWork(f); } render(); } }, f.label)));
      root.appendChild(tabs);
    }
    const box = h("div", { class: "gm-form" });
    root.appendChild(box);
    if (built.length) {
      state.formIndex = Math.min(state.formIndex, built.length - 1);
      const form = built[state.formIndex];
      box.dataset.form = form.id;
      if (!state.work) state.work = newWork(form);
      if (state.work.kind === "assign") renderAssign(box, form, state.work);
      else if (state.work.kind === "sequence") renderSequence(box, form, state.work);
      else renderListed(box, form, state.work.listed, { onDone: (row) => send(callOf(form, row), form) });
    } else board.clear();
    if (direct.length) {
      const row = h("p", { class: "gm-direct" });
      for (const f of direct) row.appendChild(h("button", { type: "button", class: "gm-direct-btn", "data-form": f.id,
        onclick: () => send(callOf(f, f.moves[0] || [""]), f) }, f.label));
      root.appendChild(row);
    }
    for (const f of typed) root.appendChild(h("p", { class: "gm-help" }, `${f.label}: ${f.count} moves, too many to point at: type yours.`));
    root.appendChild(hintNode);
  }

  function signature(spec) {
    return spec ? JSON.stringify([spec.seat, spec.decision, spec.forms]) : "";
  }

  return {
    update(spec) {
      const sig = signature(spec);
      const same = sig === state.sig && !state.busy; // a move was sent: what was built is done with
      state.spec = spec;
      state.busy = false;
      if (!same) {
        state.sig = sig;
        state.formIndex = 0;
        state.work = null;
      }
      render();
    },
    busy(on) { state.busy = !!on; render(); },
    reset() { state.work = null; state.formIndex = 0; render(); },
    get spec() { return state.spec; },
  };
}

/** Every listed move of a builder, grouped for a readable list: [{label, rows: [{text, call}]}]. */
export function listMoves(spec) {
  const groups = [];
  for (const form of (spec && spec.forms) || []) {
    if (!form.parts || form.typed) continue;
    const rows = (form.moves || []).map((row) => ({ text: String(row[row.length - 1]), call: callOf(form, row), first: key(row[0]) }));
    if (rows.length > 40 && form.parts.length > 1) {
      const by = new Map();
      for (const r of rows) by.set(r.first, [...(by.get(r.first) || []), r]);
      for (const [k, rs] of by) groups.push({ label: `${form.label}: ${labelOf(form.parts[0], k)}`, rows: rs, form: form.id });
    } else groups.push({ label: form.label, rows, form: form.id });
  }
  return groups;
}
