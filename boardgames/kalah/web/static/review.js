"use strict";
// The review page: kalah review as a job, the evaluation graph, every move's verdict.

const review = { source: null, label: "", job: null, result: null, rows: [], selected: null };

function reviewSource(source, label) {
  review.source = source;
  review.label = label;
  $("#r-source").textContent = label;
  $("#r-start").disabled = false;
}

async function reviewOpen() {
  try {
    const file = await readFile($("#r-open"));
    reviewSource({ text: file.text }, `Record: ${file.name}`);
    status("#r-status", "Ready: run the review.");
  } catch (e) {
    status("#r-status", e.message, true);
  } finally {
    $("#r-open").value = "";
  }
}

function reviewTakeGame() {
  if (!kalah.pos || !kalah.pos.moves.length) {
    status("#r-status", "No game on the Kalah page yet: play a move or open a record there.", true);
    return;
  }
  reviewSource({ game: kalahBody() }, `The game on the Kalah page (${kalah.pos.moves.length} moves).`);
  status("#r-status", "Ready: run the review.");
}

async function reviewStart() {
  if (!review.source || review.job) return;
  review.rows = [];
  review.result = null;
  review.selected = null;
  reviewGraph();
  clear($("#r-table"));
  $("#r-bar").style.width = "0";
  const body = { ...review.source, depth: Number($("#r-depth").value), exact_nodes: Number($("#r-exact").value) };
  status("#r-status", "Starting the review…");
  review.job = startJob("/api/kalah/review", body, (progress) => {
    if (progress.total) $("#r-bar").style.width = `${(100 * progress.done) / progress.total}%`;
    if (progress.stage === "reviewing") status("#r-status", `Reviewing move ${progress.done + 1} of ${progress.total}…`);
    else if (progress.stage) status("#r-status", `${progress.stage[0].toUpperCase()}${progress.stage.slice(1)}…`);
    if (progress.rows && progress.rows.length) {
      const row = progress.rows[0];
      if (!review.rows.length || review.rows[review.rows.length - 1].move < row.move) {
        review.rows.push(row);
        reviewGraph();
      }
    }
  });
  $("#r-start").disabled = true;
  $("#r-cancel").hidden = false;
  try {
    const result = await review.job.done;
    review.result = result;
    review.rows = result.moves;
    const c = result.counts;
    const table = result.endgame_stones ? `endgame table of ${result.endgame_stones} stones` : "no endgame table";
    status("#r-status", `${result.moves.length} moves, ${result.exact_moves} valued exactly; ${c.best} best, ${c.inaccuracy} ` +
      `inaccurac${c.inaccuracy === 1 ? "y" : "ies"}, ${c.mistake} mistake${c.mistake === 1 ? "" : "s"} (${table}, depth ${result.depth}).`);
    $("#r-bar").style.width = "100%";
    reviewGraph();
    reviewTable();
    const worst = result.moves.reduce((a, b) => (b.loss > a.loss ? b : a), result.moves[0]);
    reviewSelect(worst.move);
  } catch (e) {
    status("#r-status", e instanceof Cancelled ? `Review cancelled after ${review.rows.length} moves.` : e.message, !(e instanceof Cancelled));
  } finally {
    review.job = null;
    $("#r-start").disabled = false;
    $("#r-cancel").hidden = true;
  }
}

const VERDICT_COLOUR = { best: "#2e8b57", inaccuracy: "#d4a017", mistake: "#c0392b" };

