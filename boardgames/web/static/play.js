"use strict";
// The Play tab: every registered two-player game, built from the server's list of games
// (/api/games): its options form, the board the server draws (its SVG, where each legal
// move is an element with data-move), the moves, the program's move, hint and analysis.
// The page holds the game (options, start, moves); the server replays and checks it.
// Nothing here knows any game.

const play = {
  games: [],        // the two-player games of /api/games
  spec: null,       // the chosen game's entry
  options: {},      // the option values of the game on the board (as the server read them)
  start: "",        // its starting position (text; empty: the start)
  moves: [],        // the protocol moves played since
  pos: null,        // the server's description of the position
  job: null,        // {kind, handle} while the program thinks
  paused: false,    // the program waits (after a Cancel) until asked to move
  busy: false,      // a move is on its way to the server
  keyboard: false,  // the last move was played from the keyboard: keep the focus on the board
  hint: null,       // a move to mark on the board
  generation: 0,    // a new game or an undo makes older answers stale
};

// The board's own stylesheet: the SVG lives in a shadow root, so that its styles and the
// page's do not mix.
const BOARD_STYLE = `
:host { display: block; }
svg { display: block; margin: 0 auto; max-width: 100%; height: auto; }
.playable { cursor: pointer; }
.playable:hover { filter: brightness(1.12); }
.playable:focus { outline: 3px solid #1f7a6d; outline-offset: 2px; }
.playable:focus:not(:focus-visible) { outline: none; }
.hint { outline: 3px dashed #2dc653; outline-offset: 3px; filter: drop-shadow(0 0 4px #2dc653); }
`;

function playUrl(what) {
  return `/api/games/${encodeURIComponent(play.spec.name)}/${what}`;
}

function playBody(extra = {}) {
  return { options: play.options, position: play.start || null, moves: play.moves, ...extra };
}

function playSides() {
  return [$("#g-side0").value, $("#g-side1").value];
}

function playCapital(words) {
  return words ? words[0].toUpperCase() + words.slice(1) : words;
}

// A player's name for a sentence (as the server words it): "A", "player 1".
function playerName(k) {
  const name = play.spec.player_names[k];
  return /^\d+$/.test(name) ? `player ${name}` : name;
}

function optionText(name, value) {
  const label = name.replace(/_/g, " ");
  if (typeof value === "boolean") return `${label} ${value ? "on" : "off"}`;
  return `${label} ${Array.isArray(value) ? value.join(" ") : value}`;
}

// --- the options form, from the game's options -------------------------------------------

function playField(option, box) {
  const id = `g-opt-${option.name}`;
  const label = html("label", { for: id }, box);
  let range = "";
  if (option.low !== null && option.high !== null) range = ` (${option.low}–${option.high}${option.kind === "ints" ? " each" : ""})`;
  if (option.kind === "bool") {
    label.classList.add("inline");
    const box_ = html("input", { id, type: "checkbox", "data-option": option.name }, label);
    box_.checked = Boolean(option.default);
    label.append(` ${option.help}`);
    return;
  }
  html("span", {}, label, playCapital(option.help) + range);
  if (option.kind === "choice") {
    const select = html("select", { id, "data-option": option.name }, label);
    for (const choice of option.choices) html("option", { value: choice }, select, choice);
    select.value = option.default;
  } else if (option.kind === "int") {
    const attrs = { id, type: "number", step: "1", "data-option": option.name, value: String(option.default) };
    if (option.low !== null) attrs.min = String(option.low);
    if (option.high !== null) attrs.max = String(option.high);
    html("input", attrs, label);
  } else {
    const shown = Array.isArray(option.default) ? option.default.join(" ") : String(option.default);
    html("input", { id, "data-option": option.name, value: shown, autocomplete: "off" }, label);
  }
}

function playReadOptions() {
  const values = {};
  for (const input of document.querySelectorAll("#g-options [data-option]")) {
    values[input.dataset.option] = input.type === "checkbox" ? input.checked : input.value.trim();
  }
  return values;
}

function playChoose(name) {
  playStop();
  play.spec = play.games.find((g) => g.name === name) || play.games[0];
  const spec = play.spec;
  $("#g-game").value = spec.name;
  $("#g-summary").textContent = spec.summary;
  const box = $("#g-options");
  clear(box);
  for (const option of spec.options) playField(option, box);
  $("#g-side0-label").textContent = `${playCapital(playerName(0))} (moves first)`;
  $("#g-side1-label").textContent = playCapital(playerName(1));
  const example = spec.examples.find((e) => e.trim());
  $("#g-start").value = "";
  $("#g-start").placeholder = example ? `the start, or e.g. ${example}` : "the start";
}

// --- a game: new, a move, undo --------------------------------------------------------------

