"use strict";
// The Nim page: rows of chips, Bouton's strategy or a second person, the binary table.

const nim = { layout: [3, 4, 5], misere: false, opponent: "bouton", pos: null, history: [], hint: null, busy: false };

function nimBody(extra = {}) {
  return { layout: nim.layout, misere: nim.misere, left: nim.pos ? nim.pos.left : nim.layout,
    to_move: nim.pos ? nim.pos.to_move : 0, ...extra };
}

function nimPlayer(k) {
  if (nim.opponent === "person") return `player ${k + 1}`;
  return k === 0 ? "you" : "Bouton";
}

function nimDraw() {
  const svg = $("#n-board");
  clear(svg);
  const p = nim.pos;
  const rows = p.layout.length, most = Math.max(...p.layout);
  const gap = 34, left = 74, rowH = 40;
  const w = left + most * gap + 60, h = rows * rowH + 20;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.style.maxWidth = `${Math.min(780, w * 1.25)}px`;
  const mine = !p.over && (nim.opponent === "person" || p.to_move === 0) && !nim.busy;
  p.layout.forEach((start, r) => {
    const y = 20 + r * rowH + rowH / 2 - 6;
    const hl = nim.hint && nim.hint.row === r;
    if (hl) el("rect", { x: 4, y: y - 18, width: w - 8, height: 36, rx: 8, fill: "#fff4d6" }, svg);
    el("text", { x: 18, y: y + 5, "font-size": 14, fill: "#8a7f70" }, svg, `row ${r + 1}`);
    const left_ = p.left[r];
    for (let k = 0; k < start; k++) {
      const x = left + k * gap;
      const present = k < left_;
      const take = hl && k >= left_ - nim.hint.take && k < left_;
      const chip = el("circle", { cx: x, cy: y, r: 13, class: present && mine ? "chip" : "",
        fill: present ? (take ? "#e76f51" : "#e9c46a") : "none",
        stroke: present ? "#8a5a2e" : "#d8cfbf", "stroke-width": present ? 1.5 : 1.2, "stroke-dasharray": present ? "" : "3 3",
        "data-row": r, "data-chip": k }, svg);
      if (present && mine) {
        chip.addEventListener("click", () => nimTake(r, left_ - k));
        chip.addEventListener("mouseenter", () => { for (const c of svg.querySelectorAll(`circle[data-row="${r}"]`)) if (Number(c.dataset.chip) >= k && Number(c.dataset.chip) < left_) c.classList.add("hover"); });
        chip.addEventListener("mouseleave", () => { for (const c of svg.querySelectorAll("circle.hover")) c.classList.remove("hover"); });
      }
    }
    el("text", { x: left + start * gap + 4, y: y + 5, "font-size": 15, "font-weight": 700, fill: "#3b5b54" }, svg, String(left_));
  });
}

function nimTable() {
  const p = nim.pos, table = $("#n-table");
  clear(table);
  const head = html("tr", {}, table);
  html("th", {}, head, "row");
  html("th", {}, head, "chips");
  for (const c of p.columns) html("th", {}, head, String(c));
  p.left.forEach((count, r) => {
    const tr = html("tr", nim.hint && nim.hint.row === r ? { class: "hl" } : {}, table);
    html("td", {}, tr, String(r + 1));
    html("td", {}, tr, String(count));
    for (const b of p.bits[r]) html("td", { class: b ? "one" : "zero" }, tr, String(b));
  });
  const ones = html("tr", {}, table);
  html("td", { class: "l" }, ones, "ones");
  html("td", {}, ones, "");
  for (const n of p.ones) html("td", {}, ones, String(n));
  const parity = html("tr", {}, table);
  html("td", { class: "l" }, parity, "parity");
  html("td", {}, parity, "");
  for (const n of p.ones) html("td", { class: n % 2 ? "odd" : "even" }, parity, n % 2 ? "odd" : "even");
  $("#n-sum").textContent = p.over ? "" : `nim-sum ${p.nim_sum}: ` + (p.safe ? "every column even, a safe position (the player to move loses against perfect play)" :
    "some column odd: the player to move can win");
}