function reviewGraph() {
  const svg = $("#r-graph");
  clear(svg);
  const w = 900, h = 250, left = 46, right = 16, top = 14, bottom = 30;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const rows = review.rows;
  const n = Math.max(rows.length, review.result ? review.result.moves.length : 0, 1);
  const values = rows.map((r) => r.graph);
  const span = Math.max(4, ...values.map((v) => Math.abs(v)));
  const x = (k) => left + (k * (w - left - right)) / n;
  const y = (v) => top + ((span - v) * (h - top - bottom)) / (2 * span);
  el("rect", { x: left, y: top, width: w - left - right, height: (h - top - bottom) / 2, fill: "#eef5fb" }, svg);
  el("rect", { x: left, y: y(0), width: w - left - right, height: (h - top - bottom) / 2, fill: "#f6f0fa" }, svg);
  el("text", { x: left + 6, y: top + 14, "font-size": 12, fill: "#1f6f9a" }, svg, "A ahead");
  el("text", { x: left + 6, y: h - bottom - 6, "font-size": 12, fill: "#7a4f9a" }, svg, "B ahead");
  el("line", { x1: left, x2: w - right, y1: y(0), y2: y(0), stroke: "#9a9184", "stroke-width": 1 }, svg);
  for (const v of [span, span / 2, -span / 2, -span]) {
    el("text", { x: left - 6, y: y(v) + 4, "font-size": 11, fill: "#8a7f70", "text-anchor": "end" }, svg, (v > 0 ? "+" : "") + Math.round(v));
  }
  const step = Math.max(1, Math.ceil(n / 26));
  for (let k = step; k <= n; k += step) {
    el("text", { x: x(k), y: h - 10, "font-size": 11, fill: "#8a7f70", "text-anchor": "middle" }, svg, String(k));
  }
  if (!rows.length) return;
  const points = [[0, 0], ...rows.map((r) => [r.move, r.graph])];
  el("polyline", { points: points.map(([k, v]) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" "), fill: "none", stroke: "#24463f", "stroke-width": 2 }, svg);
  for (const r of rows) {
    const selected = review.selected === r.move;
    const big = r.verdict !== "best";
    const g = el("g", { class: "point", "data-move": r.move, "data-verdict": r.verdict, style: "cursor:pointer" }, svg);
    el("circle", { cx: x(r.move), cy: y(r.graph), r: 11, fill: "transparent" }, g);
    el("circle", { cx: x(r.move), cy: y(r.graph), r: selected ? 8 : big ? 6.5 : 4, fill: VERDICT_COLOUR[r.verdict],
      stroke: selected ? "#111" : "#fff", "stroke-width": selected ? 2.5 : 1.5 }, g);
    if (r.verdict === "mistake" || selected) {
      el("text", { x: x(r.move), y: y(r.graph) - 12, "font-size": 11, "text-anchor": "middle", fill: "#333", "font-weight": 600 }, g, String(r.move));
    }
    el("title", {}, g, `move ${r.move} (${r.player}: ${r.played.join(" ")}): ${r.verdict}`);
    g.addEventListener("click", () => reviewSelect(r.move));
  }
}

function reviewTable() {
  const table = $("#r-table");
  clear(table);
  const head = html("tr", {}, table);
  for (const name of ["#", "", "played", "after", "best", "loss", "verdict", "how"]) html("th", { class: ["played", "best", "verdict", "how"].includes(name) ? "l" : "" }, head, name);
  for (const r of review.rows) {
    const tr = html("tr", { class: "click" + (review.selected === r.move ? " sel" : ""), "data-move": r.move }, table);
    html("td", {}, tr, String(r.move));
    html("td", {}, tr, r.player);
    html("td", { class: "l" }, tr, r.played.join(" "));
    html("td", {}, tr, r.after_short);
    html("td", { class: "l" }, tr, r.best.join(" "));
    html("td", {}, tr, String(r.loss));
    html("td", { class: `l verdict-${r.verdict}` }, tr, r.verdict);
    html("td", { class: "l" }, tr, r.exact ? "exact" : `d${r.depth}`);
    tr.addEventListener("click", () => reviewSelect(r.move));
  }
}

function reviewSelect(move) {
  const r = review.rows.find((row) => row.move === move);
  if (!r) return;
  review.selected = move;
  reviewGraph();
  reviewTable();
  const pits = review.result ? review.result.pits : (r.board_before.length - 2) / 2;
  $("#r-pos-title").textContent = `Move ${r.move}: ${r.player} played ${r.played.join(" ")} (the position before it)`;
  drawKalah($("#r-board"), r.board_before, pits, { toMove: r.player, highlight: r.played[0] });
  const how = r.exact ? "exact" : `searched ${r.depth} compound moves deep`;
  $("#r-detail").innerHTML = "";
  html("span", { class: `verdict-${r.verdict}` }, $("#r-detail"), `${r.verdict}`);
  $("#r-detail").append(`: value ${r.before_text} before, ${r.after_text} after (for ${r.player}, ${how}); ` +
    (r.loss ? `it lost ${r.loss}; best was ${r.best.join(" ")}.` : "nothing lost."));
  const row = document.querySelector(`#r-table tr[data-move="${move}"]`);
  const wrap = $("#r-table").parentElement;
  if (row && (row.offsetTop < wrap.scrollTop + 30 || row.offsetTop > wrap.scrollTop + wrap.clientHeight - 30)) {
    wrap.scrollTop = row.offsetTop - wrap.clientHeight / 2;  // the page itself does not move
  }
}

function reviewInit() {
  $("#r-open").addEventListener("change", reviewOpen);
  $("#r-take").addEventListener("click", reviewTakeGame);
  $("#r-start").addEventListener("click", reviewStart);
  $("#r-cancel").addEventListener("click", () => { if (review.job) review.job.cancel(); });
  $("#r-start").disabled = true;
  reviewGraph();
}
document.addEventListener("DOMContentLoaded", reviewInit);
