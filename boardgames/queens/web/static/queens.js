"use strict";
// The queens page: the classic backtracking step by step, the solutions, counts.

const queens = { n: 8, steps: [], at: -1, finished: false, timer: null, loading: null, count: null, listed: null };

function queensReset() {
  queensPause();
  try {
    queens.n = numberField("#q-n");
  } catch (e) {
    status("#q-status", e.message, true);
    return;
  }
  queens.steps = [];
  queens.at = -1;
  queens.finished = false;
  queens.loading = null;
  queensShow();
}

function queensChecked() {
  // the N field as it reads now: a bad value stops Step, Play and Next with the field's
  // message (they never run on the N shown before); a new good value starts over
  let n;
  try {
    n = numberField("#q-n");
  } catch (e) {
    queensPause();
    status("#q-status", e.message, true);
    return false;
  }
  if (n !== queens.n) queensReset();
  return true;
}

async function queensFetch() {
  // more steps from the server, 500 at a time, in order
  if (queens.finished) return false;
  if (!queens.loading) {
    const n = queens.n;
    queens.loading = api("/api/queens/steps", { n, start: queens.steps.length, count: 500 }).then((answer) => {
      if (n !== queens.n) return;
      queens.steps.push(...answer.steps);
      queens.finished = answer.finished;
    }).finally(() => { queens.loading = null; });
  }
  try {
    await queens.loading;
  } catch (e) {
    status("#q-status", e.message, true);
    queensPause();
    return false;
  }
  return true;
}

async function queensStep() {
  if (queens.at + 1 >= queens.steps.length) {
    if (queens.finished) { queensPause(); status("#q-status", `The search is over: ${queensSolutions()} solutions.`); return false; }
    await queensFetch();
    if (queens.at + 1 >= queens.steps.length) { queensPause(); return false; }
  }
  queens.at += 1;
  queensShow();
  return true;
}

function queensSolutions(upto = queens.at) {
  let k = 0;
  for (let i = 0; i <= upto && i < queens.steps.length; i++) if (queens.steps[i].op === "solution") k += 1;
  return k;
}

function queensBack() {
  queensPause();
  if (queens.at >= 0) queens.at -= 1;
  queensShow();
}

function queensPlay() {
  if (queens.timer) { queensPause(); return; }
  if (!queensChecked()) return;
  $("#q-play").textContent = "Pause";
  const tick = async () => {
    if (!queens.timer) return;
    const ok = await queensStep();
    if (ok && queens.timer) queens.timer = setTimeout(tick, 1000 / Number($("#q-speed").value));
  };
  queens.timer = setTimeout(tick, 0);
}

function queensPause() {
  if (queens.timer) clearTimeout(queens.timer);
  queens.timer = null;
  $("#q-play").textContent = "Play";
}

async function queensNext() {
  queensPause();
  if (!queensChecked()) return;
  $("#q-next").disabled = true;
  try {
    for (;;) {
      const ok = await queensStep();
      if (!ok || queens.steps[queens.at].op === "solution") break;
    }
  } finally {
    $("#q-next").disabled = false;
  }
}

function queensShow() {
  const n = queens.n;
  const step = queens.at >= 0 ? queens.steps[queens.at] : null;
  const placed = step ? step.queens : [];
  const svg = $("#q-board");
  clear(svg);
  const size = 40, margin = 22, total = n * size + 2 * margin;
  svg.setAttribute("viewBox", `0 0 ${total} ${total}`);
  svg.style.maxWidth = "470px";
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      el("rect", { x: margin + c * size, y: margin + r * size, width: size, height: size, fill: (r + c) % 2 ? "#b58863" : "#f0d9b5" }, svg);
    }
    el("text", { x: margin - 8, y: margin + r * size + size / 2 + 4, "font-size": 11, "text-anchor": "middle", fill: "#8a7f70" }, svg, String(r + 1));
  }
  for (let c = 0; c < n; c++) el("text", { x: margin + c * size + size / 2, y: margin - 7, "font-size": 11, "text-anchor": "middle", fill: "#8a7f70" }, svg, String(c + 1));
  if (step && step.op !== "solution" && placed.length < n) {
    // the squares the placed queens attack in the next row
    const r = placed.length;
    for (let c = 0; c < n; c++) {
      const attacked = step.cols[c] === "1" || step.sums[r + c] === "1" || step.diffs[r - c + n - 1] === "1";
      if (attacked) el("rect", { x: margin + c * size + 3, y: margin + r * size + 3, width: size - 6, height: size - 6, fill: "rgba(192,57,43,0.28)", rx: 4 }, svg);
    }
  }
  placed.forEach((c, r) => {
    const fresh = step && r === step.row && step.op !== "remove";
    const cx = margin + c * size + size / 2, cy = margin + r * size + size / 2;
    el("circle", { cx, cy, r: size * 0.36, fill: step.op === "solution" ? "#2e8b57" : fresh ? "#d08a2e" : "#24463f", stroke: "#fff", "stroke-width": 2 }, svg);
    el("text", { x: cx, y: cy + 6, "font-size": 18, "text-anchor": "middle", fill: "#fff" }, svg, "♛");
  });
  if (step && step.op === "remove") {
    const cx = margin + step.col * size + size / 2, cy = margin + step.row * size + size / 2;
    el("circle", { cx, cy, r: size * 0.34, fill: "none", stroke: "#c0392b", "stroke-width": 2.5, "stroke-dasharray": "4 3" }, svg);
  }
  queensTables(step);
  const found = queensSolutions();
  let text = "The empty board: press Step or Play.";
  if (step) {
    const what = step.op === "place" ? `placed a queen in row ${step.row + 1}, column ${step.col + 1}` :
      step.op === "remove" ? `took back the queen of row ${step.row + 1} (column ${step.col + 1}): backtrack` :
      `solution ${found}: ${step.queens.map((c) => c + 1).join(" ")}`;
    text = `Step ${queens.at + 1}: ${what}.` + (step.op !== "solution" ? ` Solutions so far: ${found}.` : "");
  }
  status("#q-status", text);
  $("#q-back").disabled = queens.at < 0;
}

