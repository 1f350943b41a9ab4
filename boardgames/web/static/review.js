"use strict";
// The Review tab: a game of any two-player game reviewed move by move as a job (the game
// on the Play tab, or a record file: a game's own format such as Kalah's .klh, the page's
// records, or the moves of the Play tab's game), the evaluation graph (for the first
// player), every move's verdict, and the position before a move with the move played and
// the best one marked. Nothing here knows any game.

const review = { source: null, job: null, result: null, rows: [], selected: null };

function reviewSource(source, label) {
  review.source = source;
  $("#r-source").textContent = label;
  $("#r-start").disabled = false;
  status("#r-status", "Ready: run the review.");
}

function reviewGameSpec(name) {
  return play.games.find((g) => g.name === name);
}

// The game on the Play tab: its options, start and the line shown, to its end.
function reviewTakeGame() {
  if (!play.spec || !play.node) {
    status("#r-status", "No game on the Play tab yet.", true);
    return;
  }
  const moves = pathOf(lineEnd(play.node));
  if (!moves.length) {
    status("#r-status", "The game on the Play tab has no move yet: play some, or open a record.", true);
    return;
  }
  reviewSource({ game: play.spec.name, options: play.options, position: play.start || null, moves },
    `The game on the Play tab: ${play.spec.title}, ${moves.length} moves.`);
}

// A record is checked when it is chosen (read and replayed by the server): a file that is
// not one is one line at once, and the review already chosen stays.
async function reviewOpen() {
  const input = $("#r-open");
  const file = input.files[0];
  if (!file) return;
  try {
    const text = await recordText(file);
    const desc = await readRecord(text);
    const spec = reviewGameSpec(desc.game);
    if (!spec) throw new ApiError(`there is no game "${String(desc.game).slice(0, 30)}" here`);
    const options = desc.options === null ? (desc.game === (play.spec && play.spec.name) ? play.options : {}) : desc.options;
    const body = { options, position: desc.start || null, moves: desc.moves || [] };
    if (desc.record) body.record = desc.record;
    const pos = await api(`/api/games/${encodeURIComponent(spec.name)}/position`, body);
    if (!pos.moves.length) throw new ApiError("the record holds no moves to review");
    reviewSource({ game: spec.name, options: pos.options, position: pos.position || null, moves: pos.moves.map((m) => m.move) },
      `Record: ${file.name} (${spec.title}, ${pos.moves.length} moves${desc.said ? `; ${desc.said}` : ""}).`);
  } catch (e) {
    status("#r-status", `${file.name}: ${e.message}`, true);
  } finally {
    input.value = "";
  }
}

function reviewSettings() {
  const settings = { seconds: numberField("#r-seconds") };
  if ($("#r-depth").value.trim()) settings.depth = numberField("#r-depth");
  return settings;
}