function nimShow() {
  const p = nim.pos;
  $("#n-title").textContent = `Nim, ${nim.misere ? "misère: whoever takes the last chip loses" : "whoever takes the last chip wins"}`;
  if (p.over) {
    const winner = nimPlayer(p.winner);
    status("#n-status", nim.opponent === "bouton" ? (p.winner === 0 ? "You win! Congratulations." : "Bouton wins.") : `${winner[0].toUpperCase() + winner.slice(1)} wins.`);
  } else {
    status("#n-status", `${nimPlayer(p.to_move)[0].toUpperCase() + nimPlayer(p.to_move).slice(1)} to move.`);
  }
  $("#n-hint").disabled = p.over || nim.busy;
  $("#n-undo").disabled = !nim.history.length || nim.busy;
  nimDraw();
  nimTable();
}

async function nimNew() {
  const rows = $("#n-rows").value.replace(/,/g, " ").split(/\s+/).filter((w) => w).map(Number);
  nim.misere = $("#n-misere").checked;
  nim.opponent = $("#n-opponent").value;
  try {
    const pos = await api("/api/nim/position", { layout: rows, misere: nim.misere, to_move: 0 });
    nim.layout = rows;
    nim.pos = pos;
    nim.history = [];
    nim.hint = null;
    $("#n-said").textContent = "";
    nimShow();
    if (nim.opponent === "bouton" && $("#n-first").value === "1") {
      nim.pos.to_move = 1;
      await nimProgram();
    }
  } catch (e) {
    status("#n-status", e.message, true);
  }
}

async function nimTake(row, take) {
  if (nim.busy) return;
  nim.busy = true;
  try {
    nim.history.push(nim.pos);
    const pos = await api("/api/nim/take", nimBody({ row, take }));
    nim.pos = pos;
    nim.hint = null;
    $("#n-said").textContent = `${nimPlayer(1 - pos.to_move)[0].toUpperCase() + nimPlayer(1 - pos.to_move).slice(1)} took ${take} from row ${row + 1}.`;
  } catch (e) {
    nim.history.pop();
    status("#n-status", e.message, true);
    nim.busy = false;
    return;
  }
  nim.busy = false;
  nimShow();
  if (nim.opponent === "bouton" && !nim.pos.over) {
    nim.busy = true;
    nimShow();
    await sleep(450);
    nim.busy = false;
    await nimProgram();
  }
}

async function nimProgram() {
  try {
    const pos = await api("/api/nim/program", nimBody());
    nim.pos = pos;
    $("#n-said").textContent = pos.said;
  } catch (e) {
    status("#n-status", e.message, true);
  }
  nimShow();
}

async function nimHint() {
  try {
    const answer = await api("/api/nim/hint", nimBody());
    nim.hint = answer.move;
    $("#n-said").textContent = answer.said;
    nimShow();
  } catch (e) {
    status("#n-status", e.message, true);
  }
}

function nimUndo() {
  if (!nim.history.length) return;
  nim.pos = nim.history.pop();
  nim.hint = null;
  $("#n-said").textContent = nim.opponent === "bouton" ? "Took back your last move and Bouton's reply." : "Took back the last move.";
  nimShow();
}

function nimInit() {
  $("#n-new").addEventListener("click", nimNew);
  $("#n-hint").addEventListener("click", nimHint);
  $("#n-undo").addEventListener("click", nimUndo);
  $("#n-random").addEventListener("click", () => {
    const n = 3 + Math.floor(Math.random() * 3);
    $("#n-rows").value = Array.from({ length: n }, () => 1 + Math.floor(Math.random() * 9)).join(" ");
  });
  nimNew();
}
document.addEventListener("DOMContentLoaded", nimInit);
