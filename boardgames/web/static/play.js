"use strict";
// The Play tab: an analysis board for every registered two-player game, built from the
// server's list of games (/api/games): its options form, its players for each side (a
// person, the program's levels, a game's own such as Kalah's presets or Nim's Bouton), the
// board the server draws (its SVG, where each legal move is an element with data-move),
// the moves as a tree (the main line and its variations), the program's move and hint,
// and the analysis (the value, the best line, the best moves) with its evaluation bar.
// A game's extras add a move shown frame by frame (the server's frames: Kalah's sowing,
// stone by stone), a side panel (Nim's binary table) and records in its own format (the
// server writes and reads them). The page holds the game (options, start, the tree of
// moves); the server replays and checks every line it is sent. Nothing here knows any game.
//
// The game lives in the address's fragment (see fragmentOf): #game/options/@start/moves/ply,
// e.g. #connect4/4,4,5,3 or #nim/rows=3,4,5/1 2,3 1/1; and, with its variations, in
// localStorage, from which a page opened without a fragment takes the last game.

const STORE = "boardgames.play";
const SCALE = 20;  // a heuristic score of +20 fills 72% of the bar for its side (at most 95%)

const play = {
  games: [],            // the two-player games of /api/games
  levelHelp: {},        // each level's words and detail
  spec: null,           // the game on the board
  options: {},          // its option values (as the server read them)
  start: "",            // its starting position (text; empty: the start)
  root: null,           // the tree of moves: {move, text, player, parent, children}
  node: null,           // the node shown (root: the start)
  pos: null,            // the server's description of the shown position
  positions: new Map(), // line key -> the server's position
  analyses: new Map(),  // level|line key -> an analysis (its last depth: it ended)
  partials: new Map(),  // level|line key -> the deepest depth reported so far (it runs, or was stopped)
  job: null,            // {kind, handle, node} while the program moves or finds a hint
  analysis: null,       // {handle, key, node} while an analysis runs
  paused: false,        // the program waits (after a Cancel) until asked to move
  busy: false,          // a move is on its way to the server
  animating: false,     // a move is being shown frame by frame
  animations: 0,        // moves shown frame by frame so far (for the tests)
  wanted: ["human", "strong"],  // the sides the person chose (kept across games)
  keyboard: false,      // the last move came from the keyboard: the focus stays on the board
  focusMove: null,      // the move (column) played last on the board: the focus returns to it
  hint: null,           // {node, move}: a hint to mark on the board
  generation: 0,        // a new game: older answers are stale
  shown: 0,             // each step: older positions are stale
  opening: 0,           // each game opened: an older one that answers late is dropped
  edits: 0,             // each edit of an option field: an opening that answers later keeps it
  autoChosen: null,     // the person's own Auto-analyse choice (null: the level's default)
  autoTimer: null,
  autoPending: false,   // Auto-analyse starts in a moment
  cancelled: null,      // the analysis key whose analysis the person cancelled
  lastHash: "",
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
.best { filter: drop-shadow(0 0 4px #16a34a); }
:is(circle, rect, ellipse, path, polygon).best,
.best > :is(circle, rect, ellipse, path, polygon):first-of-type {
  stroke: #16a34a !important; stroke-width: 4px !important; stroke-opacity: 1 !important;
}
.hint { filter: drop-shadow(0 0 4px #d08a2e); }
:is(circle, rect, ellipse, path, polygon).hint,
.hint > :is(circle, rect, ellipse, path, polygon):first-of-type {
  stroke: #d08a2e !important; stroke-width: 4px !important; stroke-dasharray: 6 4; stroke-opacity: 1 !important;
}
`;
// (the best move and the hint: the move's element, or its first shape, gets a coloured
// edge, whatever the game draws)

// --- small helpers ------------------------------------------------------------------------

function playUrl(what) {
  return `/api/games/${encodeURIComponent(play.spec.name)}/${what}`;
}

function playBody(moves, extra = {}) {
  return { options: play.options, position: play.start || null, moves, ...extra };
}

function playSides() {
  return [$("#g-side0").value, $("#g-side1").value];
}

// A side's name in a record: "human", or "program <player>".
function sideLabel(side) {
  return side === "human" ? "human" : `program ${side}`;
}

// The sides' menus for a game: a person, or one of its players (the program's levels, a
// game's own); the person's choice stays where the game has it.
function playSideMenus(spec) {
  const names = spec.players.map((p) => p.name);
  for (const k of [0, 1]) {
    const select = $(`#g-side${k}`);
    clear(select);
    html("option", { value: "human" }, select, "a person");
    for (const p of spec.players) {
      const words = p.description.length > 48 ? `${p.description.slice(0, 46)}…` : p.description;
      html("option", { value: p.name, title: p.description }, select, `${p.name}: ${words}`);
    }
    const wanted = play.wanted[k];
    const fallback = k === 0 ? "human" : (names.includes("strong") ? "strong" : names[0] || "human");
    select.value = wanted === "human" || names.includes(wanted) ? wanted : fallback;
  }
  playSideNotes(spec);
}

function playSideNotes(spec = play.spec) {
  if (!spec) return;
  const notes = playSides().map((side, k) => {
    if (side === "human") return null;
    const p = spec.players.find((q) => q.name === side);
    return p ? `${playCapital(playerName(k, spec))}: ${p.name}, ${p.description}.` : null;
  });
  $("#g-side-notes").textContent = notes.filter((n) => n).join(" ");
}

// The time a beat of a move's frames lasts (ms; 0: no frames), for a game that has them.
function playSpeed() {
  const spec = play.spec;
  return spec && spec.extras && spec.extras.animates ? Number($("#g-speed").value) : 0;
}

function playCapital(words) {
  return words ? words[0].toUpperCase() + words.slice(1) : words;
}

// A player's name for a sentence (as the server words it): "A", "player 1".
function playerName(k, spec = play.spec) {
  const name = spec.player_names[k];
  return /^\d+$/.test(name) ? `player ${name}` : name;
}

// An option as the title shows it, in the form's own words: "stones a pit at the start 4".
function optionText(name, value) {
  const spec = play.spec && (play.spec.options || []).find((o) => o.name === name);
  const label = spec && spec.help ? spec.help.replace(/\s*\(.*\)\s*$/, "") : name.replace(/_/g, " ");
  if (typeof value === "boolean") return `${label}: ${value ? "yes" : "no"}`;
  return `${label}: ${Array.isArray(value) ? value.join(" ") : value}`;
}

function playError(text) {
  const line = $("#g-error");
  line.textContent = String(text).split("\n")[0];
  line.hidden = false;
}

function playClearError() {
  $("#g-error").textContent = "";
  $("#g-error").hidden = true;
}

// --- the tree of moves ---------------------------------------------------------------------

function treeRoot() { return { move: null, text: "", player: null, parent: null, children: [] }; }

function pathOf(node) {
  const moves = [];
  for (let n = node; n.parent; n = n.parent) moves.push(n.move);
  return moves.reverse();
}

function plyOf(node) {
  let k = 0;
  for (let n = node; n.parent; n = n.parent) k += 1;
  return k;
}

function keyOf(node) { return pathOf(node).join(","); }

function lineEnd(node) {
  let n = node;
  while (n.children.length) n = n.children[0];
  return n;
}

function nodesTo(node) {
  const nodes = [];
  for (let n = node; n.parent; n = n.parent) nodes.push(n);
  return nodes.reverse();
}

// The child of `node` for the move `m` ({move, text, player}): the one there, else a new
// one (the line's continuation when it is the first, else a variation).
function childFor(node, m) {
  const there = node.children.find((c) => c.move === m.move);
  if (there) return there;
  const child = { move: m.move, text: m.text, player: m.player, parent: node, children: [] };
  node.children.push(child);
  return child;
}

function inside(node, top) {
  for (let n = node; n; n = n.parent) if (n === top) return true;
  return false;
}

// --- the address: #game/options/@start/moves/ply --------------------------------------------
// game:    the plugin's name;
// options: name=value pairs separated by commas, only those that differ from the defaults
//          (a list's numbers are separated by commas too: rows=3,4,5; on/off for a switch);
// @start:  a starting position in the game's notation, when the game does not start at the
//          start (a Kalah board, say);
// moves:   the line shown, each move in the game's notation, separated by commas (the
//          variations stay in this browser's storage);
// ply:     the number of moves of the line shown on the board, when it is not the last.
// The moves part also reads a position in the game's notation (#connect4/4453).

function encodePart(text) {
  return encodeURIComponent(text).replace(/%2C/gi, ",").replace(/%3D/gi, "=").replace(/%40/g, "@");
}

function optionUrl(value) {
  if (typeof value === "boolean") return value ? "on" : "off";
  return Array.isArray(value) ? value.join(",") : String(value);
}

function fragmentOf() {
  const parts = [play.spec.name];
  const changed = play.spec.options
    .filter((o) => JSON.stringify(play.options[o.name]) !== JSON.stringify(o.default))
    .map((o) => `${o.name}=${optionUrl(play.options[o.name])}`);
  if (changed.length) parts.push(changed.join(","));
  if (play.start) parts.push(`@${play.start}`);
  const line = nodesTo(lineEnd(play.node));
  if (line.length) parts.push(line.map((n) => n.text).join(","));
  const ply = plyOf(play.node);
  if (line.length && ply < line.length) parts.push(String(ply));
  return parts.map(encodePart).join("/");
}

function parseOptions(text) {
  const options = {};
  let last = null;
  for (const piece of text.split(",")) {
    const eq = piece.indexOf("=");
    if (eq >= 0) {
      last = piece.slice(0, eq).trim();
      options[last] = piece.slice(eq + 1).trim();
    } else if (last !== null) {
      options[last] += `,${piece.trim()}`;
    } else {
      throw new ApiError(`the link's options must be name=value, got "${piece.slice(0, 20)}"`);
    }
  }
  return options;
}

// {game, options, start, record, ply} from "#...", or null for an empty fragment.
function parseFragment(hash) {
  const raw = hash.replace(/^#/, "");
  if (!raw.trim()) return null;
  const parts = raw.split("/").map(decoded);
  const desc = { game: parts.shift(), options: {}, start: "", record: "", ply: null };
  if (parts.length && parts[0].includes("=")) desc.options = parseOptions(parts.shift());
  if (parts.length && parts[0].startsWith("@")) desc.start = parts.shift().slice(1);
  if (parts.length) desc.record = parts.shift();
  if (parts.length && /^\d+$/.test(parts[0]) && desc.record) desc.ply = Number(parts.shift());
  if (parts.length) throw new ApiError(`the link has a part too many: "/${parts.join("/").slice(0, 30)}"`);
  return desc;
}

// A pasted or opened record: its comment lines may name the game ("# game: nim"), its
// options ("# options: rows=3,4,5") and its start ("# start: ..."); a pasted link is read
// as a link.
function recordDesc(text) {
  const link = text.trim().match(/^\S*#([^\s#]+)$/);
  if (link && play.games.some((g) => g.name === link[1].split("/")[0])) {
    const desc = parseFragment(`#${link[1]}`);
    if (desc) return desc;
  }
  const desc = { game: $("#g-game").value, options: null, start: "", record: text, ply: null };
  for (const line of text.split(/\r?\n/)) {
    const said = line.match(/^\s*#\s*(game|options|start)\s*:\s*(.*?)\s*$/i);
    if (!said) continue;
    const [, key, value] = said;
    if (key.toLowerCase() === "game") desc.game = value;
    else if (key.toLowerCase() === "options") desc.options = value ? parseOptions(value) : {};
    else desc.start = value;
  }
  return desc;
}

// --- the options form, from the game's options -------------------------------------------

function playField(option, box, value) {
  const id = `g-opt-${option.name}`;
  const label = html("label", { for: id }, box);
  let range = "";
  if (option.low !== null && option.high !== null) range = ` (${option.low}–${option.high}${option.kind === "ints" ? " each" : ""})`;
  if (option.kind === "bool") {
    label.classList.add("inline");
    const check = html("input", { id, type: "checkbox", "data-option": option.name, "data-help": option.help }, label);
    check.checked = Boolean(value);
    label.append(` ${option.help}`);
    return;
  }
  html("span", {}, label, playCapital(option.help) + range);
  const shown = Array.isArray(value) ? value.join(" ") : String(value);
  if (option.kind === "choice") {
    const select = html("select", { id, "data-option": option.name, "data-help": option.help }, label);
    for (const choice of option.choices) html("option", { value: choice }, select, choice);
    select.value = shown;
  } else {
    const attrs = { id, "data-option": option.name, "data-help": option.help, value: shown, autocomplete: "off", required: "" };
    if (option.kind === "int") {
      Object.assign(attrs, { type: "number", step: "1" });
      if (option.low !== null) attrs.min = String(option.low);
      if (option.high !== null) attrs.max = String(option.high);
    }
    html("input", attrs, label);
  }
}

// The form's option values; an empty field is marked and named: "Pits a side: required".
function playReadOptions() {
  const values = {};
  for (const input of document.querySelectorAll("#g-options [data-option]")) {
    input.removeAttribute("aria-invalid");
    if (input.type === "checkbox") {
      values[input.dataset.option] = input.checked;
      continue;
    }
    const value = input.value.trim();
    const name = playCapital(input.dataset.help);
    const refuse = (why) => {
      input.setAttribute("aria-invalid", "true");
      input.focus();
      throw new ApiError(`${name}: ${why}`);
    };
    if (!value && !(input.validity && input.validity.badInput)) refuse("required");
    const option = play.games.length ? optionOf(input.dataset.option) : null;
    if (option) {
      const problem = optionProblem(option, value, input);
      if (problem) refuse(problem);
    }
    values[input.dataset.option] = value;
  }
  return values;
}

// The option `name` of the game chosen in the form (as /api/games lists it).
function optionOf(name) {
  const spec = play.games.find((g) => g.name === $("#g-game").value);
  return spec ? spec.options.find((o) => o.name === name) || null : null;
}

// What is wrong with `value` for `option` (a whole number, or whole numbers, within its
// range), in words for the field's label: "give a whole number from 4 to 9 (not 12)";
// null when nothing is (the server checks the rest).
function optionProblem(option, value, input) {
  const low = option.low === null ? -Infinity : option.low;
  const high = option.high === null ? Infinity : option.high;
  const range = Number.isFinite(low) && Number.isFinite(high) ? ` from ${low} to ${high}` : Number.isFinite(low) ? ` of at least ${low}` : Number.isFinite(high) ? ` of at most ${high}` : "";
  const whole = (word) => /^[-+]?\d+$/.test(word) && Number(word) >= low && Number(word) <= high;
  if (option.kind === "int") {
    if (input && input.validity && input.validity.badInput) return `give a whole number${range} (the field holds no number)`;
    return whole(value) ? null : `give a whole number${range} (not ${value})`;
  }
  if (option.kind === "ints") {
    const words = value.split(/[\s,;]+/).filter(Boolean);
    const bad = words.find((w) => !whole(w));
    if (bad !== undefined) return `give whole numbers${range} each, separated by spaces or commas (not ${bad})`;
  }
  return null;
}

// Show game `name`'s form, its fields at `values` (the defaults where absent). `keep`: the
// fields stay as they are (the person edited them while the game was opening).
function playChoose(name, values = {}, keep = false) {
  const spec = play.games.find((g) => g.name === name) || play.games[0];
  $("#g-game").value = spec.name;
  $("#g-summary").textContent = spec.summary;
  const box = $("#g-options");
  if (!keep) {
    clear(box);
    for (const option of spec.options) {
      const value = values[option.name] === undefined ? option.default : values[option.name];
      playField(option, box, value);
    }
  }
  $("#g-side0-label").textContent = `${playCapital(playerName(0, spec))} (moves first)`;
  $("#g-side1-label").textContent = playCapital(playerName(1, spec));
  playSideMenus(spec);
  $("#g-speed-label").hidden = !(spec.extras && spec.extras.animates);
  const example = spec.examples.find((e) => e.trim());
  $("#g-record").placeholder = example ? `the start, or e.g. ${example}` : "the start";
  $("#g-engine").textContent = spec.engine || "";
  return spec;
}

function playLevels() {
  const list = $("#g-levels-list");
  clear(list);
  for (const option of $("#g-level").options) {
    const help = play.levelHelp[option.value];
    if (!help) continue;
    option.title = `${help.words} (${help.detail})`;
    const item = html("li", {}, list);
    html("strong", {}, item, option.value);
    item.append(`: ${help.words} (${help.detail}).`);
  }
}

function autoDefault() {
  const help = play.levelHelp[$("#g-level").value];
  return !help || help.seconds === null;  // the levels that think for seconds are slow
}

function playAutoBox() {
  $("#g-auto").checked = play.autoChosen === null ? autoDefault() : play.autoChosen;
}

// --- opening a game ---------------------------------------------------------------------------

// Open {game, options, start, record | moves, ply}: checked by the server first, so that a
// bad record changes nothing on the page. `tree`: variations to keep (a stored tree).
async function playOpen(desc, tree = null) {
  const spec = play.games.find((g) => g.name === desc.game);
  if (!spec) {
    throw new ApiError(`there is no game "${String(desc.game).slice(0, 30)}" here; the games: ${play.games.map((g) => g.name).join(", ")}`);
  }
  const body = { options: desc.options || {}, position: desc.start || null, moves: desc.moves || [] };
  if (desc.record) body.record = desc.record;
  const ticket = ++play.opening;
  const edits = play.edits;
  const pos = await api(`/api/games/${encodeURIComponent(spec.name)}/position`, body);
  if (ticket !== play.opening) return null;  // another game was opened meanwhile
  playStopAll();
  // what the person typed into this game's fields meanwhile is theirs: it stays
  const typed = play.edits !== edits && $("#g-game").value === spec.name;
  play.spec = playChoose(spec.name, pos.options, typed);
  play.generation += 1;
  play.options = pos.options;
  play.start = pos.position || "";
  play.root = tree && tree.start === play.start && JSON.stringify(tree.options) === JSON.stringify(pos.options) && tree.game === spec.name ? tree.root : treeRoot();
  play.positions = new Map();
  play.analyses = new Map();
  play.partials = new Map();
  play.paused = false;
  play.hint = null;
  let node = play.root;
  for (const m of pos.moves) node = childFor(node, m);
  play.positions.set(keyOf(node), pos);
  if (desc.ply !== null && desc.ply !== undefined && desc.ply < plyOf(node)) node = nodesTo(node)[desc.ply - 1] || play.root;
  play.node = node;
  $("#g-said").textContent = "";
  playClearError();
  await playGo(node);
  return node;
}

// A record's description, with the form's options when the record names none (and is of
// the game chosen in the form).
function withFormOptions(desc, options) {
  if (desc.options === null) desc.options = desc.game === $("#g-game").value ? options : {};
  return desc;
}

async function playNew() {
  play.opening += 1;  // a game still opening is dropped: this one is what the person asked for
  try {
    const options = playReadOptions();
    const text = $("#g-record").value;
    const desc = text.trim() ? await readRecord(text) : { game: $("#g-game").value, options: null, start: "", record: "", ply: null };
    await playOpen(withFormOptions(desc, options));
    playNext();
  } catch (e) {
    playError(e.message);
  }
}

// A record's description: the game and moves it names, when the server knows its format
// (a game's own, such as Kalah's .klh; the page's records, which name their game); else
// the moves or position of the game chosen in the form (recordDesc).
async function readRecord(text) {
  const link = text.trim().match(/^\S*#([^\s#]+)$/);
  if (link && play.games.some((g) => g.name === link[1].split("/")[0])) return recordDesc(text);
  const found = await api("/api/records/read", { text });
  if (!found.game) return recordDesc(text);
  return { game: found.game, options: found.options, start: found.position || "", moves: found.moves, record: "", ply: null, said: found.said };
}

async function playOpenHash(hash, stored = null) {
  const desc = parseFragment(hash);
  if (!desc) return false;
  const tree = stored ? playTreeOf(stored) : null;
  // the saved tree only when it holds the link's line already (a reload of this page's own
  // link): another game's link is shown on its own, not merged into it as a variation
  const node = await playOpen(desc, tree && treeHolds(tree, desc) ? tree : null);
  // at the end of its line, where it is the program's turn, the program moves (a link shown
  // at an earlier move waits: the person is looking back)
  if (node && node === play.node && !node.children.length) playNext();
  return true;
}

// Whether `tree` (a saved game) holds the moves of link `desc` as a line from its start.
function treeHolds(tree, desc) {
  if (tree.game !== desc.game || (desc.start || "") !== tree.start) return false;
  let node = tree.root;
  for (const word of (desc.record || "").split(",").map((w) => w.trim()).filter(Boolean)) {
    node = node.children.find((c) => String(c.text) === word);
    if (!node) return false;
  }
  return true;
}

// A file chosen as a game record: checked at once (size, text), then opened; a bad one
// is one line, and the game shown stays.
async function playOpenFile() {
  const input = $("#g-file");
  const file = input.files[0];
  if (!file) return;
  try {
    const text = await recordText(file);
    const desc = await readRecord(text);
    await playOpen(withFormOptions(desc, playReadOptions()));
    $("#g-said").textContent = desc.said ? `Opened ${file.name}: ${desc.said}.` : `Opened ${file.name}.`;
  } catch (e) {
    playError(`${file.name} was not opened: ${e.message}`);
  } finally {
    input.value = "";
  }
}

function recordText(file) {
  return new Promise((resolve, reject) => {
    if (file.size > 2 * 1024 * 1024) { reject(new ApiError("it is bigger than 2 MiB, too big for a game record")); return; }
    const reader = new FileReader();
    reader.onerror = () => reject(new ApiError("it cannot be read"));
    reader.onload = () => {
      const bytes = new Uint8Array(reader.result);
      const png = bytes.length >= 4 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
      if (png || bytes.includes(0)) { reject(new ApiError(png ? "it is a PNG picture, not a game record" : "it is not text, so not a game record")); return; }
      try {
        resolve(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
      } catch (e) {
        reject(new ApiError("it is not text (UTF-8), so not a game record"));
      }
    };
    reader.readAsArrayBuffer(file);
  });
}

// The line shown as a record file: the game's own format where it has one (Kalah's .klh),
// else the moves and the position with the command that replays them (the server writes it).
async function playDownload() {
  if (!play.spec || !play.node) return;
  try {
    const answer = await api(playUrl("record"), playBody(pathOf(lineEnd(play.node)), { players: playSides().map(sideLabel) }));
    const blob = new Blob([answer.text], { type: "text/plain" });
    const link = html("a", { href: URL.createObjectURL(blob), download: answer.name }, document.body);
    link.click();
    setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
  } catch (e) {
    playError(`The record: ${e.message}`);
  }
}

async function playCopy() {
  const link = location.href;
  try {
    await navigator.clipboard.writeText(link);
    $("#g-said").textContent = "Link copied: it opens this game at this move.";
  } catch (e) {
    const box = html("textarea", { "aria-hidden": "true", style: "position:fixed;left:-9999px" }, document.body, link);
    box.select();
    const done = document.execCommand && document.execCommand("copy");
    box.remove();
    $("#g-said").textContent = done ? "Link copied: it opens this game at this move." : `Copy this link: ${link}`;
  }
}

// --- storage: the last game, with its variations -----------------------------------------------

function treeJson(node) {
  return { m: node.move, t: node.text, p: node.player, c: node.children.map(treeJson) };
}

function treeFrom(json, parent) {
  const node = { move: json.m, text: String(json.t), player: json.p, parent, children: [] };
  for (const c of json.c || []) if (typeof c.m === "number" && (c.p === 0 || c.p === 1)) node.children.push(treeFrom(c, node));
  return node;
}

function decoded(text) {
  try { return decodeURIComponent(text); } catch (e) { return text; }
}

function playRemember() {
  if (!play.spec || !play.node) return;
  const hash = `#${fragmentOf()}`;
  if (decoded(location.hash) !== decoded(hash)) history.replaceState(null, "", hash);
  play.lastHash = location.hash;
  const index = [];
  for (let n = play.node; n.parent; n = n.parent) index.push(n.parent.children.indexOf(n));
  const stored = {
    v: 1, game: play.spec.name, options: play.options, start: play.start,
    tree: treeJson(play.root), path: index.reverse(),
    level: $("#g-level").value, sides: playSides(), auto: play.autoChosen,
  };
  try { localStorage.setItem(STORE, JSON.stringify(stored)); } catch (e) { /* no storage: the link still holds the game */ }
}

function playRecall() {
  try {
    const stored = JSON.parse(localStorage.getItem(STORE) || "null");
    return stored && stored.v === 1 && typeof stored.game === "string" ? stored : null;
  } catch (e) {
    return null;
  }
}

function playTreeOf(stored) {
  try {
    return { game: stored.game, options: stored.options, start: stored.start || "", root: treeFrom(stored.tree || { c: [] }, null) };
  } catch (e) {
    return null;
  }
}

async function playRestore(stored) {
  const tree = playTreeOf(stored);
  if (!tree) return false;
  let node = tree.root;
  for (const k of stored.path || []) if (node.children[k]) node = node.children[k];
  await playOpen({ game: stored.game, options: stored.options, start: stored.start || "", moves: pathOf(node), ply: null }, tree);
  return true;
}

function playSettings(stored) {
  if (!stored) return;
  if (play.levelHelp[stored.level]) $("#g-level").value = stored.level;
  (stored.sides || []).forEach((side, k) => { if (k < 2 && typeof side === "string" && side.length < 80) play.wanted[k] = side; });
  play.autoChosen = typeof stored.auto === "boolean" ? stored.auto : null;
}

// --- moving through the game --------------------------------------------------------------

// Show `node`'s position (fetched once, then kept).
async function playGo(node) {
  if (play.job && play.job.node !== node) playStop(true);
  play.node = node;
  play.hint = play.hint && play.hint.node === node ? play.hint : null;
  const shown = ++play.shown;
  const key = keyOf(node);
  let pos = play.positions.get(key);
  if (!pos) {
    playShowMoves();
    try {
      pos = await api(playUrl("position"), playBody(pathOf(node)));
    } catch (e) {
      if (shown === play.shown) playError(e.message);
      return;
    }
    play.positions.set(key, pos);
  }
  if (shown !== play.shown) return;
  play.pos = pos;
  playShow();
  playRemember();
  playAnalyseIfAuto();
}

function playStep(where) {
  if (!play.node || play.animating) return;
  const node = play.node;
  const target = {
    back: node.parent || node,
    forward: node.children[0] || node,
    first: play.root,
    last: lineEnd(node),
  }[where];
  if (target && target !== node) playGo(target);
}

function playDrop(alt) {
  const parent = alt.parent;
  if (inside(play.node, alt)) playGo(parent);
  parent.children.splice(parent.children.indexOf(alt), 1);
  $("#g-said").textContent = `Dropped the variation ${alt.text}.`;
  playShowMoves();
  playRemember();
}

function playPromote(alt) {
  const parent = alt.parent;
  parent.children.splice(parent.children.indexOf(alt), 1);
  parent.children.unshift(alt);
  $("#g-said").textContent = `The variation ${alt.text} is now the main line there.`;
  playShowMoves();
  playRemember();
}

// --- playing: a person's move, take back ------------------------------------------------------

function playPlayable() {
  const p = play.pos;
  return Boolean(p && !p.over && !play.job && !play.busy && !play.animating);
}

// Show a move frame by frame (the server's pictures, a beat each as long as the speed
// says) on the board; a step, another game or another move shown ends it.
async function playAnimation(frames) {
  const unit = playSpeed();
  if (!unit || !frames || !frames.length) return;
  const host = $("#g-board");
  const root = host.shadowRoot || host.attachShadow({ mode: "open" });
  const shown = play.shown;
  const generation = play.generation;
  play.animating = true;
  host.dataset.animating = "true";
  playButtons();
  try {
    for (let k = 0; k < frames.length; k++) {
      if (shown !== play.shown || generation !== play.generation) return;
      root.innerHTML = `<style>${BOARD_STYLE}</style>${frames[k].svg}`;
      host.dataset.frame = String(k + 1);
      await sleep(frames[k].beats * unit);
    }
  } finally {
    play.animating = false;
    play.animations += 1;
    host.dataset.animating = "false";
    host.dataset.animations = String(play.animations);
    host.dataset.frames = String(frames.length);
  }
}

// What the person sees after a move: who played it, and the game's words on it.
function playSaid(last, remark) {
  const said = `${playCapital(playerName(last.player))} played ${last.text}.`;
  return remark ? `${said} ${remark}` : said;
}

async function playMove(body, keyboard = false) {
  if (!playPlayable()) return;
  play.busy = true;
  play.keyboard = keyboard;
  const node = play.node;
  const generation = play.generation;
  let child = null;
  let known = false;
  try {
    const pos = await api(playUrl("move"), playBody(pathOf(node), { ...body, animate: playSpeed() > 0 }));
    if (generation === play.generation && node === play.node) {
      const last = pos.moves[pos.moves.length - 1];
      known = node.children.some((c) => c.move === last.move);
      child = childFor(node, last);
      play.positions.set(keyOf(child), pos);
      $("#g-said").textContent = playSaid(last, pos.remark);
      $("#g-move").value = "";
      playClearError();
      if (pos.animation) await playAnimation(pos.animation);
    }
  } catch (e) {
    playError(e.message);
  } finally {
    play.busy = false;
  }
  if (!child || generation !== play.generation) { playShow(); return; }
  play.paused = false;
  await playGo(child);
  if (!known || !child.children.length) playNext();
}

async function playUndo() {
  const node = play.node;
  if (!node || !node.parent || node.children.length || play.busy) return;
  playStop(false);
  const sides = playSides();
  const line = nodesTo(node);
  let keep = -1;
  for (let i = line.length - 1; i >= 0; i--) {
    if (sides[line[i].player] === "human") { keep = i; break; }
  }
  const person = keep >= 0;
  if (!person) keep = line.length - 1;  // no move of a person: take back the last one
  let n = node;
  let taken = 0;
  while (n.parent && plyOf(n) > keep && !n.children.length) {
    const parent = n.parent;
    parent.children.splice(parent.children.indexOf(n), 1);
    n = parent;
    taken += 1;
  }
  play.paused = !person;  // else the program would play its move again at once
  $("#g-said").textContent = taken > 1 ? "Took back your last move and the program's reply." : "Took back the last move.";
  await playGo(n);
}

// --- the program: its move, a hint (jobs with Cancel) ------------------------------------------

function playNext() {
  const p = play.pos;
  if (!p || p.over || play.job || play.paused || play.busy) return;
  if (playSides()[p.to_move] === "human") return;
  playThink("program");
}

async function playThink(kind) {
  const p = play.pos;
  if (!p || p.over || play.job || play.busy) return;
  const node = play.node;
  const generation = play.generation;
  const who = playCapital(p.player);
  const side = playSides()[p.to_move];
  const by = side === "human" ? "the program" : side;
  const doing = kind === "program" ? `${who} (${by}) is thinking` : "Looking for a hint";
  const level = $("#g-level").value;
  const extra = { level };
  if (kind === "program") {
    extra.animate = playSpeed() > 0;
    if (side !== "human") extra.player = side;  // else the program at the level: Let the program move
  }
  const handle = startJob(playUrl(kind), playBody(pathOf(node), extra));
  play.job = { kind, handle, node };
  playCancelAnalysis();  // the program's search and an analysis would take turns
  playShow();
  status("#g-status", `${doing}…`);
  let answer;
  try {
    answer = await handle.done;
  } catch (e) {
    if (play.job && play.job.handle === handle) play.job = null;
    if (generation !== play.generation || node !== play.node) return;
    if (kind === "program") play.paused = true;
    playShow();
    if (e instanceof Cancelled) {
      status("#g-status", kind === "program" ? "The program's move was cancelled: Let the program move goes on." : "Hint cancelled.");
    } else {
      playError(e.message);
    }
    return;
  }
  if (play.job && play.job.handle === handle) play.job = null;
  if (generation !== play.generation || node !== play.node) return;
  $("#g-said").textContent = answer.said;
  if (kind === "program") {
    let at = node;
    const remarks = [];
    for (const step of answer.steps) {  // the whole turn, each move shown in turn
      if (generation !== play.generation || at !== play.node) return;
      const moves = step.position.moves;
      const child = childFor(at, moves[moves.length - 1]);
      play.positions.set(keyOf(child), step.position);
      if (step.remark) remarks.push(step.remark);
      if (step.animation) await playAnimation(step.animation);
      if (generation !== play.generation || at !== play.node) return;
      await playGo(child);
      at = child;
    }
    if (remarks.length) $("#g-said").textContent = `${answer.said} ${remarks.join(" ")}`;
    if (at === play.node && !at.children.length) playNext();
  } else {
    play.hint = { node, move: answer.move };
    playShow();
    playAnalyseIfAuto();
  }
}

// Cancel the program's move or hint; `pause`: the program waits to be asked again.
function playStop(pause) {
  if (!play.job) return;
  const job = play.job;
  play.job = null;
  if (job.kind === "program" && pause) play.paused = true;
  job.handle.cancel();
}

function playStopAll() {
  playStop(false);
  playCancelAnalysis();
}

// --- the analysis --------------------------------------------------------------------------------

// An analysis deepens for the time chosen (#g-deepen) whatever the level: that time and the
// line are its key.
function analysisKey(node) { return `${$("#g-deepen").value}|${keyOf(node)}`; }

function playAnalyseIfAuto() {
  clearTimeout(play.autoTimer);
  const key = play.node ? analysisKey(play.node) : null;
  if (play.analysis && play.analysis.key !== key) playCancelAnalysis();
  play.autoPending = false;
  if ($("#g-auto").checked && play.pos && !play.pos.over && !play.job && !play.analyses.has(key)) {
    play.autoPending = true;
    play.autoTimer = setTimeout(() => { play.autoPending = false; playAnalyse(); }, 150);  // not for every step of a key held down
  }
  playShowAnalysis();
}

async function playAnalyse() {
  const node = play.node;
  const p = play.pos;
  if (!node || !p || p.over || play.job) return;
  const key = analysisKey(node);
  play.cancelled = null;
  if (play.analyses.has(key) || (play.analysis && play.analysis.key === key)) { playShowAnalysis(); return; }
  const previous = play.analysis;
  play.analysis = null;
  if (previous) await previous.handle.cancel();  // its slot is free before the next starts
  if (node !== play.node || play.job || play.analysis) return;
  const generation = play.generation;
  // it deepens until proved, cancelled (Cancel, another position, the page closed) or its time
  const onProgress = (progress) => {
    if (!progress || !progress.analysis || generation !== play.generation) return;
    if (!play.analysis || play.analysis.handle !== handle) return;
    play.partials.set(key, progress.analysis);
    if (node === play.node) {
      playShowAnalysis();
      playMarkBoard();
    }
  };
  const handle = startJob(playUrl("analyse"), playBody(pathOf(node), { level: $("#g-level").value, top: 3, deepen: true, limit: Number(key.split("|")[0]) }), onProgress);
  play.analysis = { handle, key, node };
  playShowAnalysis();
  try {
    const answer = await handle.done;
    if (generation === play.generation) {
      play.analyses.set(key, answer);
      play.partials.delete(key);
    }
  } catch (e) {
    if (!(e instanceof Cancelled) && node === play.node && generation === play.generation) playError(`The analysis stopped: ${e.message}`);
  } finally {
    if (play.analysis && play.analysis.handle === handle) play.analysis = null;
  }
  if (node === play.node) {
    playShowAnalysis();
    playMarkBoard();
  }
}

// The analysis shown for `node`: the finished one, else the deepest depth reported so far.
function analysisOf(node) {
  if (!node) return null;
  const key = analysisKey(node);
  return play.analyses.get(key) || play.partials.get(key) || null;
}

function playCancelAnalysis() {
  clearTimeout(play.autoTimer);
  play.autoPending = false;
  if (!play.analysis) return Promise.resolve();
  const running = play.analysis;
  play.analysis = null;
  playShowAnalysis();
  return running.handle.cancel();
}

// The first player's share of the bar for a value `value` of player `player`'s.
function share(value, player, exact) {
  const first = player === 0 ? value : -value;
  if (Math.abs(first) > 5e8) return first > 0 ? 1 : 0;  // a won or lost game (a proof)
  return 0.5 + 0.45 * first / (Math.abs(first) + SCALE);  // an estimate: never a proof's end
}

function playShowEval(answer, running = false) {
  const bar = $("#g-evalbar");
  const p = play.pos;
  let part = null;
  let words = "not analysed";
  let state = "none";
  if (p && p.over) {
    part = p.winner === null || p.winner === undefined ? 0.5 : (p.winner === 0 ? 1 : 0);
    words = p.result_text;
    state = "over";
  } else if (answer) {
    part = share(answer.value, answer.player, answer.exact);
    words = `${playCapital(answer.player_name)} to move: ${answer.words}${answer.depth_text && answer.depth_text !== "exact" ? `, ${answer.depth_text}` : ""}`;
    state = play.node && play.analyses.has(analysisKey(play.node)) ? "done" : running ? "deepening" : "stopped";
  } else if (play.analysis && play.node && play.analysis.key === analysisKey(play.node)) {
    words = "analysing";
    state = "running";
  }
  bar.dataset.state = state;
  bar.dataset.key = answer && state !== "over" && play.node ? keyOf(play.node) : "";
  bar.dataset.depth = answer && state !== "over" ? answer.depth_text || "" : "";
  bar.dataset.share = part === null ? "" : part.toFixed(3);
  bar.classList.toggle("empty", part === null);
  bar.querySelector(".evalfill").style.height = `${Math.round((part === null ? 0.5 : part) * 1000) / 10}%`;
  const num = bar.querySelector(".evalnum");
  if (num) num.textContent = answer && state !== "over" && answer.bar_text ? answer.bar_text : "";
  bar.setAttribute("aria-valuenow", String(Math.round((part === null ? 0.5 : part) * 100)));
  bar.setAttribute("aria-valuetext", words);
  bar.title = words;
  if (play.spec) {
    const short = (k) => (play.spec.player_names[k].length <= 3 ? play.spec.player_names[k] : String(k + 1));
    bar.querySelector(".evaltop").textContent = short(1);
    bar.querySelector(".evalbottom").textContent = short(0);
    bar.setAttribute("aria-label", `Evaluation: the share of ${playerName(0)}`);
  }
}

function playShowAnalysis() {
  const node = play.node;
  const answer = analysisOf(node);
  const running = Boolean(play.analysis && node && play.analysis.key === analysisKey(node));
  const p = play.pos;
  playShowEval(answer, running);
  const words = $("#g-eval-words");
  const best = $("#g-bestline");
  const table = $("#g-candidates");
  clear(best);
  clear(table);
  table.hidden = true;
  $("#g-overran").hidden = true;
  $("#g-how").hidden = true;
  $("#g-analysis-cancel").hidden = !running;
  $("#g-analyse").disabled = running || !p || p.over || Boolean(play.job);
  const key = node ? analysisKey(node) : null;
  let said = "";
  if (p && p.over) said = `Game over: ${p.result_text}`;
  else if (p && answer) {
    said = `${playCapital(answer.player_name)} to move: ${answer.words}${answer.depth_text && answer.depth_text !== "exact" ? `, ${answer.depth_text}` : ""}. Best move: ${answer.text}.`;
    if (running) said += " Deepening…";
    else if (play.cancelled === key && !play.analyses.has(key)) said += " Analysis cancelled.";
    else if (!play.analyses.has(key)) said += " Stopped.";
  } else if (p && (running || play.autoPending)) said = "Analysing…";
  else if (p && play.cancelled === key) said = "Analysis cancelled.";
  else if (p && play.job) said = "The analysis waits for the program.";
  else if (p) said = "Not analysed: press Analyse, or switch Auto-analyse on.";
  if (words.textContent !== said) words.textContent = said;
  words.dataset.state = answer && play.analyses.has(key) ? "done" : running ? "running" : answer ? "stopped" : "none";
  words.dataset.depth = answer ? answer.depth_text || "" : "";
  if (!answer || !p || p.over) return;
  html("span", { class: "label" }, best, "Best line: ");
  html("span", { class: "line" }, best, answer.pv.join("  "));
  table.hidden = false;
  html("caption", {}, table, `The best moves for ${answer.player_name}`);
  const head = html("tr", {}, table);
  for (const name of ["", "move", `value for ${answer.player_name}`, "line"]) html("th", { class: "l", scope: "col" }, head, name);
  answer.moves.forEach((row, k) => {
    const tr = html("tr", { "data-move": String(row.move) }, table);
    html("td", { class: "l" }, tr, `${k + 1}.`);
    const cell = html("td", { class: "l" }, tr);
    const button = html("button", { class: "link", "aria-label": `play ${row.text}, ${row.words}` }, cell, row.text);
    button.disabled = !playPlayable();
    button.addEventListener("click", () => playMove({ move: row.move }));
    html("td", { class: "l" }, tr, row.words);
    html("td", { class: "l line" }, tr, (row.pv || []).join(" "));
  });
  if (answer.overran && answer.overran_text) {
    $("#g-overran").hidden = false;
    $("#g-overran").textContent = answer.overran_text;
  }
  $("#g-how").hidden = false;
  const budget = answer.limit ? `deepened for up to ${answer.limit} s` : answer.budget ? `${answer.budget} s given` : `a fixed depth (${answer.depth})`;
  $("#g-how-text").textContent = `${answer.how}; ${answer.seconds} s (${budget}). The moves: ${answer.moves.map((m) => `${m.text}: ${m.how}`).join("; ")}.`;
}

// --- showing the position ---------------------------------------------------------------------

function moveLabel(node, text) {
  const title = node.querySelector(":scope > title");
  const said = title ? title.textContent.trim() : "";
  if (/^play\b/i.test(said)) return said;
  return said ? `play ${text} (${said})` : `play ${text}`;
}

function playMarkBoard() {
  const node = play.node;
  const answer = analysisOf(node);
  const best = answer ? answer.move : null;
  const hint = play.hint && play.hint.node === node ? play.hint.move : null;
  const host = $("#g-board");
  const moves = host.shadowRoot ? [...host.shadowRoot.querySelectorAll("[data-move]")] : [];
  for (const el of [...moves, ...document.querySelectorAll("#g-legal [data-move]")]) {
    const move = Number(el.getAttribute("data-move"));
    el.classList.toggle("best", move === best);
    el.classList.toggle("hint", move === hint);
  }
}

// The players' colours as the game draws them, for the bar, the move list and the
// candidates: a drawing's `data-colours` ("red yellow") on its <svg>, else the fill of its
// pieces of class `p1` and `p2` (Connect Four's discs); the page's own otherwise.
function playColours(root) {
  const style = document.documentElement.style;
  const svg = root.querySelector("svg");
  let colours = svg && svg.getAttribute("data-colours") ? svg.getAttribute("data-colours").split(/\s+/) : null;
  if (!colours && svg) {
    const pieces = [".p1", ".p2"].map((c) => svg.querySelector(c));
    if (pieces.every(Boolean)) colours = pieces.map((el) => getComputedStyle(el).fill);
  }
  const game = play.spec ? play.spec.name : "";
  if (!colours && play.colours && play.colours.game === game) return;  // none drawn yet: kept
  play.colours = colours ? { game, colours } : null;
  for (const k of [0, 1]) {
    if (colours && colours[k] && colours[k] !== "none") {
      style.setProperty(`--p${k}`, colours[k]);
      style.setProperty(`--p${k}-ink`, "#2b2a27");
    } else {
      style.removeProperty(`--p${k}`);
      style.removeProperty(`--p${k}-ink`);
    }
  }
}

function playRenderBoard(playable) {
  const p = play.pos;
  const legal = new Map(p.legal.map((m) => [m.move, m.text]));
  const host = $("#g-board");
  const root = host.shadowRoot || host.attachShadow({ mode: "open" });
  const active = root.activeElement ? root.activeElement.getAttribute("data-move") : null;
  root.innerHTML = "";
  $("#g-text").hidden = p.svg !== null;
  $("#g-legal").hidden = p.svg !== null;
  host.hidden = p.svg === null;
  if (p.svg !== null) {
    root.innerHTML = `<style>${BOARD_STYLE}</style>${p.svg}`;
    const svg = root.querySelector("svg");
    if (svg) {  // an image's parts are hidden from screen readers: a group keeps its moves
      const title = svg.querySelector("title");
      svg.setAttribute("role", "group");
      svg.setAttribute("aria-label", title ? title.textContent : `${p.title} board`);
    }
    playColours(root);
    for (const el of root.querySelectorAll("[data-move]")) {
      const move = Number(el.getAttribute("data-move"));
      if (!legal.has(move)) continue;
      el.classList.add("legal");
      if (!playable) continue;
      el.classList.add("playable");
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", moveLabel(el, legal.get(move)));
      el.addEventListener("click", () => { play.focusMove = move; playMove({ move }); });
      el.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          play.focusMove = move;
          playMove({ move }, true);
        }
      });
    }
    if (active !== null || play.keyboard) {  // the focus stays on the column played (or comes back)
      const want = play.focusMove !== null && play.focusMove !== undefined ? String(play.focusMove) : active;
      const cols = [...root.querySelectorAll(".playable")];
      // the column played if it can be played again, else the nearest one that can
      const near = (at) => cols.reduce((best, el) => {
        const d = Math.abs(Number(el.getAttribute("data-move")) - at);
        return best === null || d < best.d ? { el, d } : best;
      }, null);
      const again = want !== null ? root.querySelector(`.playable[data-move="${want}"]`) : null;
      const close = !again && want !== null && cols.length ? near(Number(want)).el : null;
      const first = again || close || cols[0] || null;
      if (first) first.focus();
      play.keyboard = !first;  // not now (the program thinks): when it can be played again
    }
  } else {
    $("#g-text").textContent = p.board;
    const box = $("#g-legal");
    clear(box);
    if (playable) {
      for (const m of p.legal) {
        const button = html("button", { "data-move": String(m.move), "aria-label": `play ${m.text}` }, box, m.text);
        button.addEventListener("click", () => playMove({ move: m.move }));
      }
    }
  }
  playMarkBoard();
}

function playShow() {
  const p = play.pos;
  if (!p || !play.node) return;
  const thinking = play.job !== null;
  const playable = playPlayable();
  const options = Object.entries(p.options).map(([k, v]) => optionText(k, v));
  $("#g-title").textContent = options.length ? `${p.title} (${options.join("; ")})` : p.title;
  playRenderBoard(playable);
  const host = $("#g-board");
  const ply = plyOf(play.node);
  host.dataset.moves = String(ply);
  host.dataset.line = String(plyOf(lineEnd(play.node)));
  host.dataset.key = keyOf(play.node);
  host.dataset.over = String(p.over);
  host.dataset.game = p.game;
  host.dataset.generation = String(play.generation);
  if (p.over) {
    status("#g-status", `Game over. ${p.result_text}`);
  } else if (!thinking) {
    const again = p.again ? " again" : "";
    const side = playSides()[p.to_move];
    const program = side !== "human" ? ` (${side}'s side)` : "";
    status("#g-status", `${playCapital(p.player)}${program} to move${again}: click a move, or Tab to it and press Enter.`);
  }
  $("#g-position").textContent = p.text;
  playButtons();
  playShowPanel();
  playShowMoves();
  playShowAnalysis();
}

function playButtons() {
  const p = play.pos;
  if (!p || !play.node) return;
  const thinking = play.job !== null;
  const held = thinking || play.busy || play.animating;
  $("#g-cancel").hidden = !thinking;
  $("#g-hint").disabled = held || p.over;
  $("#g-program").disabled = held || p.over;
  $("#g-undo").disabled = held || !play.node.parent || play.node.children.length > 0;
  $("#g-move").disabled = !playPlayable();
}

// The game's side panel for the position shown (its extras' HTML: Nim's binary table).
function playShowPanel() {
  const panel = play.pos && play.pos.panel;
  $("#g-panel").hidden = !panel;
  if (!panel) return;
  $("#g-panel-title").textContent = panel.title;
  $("#g-panel-body").innerHTML = panel.html;
}

// The moves: the main line, each variation indented under the move it replaces.
function playShowMoves() {
  const box = $("#g-moves");
  const focused = box.contains(document.activeElement);
  clear(box);
  const node = play.node;
  $("#g-first").disabled = $("#g-back").disabled = !node || !node.parent;
  $("#g-forward").disabled = $("#g-last").disabled = !node || !node.children.length;
  if (!play.root || !play.root.children.length) {
    html("p", { class: "note" }, box, "No move yet.");
    return;
  }
  const pairs = alternates(play.root);
  const list = html("ol", { class: `line main${pairs ? " pairs" : ""}`, "aria-label": "The main line" }, box);
  playLine(play.root.children[0], list, 1, pairs, true);
  const current = box.querySelector("button.current");
  if (current) {
    if (focused) current.focus();
    const top = current.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 30) box.scrollTop = Math.max(0, top - box.clientHeight / 2);
  } else if (focused) {
    $("#g-forward").focus();
  }
}

// True when every move of the tree is the other player's (no extra turns): the list then
// shows a move pair a row (1. 4 3  2. 4 5), else a move a row.
function alternates(root) {
  const stack = [...root.children];
  while (stack.length) {
    const node = stack.pop();
    if (node.parent !== root && node.parent.player === node.player) return false;
    stack.push(...node.children);
  }
  return true;
}

// The number of the move pair ply `k` is in (the player who moved first opens each pair).
function pairNumber(k) {
  const first = play.root.children.length ? play.root.children[0].player : 0;
  return Math.floor((k - 1 + (first === 1 ? 1 : 0)) / 2) + 1;
}

// A line of the tree from `first` (ply `ply`): the main line in rows (pairs: a pair a row,
// its variations in full rows under the move they branch from), a variation inline, its
// own variations in brackets. Each variation has a small menu: Promote, Drop.
function playLine(first, list, ply, pairs, main) {
  let k = ply;
  let fresh = true;  // the next move starts a run (a row, a line, after a variation)
  for (let node = first; node; node = node.children[0], k += 1) {
    const item = html("li", { value: String(k) }, list);
    const current = node === play.node;
    if (pairs) {
      const opens = node.player === (play.root.children[0] ? play.root.children[0].player : 0);
      if (opens || fresh) html("span", { class: `num${opens ? "" : " cont"}`, "aria-hidden": "true" }, item, `${pairNumber(k)}${opens ? "." : "…"}`);
    }
    fresh = false;
    const label = `move ${k}, ${playerName(node.player)}: ${node.text}`;
    const button = html("button", {
      class: `mv p${node.player}${current ? " current" : ""}`,
      "aria-label": label,
      tabindex: current ? "0" : "-1",
      "data-ply": String(k),
    }, item);
    html("span", { class: "who", "aria-hidden": "true" }, button, playBadge(node.player));
    button.append(` ${node.text}`);
    if (current) button.setAttribute("aria-current", "step");
    const target = node;
    button.addEventListener("click", () => playGo(target));
    const parent = node.parent;
    if (parent.children[0] !== node) continue;
    for (const alt of parent.children.slice(1)) {
      const box = html("div", { class: `variation${main ? "" : " nested"}`, role: "group", "aria-label": `variation: ${alt.text} instead of ${node.text} at move ${k}` }, item);
      const sub = html("ol", { class: "line" }, box);
      playLine(alt, sub, k, pairs, false);
      playVariationMenu(alt, box);
      fresh = true;
    }
  }
}

// The small menu of a variation: Promote (make it the main line there), Drop.
function playVariationMenu(alt, box) {
  const menu = html("details", { class: "vmenu" }, box);
  html("summary", { "aria-label": `actions for the variation ${alt.text}`, title: "Promote or drop this variation" }, menu, "⋯");
  const tools = html("div", { class: "vtools", role: "menu" }, menu);
  const promote = html("button", { class: "small", role: "menuitem", "data-action": "promote", "aria-label": `make the variation ${alt.text} the main line` }, tools, "Promote");
  promote.addEventListener("click", () => playPromote(alt));
  const drop = html("button", { class: "small", role: "menuitem", "data-action": "drop", "aria-label": `drop the variation ${alt.text}` }, tools, "Drop");
  drop.addEventListener("click", () => playDrop(alt));
}

// The mover beside a move in the list: a short name (A, B), else a dot in the player's colour.
function playBadge(player) {
  const name = play.spec.player_names[player];
  return name.length <= 2 && !/^\d+$/.test(name) ? name : "●";
}

// --- start ------------------------------------------------------------------------------------

// Fields whose arrow keys move a caret or choose a value: the steps leave them alone.
const TYPING = "textarea, select, [contenteditable=true], input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit]):not([type=reset]):not([type=file])";

function playKeys(event) {
  if (!$("#play").classList.contains("active") || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.composedPath()[0];
  if (target && target.closest && target.closest(TYPING)) return;  // the keys edit the field there
  const where = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" }[event.key];
  if (!where) return;
  event.preventDefault();
  playStep(where);
}

async function playInit() {
  $("#g-new").addEventListener("click", playNew);
  for (const kind of ["input", "change"]) $("#g-options").addEventListener(kind, () => { play.edits += 1; });
  $("#g-game").addEventListener("change", () => {
    playChoose($("#g-game").value);
    $("#g-record").value = "";
    playNew();
  });
  $("#g-hint").addEventListener("click", () => playThink("hint"));
  $("#g-analyse").addEventListener("click", () => playAnalyse());
  $("#g-analysis-cancel").addEventListener("click", () => {
    if (play.node) play.cancelled = analysisKey(play.node);
    playCancelAnalysis();
  });
  $("#g-auto").addEventListener("change", () => {
    play.autoChosen = $("#g-auto").checked;
    playRemember();
    playAnalyseIfAuto();
  });
  $("#g-deepen").addEventListener("change", () => playAnalyseIfAuto());
  $("#g-level").addEventListener("change", () => {
    playAutoBox();
    playRemember();
    playAnalyseIfAuto();
  });
  $("#g-undo").addEventListener("click", playUndo);
  $("#g-program").addEventListener("click", () => { play.paused = false; playThink("program"); });
  $("#g-cancel").addEventListener("click", () => playStop(true));
  $("#g-typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const typed = $("#g-move").value.trim();
    if (typed) playMove({ move_text: typed });
  });
  $("#g-file").addEventListener("change", playOpenFile);
  $("#g-copy").addEventListener("click", playCopy);
  $("#g-download").addEventListener("click", playDownload);
  $("#g-review").addEventListener("click", () => { showTab("review"); reviewTakeGame(); });
  for (const [id, where] of [["#g-first", "first"], ["#g-back", "back"], ["#g-forward", "forward"], ["#g-last", "last"]]) {
    $(id).addEventListener("click", () => playStep(where));
  }
  document.addEventListener("keydown", playKeys);
  window.addEventListener("hashchange", () => {
    if (location.hash === play.lastHash || !play.games.length) return;
    playOpenHash(location.hash, playRecall()).catch((e) => playError(`The link: ${e.message}`));
  });
  for (const k of [0, 1]) {
    const select = $(`#g-side${k}`);
    select.addEventListener("change", () => {
      play.wanted[k] = select.value;
      play.paused = false;
      playSideNotes();
      playShow();
      playRemember();
      playNext();
    });
  }
  let listed;
  try {
    listed = await apiGet("/api/games");
  } catch (e) {
    playError(e.message);
    return;
  }
  play.games = listed.games.filter((g) => g.kind === "game");
  play.levelHelp = listed.level_help || {};
  if (!play.games.length) {
    playError("No two-player game is installed.");
    return;
  }
  for (const g of play.games) html("option", { value: g.name }, $("#g-game"), g.title);
  playLevels();
  const stored = playRecall();
  playSettings(stored);
  playAutoBox();
  playChoose(stored && play.games.some((g) => g.name === stored.game) ? stored.game : play.games[0].name);
  let problem = null;
  if (location.hash.length > 1) {
    try {
      if (await playOpenHash(location.hash, stored)) return;
    } catch (e) {
      problem = `The link could not be opened: ${e.message}`;
    }
  }
  if (stored) {
    try {
      if (await playRestore(stored)) { if (problem) playError(problem); return; }
    } catch (e) {
      problem = problem || `The last game could not be restored: ${e.message}`;
    }
  }
  try {
    await playOpen({ game: $("#g-game").value, options: {}, record: "" });
  } catch (e) {
    problem = problem || e.message;
  }
  if (problem) playError(problem);
}
document.addEventListener("DOMContentLoaded", playInit);
