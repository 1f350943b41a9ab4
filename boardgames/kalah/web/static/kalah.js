"use strict";
// The Kalah page: the page holds the game (setup + sowings); the server replays and checks.

const kalah = {
  setup: null,      // {pits, seeds, rules, first, players, time}
  sowings: [],
  pos: null,        // the server's description of the position
  history: [],      // sowings before each human sowing (undo)
  job: null,        // the program's job while it thinks
  paused: false,
  busy: false,
  generation: 0,    // a new game or an undo makes older answers stale
};

function kalahBody(extra = {}) {
  return { ...kalah.setup, sowings: kalah.sowings, ...extra };
}

function kalahDraw(highlight = null, board = null, ring = null) {
  const p = kalah.pos;
  const human = p.to_move && kalah.setup.players[p.to_move === "A" ? 0 : 1] === "human";
  drawKalah($("#k-board"), board || p.board, p.pits, {
    legal: !kalah.busy && human && !p.over ? p.legal : [],
    highlight,
    ring,
    toMove: p.over ? null : p.to_move,
    names: kalah.setup.players,
    onPit: (pit) => kalahSow(pit, true),
  });
}

function kalahShow() {
  const p = kalah.pos;
  $("#k-title").textContent = `${p.rules} rules, ${p.pits} pits × ${p.seeds} stones`;
  const list = $("#k-moves");
  clear(list);
  let line = null, number = 0;
  for (const move of p.moves) {
    if (move.player === "A" || line === null || number === 0) {
      number += 1;
      line = html("li", {}, list);
    }
    html("span", { class: move.player.toLowerCase() }, line, `${move.player}: ${move.pits.join(" ")}  `);
    if (move.player === "B") line = null;
  }
  list.scrollTop = list.scrollHeight;
  if (p.over) {
    status("#k-status", `Game over. ${p.final.text}.`);
  } else {
    const side = p.to_move;
    const kind = kalah.setup.players[side === "A" ? 0 : 1];
    const who = kind === "human" ? `${side} to move${p.extra_turn ? " again (extra turn)" : ""}: click a pit` :
      `${side} (${kind}) to move`;
    status("#k-status", p.decided ? `${who}. ${p.decided}` : who);
  }
  kalahButtons();
  kalahDraw();
  $("#k-board").dataset.sowings = String(kalah.sowings.length);
}

function kalahButtons() {
  const p = kalah.pos;
  const thinking = kalah.job !== null;
  $("#k-cancel").hidden = !thinking;
  const programToMove = p && !p.over && kalah.setup.players[p.to_move === "A" ? 0 : 1] !== "human";
  $("#k-continue").hidden = !(programToMove && !thinking && kalah.paused);
  $("#k-hint").disabled = thinking || kalah.busy || !p || p.over;
  $("#k-undo").disabled = thinking || kalah.busy || kalah.history.length === 0;
}

async function kalahNew() {
  kalahStop();
  const players = [$("#k-a").value, $("#k-b").value];
  try {
    const setup = {
      pits: numberField("#k-pits"), seeds: numberField("#k-seeds"), rules: $("#k-rules").value,
      first: $("#k-first").value, players, time: numberField("#k-time"),
    };
    const pos = await api("/api/kalah/new", { ...setup, sowings: [] });
    kalah.generation += 1;
    kalah.setup = setup;
    kalah.sowings = [];
    kalah.history = [];
    kalah.pos = pos;
    kalah.paused = false;
    $("#k-said").textContent = "";
    kalahShow();
    kalahNext();
  } catch (e) {
    status("#k-status", e.message, true);
  }
}

function kalahStop() {
  if (kalah.job) { kalah.job.cancel(); kalah.job = null; }
}

async function kalahAnimate(trace, before) {
  const delay = Number($("#k-speed").value);
  if (!delay) return;
  const board = before.slice();
  trace.forEach((change, k) => { change.first = k === 0; });
  for (const change of trace) {
    board[change.hole] = change.count;
    // a stone dropped: gold; a pit picked up to sow: blue; a capture or a sweep: red
    const ring = change.what === "drop" ? "#ffd77a" : change.first || (change.what === "take" && trace[trace.indexOf(change) + 1]?.what === "drop") ? "#8ecae6" : "#e63946";
    kalahDraw(change.hole, board, ring);
    await sleep(change.what === "drop" ? delay : delay * 3);
  }
}

async function kalahSow(pit, human) {
  if (kalah.busy) return;
  kalah.busy = true;
  const generation = kalah.generation;
  const before = kalah.pos.board;
  try {
    if (human) kalah.history.push(kalah.sowings.slice());
    const pos = await api("/api/kalah/sow", kalahBody({ pit }));
    if (generation !== kalah.generation) return;
    await kalahAnimate(pos.trace, before);
    if (generation !== kalah.generation) return;
    kalah.sowings = pos.sowings;
    kalah.pos = pos;
    const last = pos.trace.length ? pos.trace[pos.trace.length - 1].hole : null;
    $("#k-said").textContent = pos.said;
    kalah.busy = false;
    kalahShow();
    kalahDraw(last);
  } catch (e) {
    if (human) kalah.history.pop();
    status("#k-status", e.message, true);
  } finally {
    kalah.busy = false;
    kalahButtons();
  }
  if (human) kalahNext();
}