async function playNew() {
  playStop();
  const options = playReadOptions();
  const start = $("#g-start").value.trim();
  try {
    const pos = await api(playUrl("position"), { options, position: start || null, moves: [] });
    play.generation += 1;
    play.options = pos.options;
    play.start = start;
    play.moves = [];
    play.paused = false;
    play.hint = null;
    play.pos = pos;
    $("#g-said").textContent = "";
    clear($("#g-analysis"));
    playShow();
    playNext();
  } catch (e) {
    status("#g-status", e.message, true);
  }
}

async function playMove(body, keyboard = false) {
  if (play.busy || play.job || !play.pos || play.pos.over) return;
  play.busy = true;
  play.keyboard = keyboard;
  const generation = play.generation;
  try {
    const pos = await api(playUrl("move"), playBody(body));
    if (generation !== play.generation) return;
    play.moves = pos.moves.map((m) => m.move);
    play.pos = pos;
    play.hint = null;
    const last = pos.moves[pos.moves.length - 1];
    $("#g-said").textContent = `${playCapital(playerName(last.player))} played ${last.text}.`;
    clear($("#g-analysis"));
    $("#g-move").value = "";
  } catch (e) {
    status("#g-status", e.message, true);
    return;
  } finally {
    play.busy = false;
  }
  playShow();
  playNext();
}

async function playUndo() {
  if (!play.pos || !play.moves.length || play.busy) return;
  playStop();
  const sides = playSides();
  const made = play.pos.moves;
  let keep = -1;
  for (let i = made.length - 1; i >= 0; i--) {
    if (sides[made[i].player] === "human") { keep = i; break; }
  }
  const person = keep >= 0;
  if (!person) keep = made.length - 1;  // no move of a person: take back the last one
  const moves = play.moves.slice(0, keep);
  try {
    const pos = await api(playUrl("position"), playBody({ moves }));
    play.generation += 1;
    play.moves = moves;
    play.pos = pos;
    play.hint = null;
    play.paused = !person;  // else the program would play its move again at once
    $("#g-said").textContent = person && keep < made.length - 1 ? "Took back your last move and the program's reply." : "Took back the last move.";
    clear($("#g-analysis"));
    playShow();
  } catch (e) {
    status("#g-status", e.message, true);
  }
}

// --- the program: its move, a hint, an analysis (jobs with Cancel) --------------------------

function playNext() {
  const p = play.pos;
  if (!p || p.over || play.job || play.paused) return;
  if (playSides()[p.to_move] !== "program") return;
  playThink("program");
}

async function playThink(kind) {
  const p = play.pos;
  if (!p || p.over || play.job || play.busy) return;
  const generation = play.generation;
  const who = `${playCapital(p.player)}`;
  const doing = { program: `${who} (the program) is thinking`, hint: "Looking for a hint", analyse: "Analysing the moves" }[kind];
  status("#g-status", `${doing}…`);
  const handle = startJob(playUrl(kind), playBody({ level: $("#g-level").value }), (progress) => {
    if (progress.stage && generation === play.generation) status("#g-status", `${doing}: ${progress.stage}…`);
  });
  play.job = { kind, handle };
  playShow();
  let answer;
  try {
    answer = await handle.done;
  } catch (e) {
    if (play.job && play.job.handle === handle) play.job = null;
    if (generation !== play.generation) return;
    if (e instanceof Cancelled) {
      if (kind === "program") play.paused = true;
      playShow();
      status("#g-status", kind === "program" ? "The program's move was cancelled: Let the program move goes on." : `${kind === "hint" ? "Hint" : "Analysis"} cancelled.`);
    } else {
      if (kind === "program") play.paused = true;
      playShow();
      status("#g-status", e.message, true);
    }
    return;
  }
  play.job = null;
  if (generation !== play.generation) return;
  $("#g-said").textContent = answer.said;
  if (kind === "program") {
    play.moves = answer.position.moves.map((m) => m.move);
    play.pos = answer.position;
    play.hint = null;
    clear($("#g-analysis"));
    playShow();
    playNext();
  } else if (kind === "hint") {
    play.hint = answer.move;
    playShow();
  } else {
    play.hint = answer.moves[0].move;
    playAnalysis(answer.moves);
    playShow();
  }
}

function playStop() {
  if (play.job) { play.job.handle.cancel(); play.job = null; }
}

function playAnalysis(rows) {
  const table = $("#g-analysis");
  clear(table);
  const head = html("tr", {}, table);
  for (const name of ["move", "value", "how"]) html("th", { class: name === "value" ? "" : "l" }, head, name);
  for (const row of rows) {
    const tr = html("tr", { "data-move": String(row.move) }, table);
    html("td", { class: "l" }, tr, row.text);
    html("td", {}, tr, row.value_text);
    html("td", { class: "l" }, tr, row.how);
  }
}

