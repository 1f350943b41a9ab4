"use strict";
// The Compare tab: search strategies side by side on one position of any two-player game
// (the start, or the position shown on the Play tab), as a job: the table (value,
// positions, CPU seconds, positions a second), whether the exact strategies agree, and a
// chart of the positions each visited. The strategies and engines are the game's
// (/api/games/{game}/compare/options). Nothing here knows any game.

const compare = { job: null, options: null, game: null, ticket: 0 };

function compareShown() {
  const select = $("#c-game");
  if (!select.options.length) {
    for (const g of play.games) html("option", { value: g.name }, select, g.title);
    if (play.spec) select.value = play.spec.name;
  }
  if (compare.game !== select.value) compareOptions(select.value);
}

async function compareOptions(name) {
  compare.game = name;
  compare.options = null;
  const ticket = ++compare.ticket;  // a later choice's answer wins
  let o;
  try {
    o = await api(`/api/games/${encodeURIComponent(name)}/compare/options`, {});
  } catch (e) {
    if (ticket === compare.ticket) { compare.game = null; status("#c-status", e.message, true); }
    return;
  }
  if (ticket !== compare.ticket) return;
  const box = $("#c-strategies"), engines = $("#c-engines");
  clear(box);
  clear(engines);
  compare.options = o;
  for (const s of o.strategies) {
    const label = html("label", { title: `${s.what} (${s.engines.join(", ")})` }, box);
    const tick = html("input", { type: "checkbox", value: s.name }, label);
    tick.checked = s.exact;  // Monte Carlo (an estimate) when asked for
    label.append(` ${s.name}${s.exact ? "" : " (estimate)"}`);
  }
  for (const e of o.engines) {
    const label = html("label", {}, engines);
    const tick = html("input", { type: "checkbox", value: e }, label);
    tick.checked = o.default_engines.includes(e);
    label.append(` ${e}`);
  }
  $("#c-depth").max = String(o.max_depth);
  $("#c-playouts").max = String(o.max_playouts);
  $("#c-note").textContent = o.engines.includes("numba") && !o.numba_ready ?
    "The numba kernels are not compiled on this machine yet: ticking numba compiles them first (a minute, once)." :
    (o.engines.includes("numba") ? "" : "This game has no numba kernels: the Python engine only.");
  status("#c-status", "");
}

function compareBody() {
  const checked = (id) => [...document.querySelectorAll(`${id} input:checked`)].map((b) => b.value);
  const name = $("#c-game").value;
  const same = play.spec && play.spec.name === name;
  const body = { options: same ? play.options : {}, depth: numberField("#c-depth"),
    playouts: numberField("#c-playouts"), strategies: checked("#c-strategies"), engines: checked("#c-engines") };
  if ($("#c-where").value === "game") {
    if (!same || !play.node) throw new ApiError(`the Play tab shows no ${reviewGameSpec(name).title} game: choose it there, or compare on the start`);
    body.position = play.start || null;
    body.moves = pathOf(play.node);
  }
  return body;
}

async function compareRun() {
  if (compare.job || !compare.options) return;
  let body;
  try { body = compareBody(); } catch (e) { status("#c-status", e.message, true); return; }
  $("#c-bar").style.width = "0";
  status("#c-status", "Starting…");
  const name = $("#c-game").value;
  compare.job = startJob(`/api/games/${encodeURIComponent(name)}/compare`, body, (p) => {
    if (p.total) $("#c-bar").style.width = `${(100 * p.done) / p.total}%`;
    if (p.stage) status("#c-status", p.total ? `${p.done} of ${p.total} searches; now ${p.stage}` : `${p.stage}…`);
  });
  $("#c-run").disabled = true;
  $("#c-cancel").hidden = false;
  try {
    const r = await compare.job.done;
    $("#c-bar").style.width = "100%";
    compareShow(r);
    const exact = r.results.find((x) => x.value_text !== undefined && x.values);
    status("#c-status", r.agree ? (exact ? `All exact strategies agree: value ${exact.value_text} for ${r.to_move}.` : "Done.") :
      `The strategies DISAGREE: ${r.problems.join("; ")}`, !r.agree);
  } catch (e) {
    status("#c-status", e instanceof Cancelled ? "Comparison cancelled." : e.message, !(e instanceof Cancelled));
  } finally {
    compare.job = null;
    $("#c-run").disabled = false;
    $("#c-cancel").hidden = true;
  }
}

function compareShow(r) {
  $("#c-title").textContent = `${r.title}, depth ${r.depth}: ${r.position} (${r.to_move} to move)`;
  const table = $("#c-table");
  clear(table);
  const head = html("tr", {}, table);
  for (const name of ["strategy", "engine", "value", "positions", "CPU s", "positions/s"]) {
    html("th", { class: name === "strategy" || name === "engine" ? "l" : "", scope: "col" }, head, name);
  }
  for (const row of r.results) {
    const tr = html("tr", { "data-strategy": row.strategy, "data-engine": row.engine }, table);
    html("td", { class: "l" }, tr, row.strategy);
    html("td", { class: "l" }, tr, row.engine);
    html("td", {}, tr, row.value_text);
    html("td", {}, tr, fmt(row.nodes));
    html("td", {}, tr, row.seconds.toFixed(3));
    html("td", {}, tr, row.seconds > 0 ? fmt(Math.round(row.nodes / row.seconds)) : "–");
  }
  const svg = $("#c-chart");
  clear(svg);
  const w = 900, barH = 24, left = 190, top = 10;
  const h = top + r.results.length * (barH + 8) + 30;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.style.height = `${h * 0.75}px`;
  const most = Math.max(...r.results.map((x) => x.nodes), 10);
  const scale = (v) => ((w - left - 90) * Math.log10(Math.max(v, 1))) / Math.log10(most);
  for (let p = 1; p <= most; p *= 10) {
    const x = left + scale(p);
    el("line", { x1: x, x2: x, y1: top, y2: h - 22, stroke: "#eee7da" }, svg);
    el("text", { x, y: h - 6, "font-size": 11, "text-anchor": "middle", fill: "#8a7f70" }, svg, p >= 1e6 ? `${p / 1e6}M` : p >= 1e3 ? `${p / 1e3}k` : String(p));
  }
  r.results.forEach((row, k) => {
    const y = top + k * (barH + 8);
    el("text", { x: left - 8, y: y + barH / 2 + 4, "font-size": 13, "text-anchor": "end", fill: "#2b2a27" }, svg, `${row.strategy} (${row.engine})`);
    el("rect", { x: left, y, width: Math.max(2, scale(row.nodes)), height: barH, rx: 4, fill: row.engine === "python" ? "#d08a2e" : "#1f7a6d" }, svg);
    el("text", { x: left + Math.max(2, scale(row.nodes)) + 6, y: y + barH / 2 + 4, "font-size": 12, fill: "#4a463f" }, svg, fmt(row.nodes));
  });
}

function compareInit() {
  $("#c-run").addEventListener("click", compareRun);
  $("#c-cancel").addEventListener("click", () => { if (compare.job) compare.job.cancel(); });
  $("#c-game").addEventListener("change", () => { if ($("#c-game").value !== compare.game) compareOptions($("#c-game").value); });
  pages.compare = { shown: compareShown };
}
document.addEventListener("DOMContentLoaded", compareInit);