async function kalahNext() {
  // the program plays while it is to move (and not paused)
  const p = kalah.pos;
  if (!p || p.over || kalah.job || kalah.paused) return;
  const side = p.to_move === "A" ? 0 : 1;
  if (kalah.setup.players[side] === "human") return;
  const generation = kalah.generation;
  status("#k-status", `${p.to_move} (${kalah.setup.players[side]}) is thinking…`);
  kalah.job = startJob("/api/kalah/program", kalahBody(), (progress) => {
    if (progress.depth) status("#k-status", `${p.to_move} is thinking… depth ${progress.depth}, value ${progress.value}, ${fmt(progress.positions)} positions`);
    else if (progress.stage) status("#k-status", `${p.to_move}: ${progress.stage}…`);
  });
  kalahButtons();
  let answer;
  try {
    answer = await kalah.job.done;
  } catch (e) {
    kalah.job = null;
    if (generation !== kalah.generation) return;
    if (e instanceof Cancelled) {
      kalah.paused = true;
      status("#k-status", "The program's move was cancelled.");
    } else {
      kalah.paused = true;
      status("#k-status", e.message, true);
    }
    kalahButtons();
    return;
  }
  kalah.job = null;
  if (generation !== kalah.generation) return;
  $("#k-said").textContent = answer.said;
  status("#k-status", `${p.to_move} sows ${answer.pits.join(" then ")}.`);
  for (const pit of answer.pits) {
    if (generation !== kalah.generation) return;
    await kalahSow(pit, false);
  }
  if (generation !== kalah.generation) return;
  $("#k-said").textContent = answer.said;
  kalahNext();
}

async function kalahHint() {
  if (kalah.job) return;
  status("#k-status", "Looking for a hint…");
  kalah.job = startJob("/api/kalah/hint", kalahBody(), (progress) => {
    if (progress.depth) status("#k-status", `Looking for a hint… depth ${progress.depth}`);
  });
  kalahButtons();
  try {
    const answer = await kalah.job.done;
    $("#k-said").textContent = answer.said;
    kalah.job = null;
    kalahShow();
    kalahDraw(answer.pits[0]);
  } catch (e) {
    kalah.job = null;
    status("#k-status", e instanceof Cancelled ? "Hint cancelled." : e.message, !(e instanceof Cancelled));
    kalahButtons();
  }
}

async function kalahUndo() {
  if (!kalah.history.length || kalah.job || kalah.busy) return;
  const sowings = kalah.history.pop();
  try {
    const pos = await api("/api/kalah/new", { ...kalah.setup, sowings });
    kalah.generation += 1;
    kalah.sowings = sowings;
    kalah.pos = pos;
    kalah.paused = false;
    $("#k-said").textContent = "Took back the last sowing" + (kalah.setup.players.includes("human") && kalah.setup.players.some((k) => k !== "human") ? " and the program's reply." : ".");
    kalahShow();
  } catch (e) {
    status("#k-status", e.message, true);
  }
}

async function kalahDownload() {
  try {
    const answer = await api("/api/kalah/record", kalahBody());
    const blob = new Blob([answer.text], { type: "text/plain" });
    const link = html("a", { href: URL.createObjectURL(blob), download: answer.name });
    document.body.appendChild(link);
    link.click();
    link.remove();
  } catch (e) {
    status("#k-status", e.message, true);
  }
}

async function kalahOpen() {
  kalahStop();
  try {
    const file = await readFile($("#k-open"));
    const pos = await api("/api/kalah/open", { text: file.text });
    kalah.generation += 1;
    kalah.setup = { pits: pos.pits, seeds: pos.seeds, rules: pos.rules, first: pos.first, players: pos.players, time: Number($("#k-time").value) };
    kalah.sowings = pos.sowings;
    kalah.history = [];
    kalah.pos = pos;
    kalah.paused = true;  // an opened game waits: "Let the program move" goes on
    $("#k-pits").value = pos.pits; $("#k-seeds").value = pos.seeds; $("#k-rules").value = pos.rules;
    $("#k-first").value = pos.first; $("#k-a").value = pos.players[0]; $("#k-b").value = pos.players[1];
    $("#k-said").textContent = `Opened ${file.name}: ${pos.moves.length} moves (A: ${pos.record_players[0]}, B: ${pos.record_players[1]}).`;
    kalahShow();
  } catch (e) {
    status("#k-status", e.message, true);
  } finally {
    $("#k-open").value = "";
  }
}

function kalahInit() {
  for (const select of document.querySelectorAll("#kalah select.player")) {
    for (const [value, label] of [["human", "a person"], ["program", "the program (time a move)"],
      ["classic", "classic (depth 5, 1980s)"], ["tseitin", "tseitin (1,000 positions)"], ["rechenberg", "rechenberg (1,000 positions)"]]) {
      html("option", { value }, select, label);
    }
  }
  $("#k-b").value = "program";
  $("#k-new").addEventListener("click", kalahNew);
  $("#k-hint").addEventListener("click", kalahHint);
  $("#k-undo").addEventListener("click", kalahUndo);
  $("#k-cancel").addEventListener("click", () => { kalahStop(); kalah.paused = true; kalahButtons(); });
  $("#k-continue").addEventListener("click", () => { kalah.paused = false; kalahButtons(); kalahNext(); });
  $("#k-download").addEventListener("click", kalahDownload);
  $("#k-open").addEventListener("change", kalahOpen);
  $("#k-review").addEventListener("click", () => { showTab("review"); reviewTakeGame(); });
  kalahNew();
}
document.addEventListener("DOMContentLoaded", kalahInit);