async function reviewStart() {
  if (!review.source || review.job) return;
  let settings;
  try {
    settings = reviewSettings();
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
  const source = review.source;
  const body = { options: source.options, position: source.position, moves: source.moves, ...settings };
  status("#r-status", "Starting the review…");
  review.job = startJob(`/api/games/${encodeURIComponent(source.game)}/review`, body, (progress) => {
    if (progress.total) $("#r-bar").style.width = `${(100 * progress.done) / progress.total}%`;
    if (progress.stage === "reviewing") status("#r-status", `Reviewing move ${progress.done + 1} of ${progress.total}…`);
    else if (progress.stage) status("#r-status", `${playCapital(progress.stage)}…`);
    const row = progress.rows && progress.rows[0];
    if (row && (!review.rows.length || review.rows[review.rows.length - 1].number < row.number)) {
      review.rows.push(row);
      reviewGraph();
    }
  });
  $("#r-start").disabled = true;
  $("#r-cancel").hidden = false;
  try {
    const result = await review.job.done;
    review.result = result;
    review.rows = result.moves;
    const how = result.depth ? `searched ${result.depth} plies deep` : `${result.seconds} s a move`;
    status("#r-status", `${result.summary} (${how}).`);
    $("#r-bar").style.width = "100%";
    reviewGraph();
    reviewTable();
    const worst = result.moves.reduce((a, b) => (reviewWeight(b) > reviewWeight(a) ? b : a), result.moves[0]);
    reviewSelect(worst.number);
  } catch (e) {
    status("#r-status", e instanceof Cancelled ? `Review cancelled after ${review.rows.length} moves.` : e.message, !(e instanceof Cancelled));
  } finally {
    review.job = null;
    $("#r-start").disabled = false;
    $("#r-cancel").hidden = true;
  }
}

// How bad a move was, to show the worst first: a blunder beats any loss.
function reviewWeight(r) {
  return VERDICT_RANK[r.verdict] * 1e12 + (r.loss || 0);
}

const VERDICT_RANK = { best: 0, inaccuracy: 1, mistake: 2, blunder: 3 };
const GLYPH = { best: "", inaccuracy: "?!", mistake: "?", blunder: "??" };  // as chess players mark them
const VERDICT_COLOUR = { best: "#2e8b57", inaccuracy: "#d4a017", mistake: "#d35400", blunder: "#c0392b" };
const PROVED = 5e8;  // a score beyond this is a finished game's (a proved win or loss)

function reviewNames() {
  const spec = review.result ? reviewGameSpec(review.result.game) : (review.source && reviewGameSpec(review.source.game));
  return spec || (play.spec || { player_names: ["first player", "second player"] });
}

function reviewGraph() {
  // x: the moves (numbered as the Play tab's list), y: the value for the first player,
  // above the line the first player leads; a proved win or loss at the top or the bottom.
  // The line starts at the value of the position before the first move.
  const svg = $("#r-graph");
  clear(svg);
  const w = 760, h = 250, left = 44, right = 14, top = 14, bottom = 40;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const rows = review.rows;
  const spec = reviewNames();
  const first = playerName(0, spec), second = playerName(1, spec);
  $("#r-graph-title").textContent = `Evaluation (for ${first}: above the line ${first} leads)`;
  const n = Math.max(rows.length, review.result ? review.result.moves.length : 0, 1);
  const values = rows.flatMap((r) => [r.after_first, r.before_first]).filter((v) => Math.abs(v) < PROVED);
  const span = Math.max(4, ...values.map((v) => Math.abs(v)));
  const shown = (v) => (Math.abs(v) >= PROVED ? Math.sign(v) * span : v);
  const x = (k) => left + (k * (w - left - right)) / n;
  const y = (v) => top + ((span - shown(v)) * (h - top - bottom)) / (2 * span);
  const font = 15;
  el("rect", { x: left, y: top, width: w - left - right, height: (h - top - bottom) / 2, fill: "#eef5fb" }, svg);
  el("rect", { x: left, y: y(0), width: w - left - right, height: (h - top - bottom) / 2, fill: "#f6f0fa" }, svg);
  el("text", { x: left + 6, y: top + 17, "font-size": font, fill: "#1f6f9a" }, svg, `${playCapital(first)} ahead`);
  el("text", { x: left + 6, y: h - bottom - 7, "font-size": font, fill: "#7a4f9a" }, svg, `${playCapital(second)} ahead`);
  el("line", { class: "zero", x1: left, x2: w - right, y1: y(0), y2: y(0), stroke: "#9a9184", "stroke-width": 1 }, svg);
  for (const v of [span, span / 2, 0, -span / 2, -span]) {
    el("text", { x: left - 6, y: y(v) + 5, "font-size": font - 1, fill: "#6d6354", "text-anchor": "end" }, svg, (v > 0 ? "+" : "") + Math.round(v));
  }
  const every = Math.max(1, Math.ceil(n / 16));
  rows.forEach((r) => {
    if (r.number % every && r.number !== 1) return;
    el("text", { x: x(r.number), y: h - bottom + 18, "font-size": font - 1, fill: "#6d6354", "text-anchor": "middle" }, svg, String(r.number));
  });
  el("text", { x: (left + w - right) / 2, y: h - 4, "font-size": font - 2, fill: "#8a7f70", "text-anchor": "middle" }, svg,
    "move number (as in the Play tab's move list)");
  if (!rows.length) return;
  const points = [[0, rows[0].before_first], ...rows.map((r) => [r.number, r.after_first])];
  el("polyline", { points: points.map(([k, v]) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" "), fill: "none", stroke: "#24463f", "stroke-width": 2.5 }, svg);
  el("circle", { class: "start", cx: x(0), cy: y(rows[0].before_first), r: 4, fill: "#24463f" }, svg);
  for (const r of rows) {
    const selected = review.selected === r.number;
    const big = r.verdict !== "best";
    const g = el("g", { class: "point", "data-move": r.number, "data-verdict": r.verdict, style: "cursor:pointer" }, svg);
    el("circle", { cx: x(r.number), cy: y(r.after_first), r: 12, fill: "transparent" }, g);
    el("circle", { cx: x(r.number), cy: y(r.after_first), r: selected ? 8 : big ? 6.5 : 4, fill: VERDICT_COLOUR[r.verdict],
      stroke: selected ? "#111" : "#fff", "stroke-width": selected ? 2.5 : 1.5 }, g);
    if (r.verdict === "mistake" || r.verdict === "blunder" || selected) {
      el("text", { x: x(r.number), y: y(r.after_first) - 13, "font-size": font, "text-anchor": "middle", fill: "#333", "font-weight": 600 }, g, String(r.number));
    }
    el("title", {}, g, `move ${r.number} (${r.player_name}: ${r.text}): ${r.verdict}`);
    g.addEventListener("click", () => reviewSelect(r.number));
  }
}

function reviewTable() {
  const table = $("#r-table");
  clear(table);
  const head = html("tr", {}, table);
  const titles = { "#": "the move's number in the Play tab's move list", after: "the value after the move, for its player",
    loss: "how much worse than the best move, for its player (→: the result changed)" };
  for (const name of ["#", "player", "played", "after", "best", "loss", "verdict", "how"]) {
    html("th", { class: ["player", "played", "best", "verdict", "how"].includes(name) ? "l" : "", title: titles[name] || "", scope: "col" }, head,
      name === "after" ? "after (mover)" : name);
  }
  for (const r of review.rows) {
    const tr = html("tr", { class: "click" + (review.selected === r.number ? " sel" : ""), "data-move": r.number }, table);
    html("td", {}, tr, String(r.number));
    html("td", { class: `l p${r.player}` }, tr, r.player_name);
    const played = html("td", { class: `l verdict-${r.verdict}` }, tr, r.text);
    if (GLYPH[r.verdict]) html("span", { class: "glyph", title: r.verdict }, played, GLYPH[r.verdict]);
    html("td", {}, tr, r.after_short);
    html("td", { class: "l" }, tr, r.best_text);
    html("td", {}, tr, r.loss === null ? r.change : String(r.loss));
    html("td", { class: `l verdict-${r.verdict}` }, tr, r.verdict);
    html("td", { class: "l" }, tr, r.exact ? "exact" : `depth ${r.depth}`);
    tr.addEventListener("click", () => reviewSelect(r.number));
  }
}

// The position before move `number`, its played move marked (a dashed edge) and the best
// one (green), and what the move lost.
function reviewSelect(number) {
  const r = review.rows.find((row) => row.number === number);
  if (!r) return;
  review.selected = number;
  reviewGraph();
  reviewTable();
  $("#r-pos-title").textContent = `Move ${r.number}: ${r.player_name} played ${r.text} (the position before it)`;
  const host = $("#r-board");
  const root = host.shadowRoot || host.attachShadow({ mode: "open" });
  $("#r-text").hidden = r.svg !== null;
  host.hidden = r.svg === null;
  if (r.svg !== null) {
    root.innerHTML = `<style>${BOARD_STYLE}</style>${r.svg}`;
    for (const node of root.querySelectorAll("[data-move]")) {
      const move = Number(node.getAttribute("data-move"));
      node.classList.toggle("hint", move === r.move);
      node.classList.toggle("best", move === r.best && move !== r.move);
    }
  } else {
    $("#r-text").textContent = r.board;
  }
  const how = r.exact ? "exact" : `searched ${r.depth} plies deep`;
  const detail = $("#r-detail");
  clear(detail);
  html("span", { class: `verdict-${r.verdict}` }, detail, r.verdict);
  const lost = r.loss === null ? `the result changed (${r.change}); best was ${r.best_text}.` :
    r.loss ? `it lost ${r.loss}; best was ${r.best_text}.` : "nothing lost.";
  detail.append(`: value ${r.before_text} before, ${r.after_text} after (for ${r.player_name}, ${how}); ${lost}`);
  const row = document.querySelector(`#r-table tr[data-move="${number}"]`);
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