// --- showing the position -------------------------------------------------------------------

function playShow() {
  const p = play.pos;
  if (!p) return;
  const sides = playSides();
  const thinking = play.job !== null;
  const personToMove = !p.over && sides[p.to_move] === "human";
  const playable = personToMove && !thinking && !play.busy;
  const options = Object.entries(p.options).map(([k, v]) => optionText(k, v));
  $("#g-title").textContent = options.length ? `${p.title}: ${options.join(", ")}` : p.title;
  const legal = new Map(p.legal.map((m) => [m.move, m.text]));
  const host = $("#g-board");
  const root = host.shadowRoot || host.attachShadow({ mode: "open" });
  root.innerHTML = "";
  $("#g-text").hidden = p.svg !== null;
  $("#g-legal").hidden = p.svg !== null;
  host.hidden = p.svg === null;
  if (p.svg !== null) {
    root.innerHTML = `<style>${BOARD_STYLE}</style>${p.svg}`;
    for (const node of root.querySelectorAll("[data-move]")) {
      const move = Number(node.getAttribute("data-move"));
      if (!legal.has(move)) continue;
      if (play.hint === move) node.classList.add("hint");
      if (!playable) continue;
      node.classList.add("playable");
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", `play ${legal.get(move)}`);
      node.addEventListener("click", () => playMove({ move }));
      node.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          playMove({ move }, true);
        }
      });
    }
    if (playable && play.keyboard) {
      const first = root.querySelector(".playable");
      if (first) first.focus();
    }
  } else {
    $("#g-text").textContent = p.board;
    const box = $("#g-legal");
    clear(box);
    if (playable) {
      for (const m of p.legal) {
        const button = html("button", { "data-move": String(m.move), class: play.hint === m.move ? "hint" : "" }, box, m.text);
        button.addEventListener("click", () => playMove({ move: m.move }));
      }
    }
  }
  host.dataset.moves = String(play.moves.length);
  host.dataset.over = String(p.over);
  host.dataset.game = p.game;
  host.dataset.generation = String(play.generation);
  const list = $("#g-moves");
  clear(list);
  for (const m of p.moves) html("li", { class: `p${m.player}` }, list, `${play.spec.player_names[m.player]}: ${m.text}`);
  list.scrollTop = list.scrollHeight;
  if (p.over) {
    status("#g-status", `Game over. ${p.result_text}`);
  } else if (!thinking) {
    const again = p.again ? " again" : "";
    status("#g-status", personToMove ? `${playCapital(p.player)} to move${again}: click a move (or Tab to it, then Enter).` :
      `${playCapital(p.player)} (the program) to move${again}.`);
  }
  $("#g-position").textContent = p.text;
  $("#g-cancel").hidden = !thinking;
  $("#g-hint").disabled = thinking || play.busy || p.over;
  $("#g-analyse").disabled = thinking || play.busy || p.over;
  $("#g-program").disabled = thinking || play.busy || p.over;
  $("#g-undo").disabled = thinking || play.busy || play.moves.length === 0;
  $("#g-move").disabled = !playable;
}

// --- start ------------------------------------------------------------------------------------

async function playInit() {
  $("#g-new").addEventListener("click", playNew);
  $("#g-game").addEventListener("change", () => { playChoose($("#g-game").value); playNew(); });
  $("#g-hint").addEventListener("click", () => playThink("hint"));
  $("#g-analyse").addEventListener("click", () => playThink("analyse"));
  $("#g-undo").addEventListener("click", playUndo);
  $("#g-program").addEventListener("click", () => { play.paused = false; playThink("program"); });
  $("#g-cancel").addEventListener("click", () => {
    if (play.job && play.job.kind === "program") play.paused = true;
    if (play.job) play.job.handle.cancel();
  });
  $("#g-typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const typed = $("#g-move").value.trim();
    if (typed) playMove({ move_text: typed });
  });
  for (const k of [0, 1]) {
    const select = $(`#g-side${k}`);
    html("option", { value: "human" }, select, "a person");
    html("option", { value: "program" }, select, "the program");
    select.value = k === 0 ? "human" : "program";
    select.addEventListener("change", () => { play.paused = false; playShow(); playNext(); });
  }
  let listed;
  try {
    listed = await apiGet("/api/games");
  } catch (e) {
    status("#g-status", e.message, true);
    return;
  }
  play.games = listed.games.filter((g) => g.kind === "game");
  if (!play.games.length) {
    status("#g-status", "No two-player game is installed.", true);
    return;
  }
  for (const g of play.games) html("option", { value: g.name }, $("#g-game"), g.title);
  playChoose(play.games[0].name);
  await playNew();
}
document.addEventListener("DOMContentLoaded", playInit);