function queensTables(step) {
  const n = queens.n;
  const box = $("#q-tables");
  clear(box);
  html("div", { class: "note" }, box, step && step.op === "solution" ?
    "A solution: the solver reports it as soon as the last row has a free square, without entering that queen in its tables." :
    "The solver's three tables (orange: busy, a queen is there); red squares: ruled out for the next row.");
  const previous = queens.at > 0 ? queens.steps[queens.at - 1] : null;
  const tables = [
    ["columns", "cols", n, (k) => String(k + 1)],
    ["row+col diagonals", "sums", 2 * n - 1, (k) => String(k)],
    ["row−col diagonals", "diffs", 2 * n - 1, (k) => String(k - n + 1)],
  ];
  for (const [name, key, count, label] of tables) {
    const row = html("div", { class: "qtable" }, box);
    html("span", { class: "name" }, row, name);
    const cells = html("div", { class: "cells" }, row);
    for (let k = 0; k < count; k++) {
      const on = step && step[key][k] === "1";
      const was = previous && previous[key][k] === "1";
      html("span", { class: "cell" + (on ? " on" : "") + (step && on !== Boolean(was) && queens.at > 0 ? " new" : ""), title: `busy ${name}: ${label(k)}` }, cells, label(k));
    }
  }
}

function miniBoard(queensCols, n) {
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", `0 0 ${n} ${n}`);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) el("rect", { x: c, y: r, width: 1, height: 1, fill: (r + c) % 2 ? "#b58863" : "#f0d9b5" }, svg);
  queensCols.forEach((c, r) => el("circle", { cx: c - 0.5, cy: r + 0.5, r: 0.36, fill: "#24463f" }, svg));
  return svg;
}

async function queensList(fundamental) {
  let n;
  try { n = numberField("#q-n"); } catch (e) { $("#q-list-title").textContent = e.message; return; }
  const list = $("#q-list");
  clear(list);
  $("#q-list-title").textContent = "Looking for the solutions…";
  try {
    const answer = await api("/api/queens/solutions", { n, fundamental });
    const kind = fundamental ? "fundamental solutions" : "solutions";
    $("#q-list-title").textContent = `N = ${n}: ${fmt(answer.count)} ${kind}` + (answer.solutions.length < answer.count ? ` (the first ${answer.solutions.length} shown)` : "");
    queens.listed = answer;
    for (const sol of answer.solutions) {
      const item = html("div", { class: "sol", title: sol.queens.join(" ") }, list);
      item.appendChild(miniBoard(sol.queens, n));
      const fixed = sol.fixed_by ? sol.fixed_by.filter((s) => s !== "identity") : [];
      html("div", {}, item, sol.queens.join(" "));
      html("div", {}, item, `class of ${sol.class}` + (fixed.length ? ` (${fixed.join(", ")})` : ""));
    }
    if (!answer.count) html("div", { class: "note" }, list, "No solution on this board.");
  } catch (e) {
    $("#q-list-title").textContent = e.message;
  }
}

async function queensCount() {
  if (queens.count) return;
  let n;
  try { n = numberField("#q-cn"); } catch (e) { status("#q-cstatus", e.message, true); return; }
  $("#q-cbar").style.width = "0";
  status("#q-cstatus", `Counting N = ${n}…`);
  queens.count = startJob("/api/queens/count", { n }, (p) => {
    if (p.expected) {
      $("#q-cbar").style.width = `${Math.min(100, (100 * p.done) / p.expected)}%`;
      status("#q-cstatus", `N = ${n}: ${fmt(p.done)} of ${fmt(p.expected)} solutions counted…`);
    } else if (p.stage) status("#q-cstatus", `${p.stage[0].toUpperCase()}${p.stage.slice(1)}…`);
  });
  $("#q-count").disabled = true;
  $("#q-ccancel").hidden = false;
  try {
    const r = await queens.count.done;
    $("#q-cbar").style.width = "100%";
    status("#q-cstatus", `N = ${r.n}: ${fmt(r.count)} solutions, ${fmt(r.fundamental)} fundamental (${r.method}, ${r.seconds} s).`);
  } catch (e) {
    status("#q-cstatus", e instanceof Cancelled ? "Count cancelled." : e.message, !(e instanceof Cancelled));
  } finally {
    queens.count = null;
    $("#q-count").disabled = false;
    $("#q-ccancel").hidden = true;
  }
}

function queensInit() {
  $("#q-n").addEventListener("change", queensReset);
  $("#q-step").addEventListener("click", () => { queensPause(); if (queensChecked()) queensStep(); });
  $("#q-back").addEventListener("click", queensBack);
  $("#q-play").addEventListener("click", queensPlay);
  $("#q-next").addEventListener("click", queensNext);
  $("#q-all").addEventListener("click", () => queensList(false));
  $("#q-fund").addEventListener("click", () => queensList(true));
  $("#q-count").addEventListener("click", queensCount);
  $("#q-ccancel").addEventListener("click", () => { if (queens.count) queens.count.cancel(); });
  queensReset();
}
document.addEventListener("DOMContentLoaded", queensInit);
