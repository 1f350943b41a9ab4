"use strict";
// The review page: kalah review as a job, the evaluation graph, every move's verdict.

const review = { source: null, label: "", job: null, result: null, rows: [], selected: null };

function reviewSource(source, label) {
  review.source = source;
  review.label = label;
  $("#r-source").textContent = label;
  $("#r-start").disabled = false;
}

// A record is checked when it is chosen (read and replayed by the server): a file that is
// not one is one line at once, and the review already shown stays.
async function reviewOpen() {
  let name = "the file";
  try {
    const file = await readFile($("#r-open"));
    name = file.name;
    const game = await api("/api/kalah/open", { text: file.text });
    if (!game.moves.length) throw new ApiError("the record holds no moves to review");
    reviewSource({ text: file.text }, `Record: ${file.name} (${game.moves.length} moves, ${game.pits} pits × ${game.seeds} stones, ${game.rules} rules)`);
    status("#r-status", "Ready: run the review.");
  } catch (e) {
    status("#r-status", `${name}: ${e.message}`, true);
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
  let settings;
  try {
    settings = { depth: numberField("#r-depth"), exact_nodes: numberField("#r-exact") };
  } catch (e) {
    status("#r-status", e.message, true);
    return;
  }
  review.rows = [];
  review.result = null;
  review.selected = null;
  reviewGraph();
  clear($("#r-table"));
  $("#r-bar").style.width = "0";
  const body = { ...review.source, ...settings };
  status("#r-status", "Starting the review…");
  review.job = startJob("/api/kalah/review", body, (progress) => {
    if (progress.total) $("#r-bar").style.width = `${(100 * progress.done) / progress.total}%`;
    if (progress.stage === "reviewing") status("#r-status", `Reviewing ${progress.done + 1} of ${progress.total} moves…`);
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
    status("#r-status", `${result.moves.length} moves (${result.lines} numbered lines), ${result.exact_moves} valued exactly; ${c.best} best, ${c.inaccuracy} ` +
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
  // x: the record's numbered lines (A's move and B's share a number, as in the move list);
  // y: the value from A's side, above the line A leads. The line starts at the value of
  // the position before the first move.
  const svg = $("#r-graph");
  clear(svg);
  const w = 760, h = 250, left = 44, right = 14, top = 14, bottom = 40;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const rows = review.rows;
  const n = Math.max(rows.length, review.result ? review.result.moves.length : 0, 1);
  const lines = Math.max(review.result ? review.result.lines : 0, rows.length ? rows[rows.length - 1].line : 0, 1);
  const values = rows.flatMap((r) => [r.graph, r.graph_before]);
  const span = Math.max(4, ...values.map((v) => Math.abs(v)));
  const x = (k) => left + (k * (w - left - right)) / n;
  const y = (v) => top + ((span - v) * (h - top - bottom)) / (2 * span);
  const font = 15;
  el("rect", { x: left, y: top, width: w - left - right, height: (h - top - bottom) / 2, fill: "#eef5fb" }, svg);
  el("rect", { x: left, y: y(0), width: w - left - right, height: (h - top - bottom) / 2, fill: "#f6f0fa" }, svg);
  el("text", { x: left + 6, y: top + 17, "font-size": font, fill: "#1f6f9a" }, svg, "A ahead");
  el("text", { x: left + 6, y: h - bottom - 7, "font-size": font, fill: "#7a4f9a" }, svg, "B ahead");
  el("line", { x1: left, x2: w - right, y1: y(0), y2: y(0), stroke: "#9a9184", "stroke-width": 1 }, svg);
  for (const v of [span, span / 2, 0, -span / 2, -span]) {
    el("text", { x: left - 6, y: y(v) + 5, "font-size": font - 1, fill: "#6d6354", "text-anchor": "end" }, svg, (v > 0 ? "+" : "") + Math.round(v));
  }
  // one tick label per numbered line (fewer on long games), under the line's first move
  const firsts = new Map();
  rows.forEach((r, i) => { if (!firsts.has(r.line)) firsts.set(r.line, i + 1); });
  const every = Math.max(1, Math.ceil(lines / 16));
  for (const [line, k] of firsts) {
    if (line % every && line !== 1) continue;
    el("text", { x: x(k), y: h - bottom + 18, "font-size": font - 1, fill: "#6d6354", "text-anchor": "middle" }, svg, String(line));
  }
  el("text", { x: (left + w - right) / 2, y: h - 4, "font-size": font - 2, fill: "#8a7f70", "text-anchor": "middle" }, svg,
    "move number (as in the move list and the record: A's and B's share one)");
  if (!rows.length) return;
  const points = [[0, rows[0].graph_before], ...rows.map((r) => [r.move, r.graph])];
  el("polyline", { points: points.map(([k, v]) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" "), fill: "none", stroke: "#24463f", "stroke-width": 2.5 }, svg);
  el("circle", { class: "start", cx: x(0), cy: y(rows[0].graph_before), r: 4, fill: "#24463f" }, svg);
  for (const r of rows) {
    const selected = review.selected === r.move;
    const big = r.verdict !== "best";
    const g = el("g", { class: "point", "data-move": r.move, "data-verdict": r.verdict, style: "cursor:pointer" }, svg);
    el("circle", { cx: x(r.move), cy: y(r.graph), r: 12, fill: "transparent" }, g);
    el("circle", { cx: x(r.move), cy: y(r.graph), r: selected ? 8 : big ? 6.5 : 4, fill: VERDICT_COLOUR[r.verdict],
      stroke: selected ? "#111" : "#fff", "stroke-width": selected ? 2.5 : 1.5 }, g);
    if (r.verdict === "mistake" || selected) {
      el("text", { x: x(r.move), y: y(r.graph) - 13, "font-size": font, "text-anchor": "middle", fill: "#333", "font-weight": 600 }, g, moveName(r));
    }
    el("title", {}, g, `move ${moveName(r)} (${r.player}: ${r.played.join(" ")}): ${r.verdict}`);
    g.addEventListener("click", () => reviewSelect(r.move));
  }
}

function moveName(r) {
  // the record's numbering: "7" for A's move of line 7, "7…" for B's
  return `${r.line}${r.player === "B" ? "…" : ""}`;
}

function reviewTable() {
  const table = $("#r-table");
  clear(table);
  const head = html("tr", {}, table);
  const titles = { "#": "the move's number in the move list and the record", after: "the value after the move, for its player", loss: "how much worse than the best move, for its player" };
  for (const name of ["#", "", "played", "after", "best", "loss", "verdict", "how"]) {
    html("th", { class: ["played", "best", "verdict", "how"].includes(name) ? "l" : "", title: titles[name] || "" }, head, name === "after" ? "after (mover)" : name);
  }
  for (const r of review.rows) {
    const tr = html("tr", { class: "click" + (review.selected === r.move ? " sel" : ""), "data-move": r.move }, table);
    html("td", {}, tr, moveName(r));
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
  $("#r-pos-title").textContent = `Move ${moveName(r)}: ${r.player} played ${r.played.join(" ")} (the position before it)`;
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
