"use strict";
// The compare page: strategies on one Kalah position, the table and a chart of positions.

const compare = { job: null, options: null, loading: null };

function compareOptions() {
  if (!compare.loading) compare.loading = compareLoad();
  return compare.loading;
}

async function compareLoad() {
  try {
    compare.options = await api("/api/kalah/compare/options", {});
  } catch (e) {
    compare.loading = null;
    status("#c-status", e.message, true);
    return;
  }
  const o = compare.options;
  for (const name of o.evaluations) html("option", { value: name }, $("#c-eval"), name);
  for (const s of o.strategies) {
    const label = html("label", { title: s.what }, $("#c-strategies"));
    html("input", { type: "checkbox", value: s.name, checked: "" }, label);
    label.append(` ${s.name}`);
  }
  for (const e of o.engines) {
    const label = html("label", {}, $("#c-engines"));
    const box = html("input", { type: "checkbox", value: e }, label);
    if (e === "numba") box.checked = true;
    label.append(` ${e}`);
  }
}

function compareBody() {
  const checked = (id) => [...document.querySelectorAll(`${id} input:checked`)].map((b) => b.value);
  let game = $("#c-where").value === "game" ? null : { pits: numberField("#c-pits"), seeds: numberField("#c-seeds") };
  if ($("#c-where").value === "game") {
    if (!kalah.pos) throw new ApiError("no game on the Kalah page");
    game = kalahBody();
  }
  return { game, depth: numberField("#c-depth"), eval: $("#c-eval").value, strategies: checked("#c-strategies"), engines: checked("#c-engines") };
}

async function compareRun() {
  if (compare.job) return;
  await compareOptions();
  let body;
  try { body = compareBody(); } catch (e) { status("#c-status", e.message, true); return; }
  $("#c-bar").style.width = "0";
  status("#c-status", "Starting…");
  compare.job = startJob("/api/kalah/compare", body, (p) => {
    if (p.total) $("#c-bar").style.width = `${(100 * p.done) / p.total}%`;
    if (p.stage) status("#c-status", p.total ? `${p.done} of ${p.total} searches; now ${p.stage}` : `${p.stage}…`);
  });
  $("#c-run").disabled = true;
  $("#c-cancel").hidden = false;
  try {
    const r = await compare.job.done;
    $("#c-bar").style.width = "100%";
    compareShow(r);
    status("#c-status", r.agree ? `All exact strategies agree: value ${r.results[0].value_text} for ${r.to_move}.` :
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
  const table = $("#c-table");
  clear(table);
  const head = html("tr", {}, table);
  for (const name of ["strategy", "engine", "value", "positions", "CPU s", "positions/s"]) html("th", { class: name === "strategy" || name === "engine" ? "l" : "" }, head, name);
  for (const row of r.results) {
    const tr = html("tr", {}, table);
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
  pages.compare = { shown: compareOptions };
}
document.addEventListener("DOMContentLoaded", compareInit);
