"use strict";
// Shared helpers: the JSON API, jobs followed by server-sent events, SVG and HTML elements,
// tabs. Every tab's script (the generic Play view, a game's extras) builds on these.

const $ = (sel, root = document) => root.querySelector(sel);
const SVGNS = "http://www.w3.org/2000/svg";

class ApiError extends Error {}
class Cancelled extends Error {}

async function api(path, body) {
  return answerOf(await reach(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body || {}),
  }));
}

async function apiGet(path) {
  return answerOf(await reach(path));
}

// fetch, with a sentence for people when the server cannot be reached
async function reach(path, init) {
  try {
    return await fetch(path, init);
  } catch (e) {
    throw new ApiError("cannot reach the server: is boardgames serve still running?");
  }
}

// The answer's JSON; a fault is an ApiError whose message is the server's one line
// (never the raw JSON of the answer).
async function answerOf(response) {
  let data;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const said = data && typeof data.error === "string" ? data.error : `the server answered ${response.status}`;
    throw new ApiError(said.split("\n")[0]);
  }
  if (data === null) throw new ApiError("the server's answer was not readable");
  return data;
}

// Start a job and follow it: returns {done: Promise(result), cancel()}.
function startJob(path, body, onProgress) {
  let source = null;
  let jobId = null;
  let settle = null;
  let stopped = false;
  const done = new Promise((resolve, reject) => {
    settle = { resolve, reject };
    api(path, body).then((answer) => {
      jobId = answer.job;
      if (stopped) { api(`/api/jobs/${jobId}/cancel`).catch(() => {}); return; }  // cancelled while starting
      source = new EventSource(`/api/jobs/${jobId}/events`);
      source.addEventListener("progress", (e) => { if (onProgress) onProgress(JSON.parse(e.data).progress); });
      source.addEventListener("done", (e) => { source.close(); resolve(JSON.parse(e.data).result); });
      source.addEventListener("failed", (e) => { source.close(); reject(new ApiError(JSON.parse(e.data).error)); });
      source.addEventListener("cancelled", () => { source.close(); reject(new Cancelled("cancelled")); });
      source.onerror = () => {
        if (source.readyState === EventSource.CLOSED) reject(new ApiError("lost the connection to the server"));
      };
    }, reject);
  });
  return {
    done,
    // Stop the job; the promise settles when the server has stopped it (its slot is free).
    cancel() {
      stopped = true;
      const asked = jobId ? api(`/api/jobs/${jobId}/cancel`).catch(() => {}) : Promise.resolve();
      if (source) source.close();
      settle.reject(new Cancelled("cancelled"));
      return asked;
    },
  };
}

function el(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function html(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

function status(id, text, isError = false) {
  const node = $(id);
  node.textContent = text;
  node.classList.toggle("error", isError);
}

function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }

function readFile(input) {
  return new Promise((resolve, reject) => {
    const file = input.files[0];
    if (!file) { reject(new ApiError("no file chosen")); return; }
    if (file.size > 2 * 1024 * 1024) { reject(new ApiError("the file is bigger than 2 MiB: not a game record")); return; }
    const reader = new FileReader();
    reader.onload = () => resolve({ name: file.name, text: reader.result });
    reader.onerror = () => reject(new ApiError("cannot read the file"));
    reader.readAsText(file);
  });
}

// A number field's value, checked against its own min, max and step and named with its
// label's words: an empty, unreadable or out-of-range field is one ApiError (never "got 0").
function numberField(sel) {
  const input = $(sel);
  const label = input.closest("label");
  const name = ((label && label.firstChild && label.firstChild.textContent) || input.id).trim();
  const whole = !input.step || Number.isInteger(Number(input.step));
  const lo = input.min === "" ? -Infinity : Number(input.min);
  const hi = input.max === "" ? Infinity : Number(input.max);
  const raw = input.value.trim();
  const value = Number(raw);
  const bad = raw === "" || !Number.isFinite(value) || (whole && !Number.isInteger(value)) || value < lo || value > hi;
  input.setAttribute("aria-invalid", bad ? "true" : "false");
  if (!bad) return value;
  const what = whole ? "a whole number" : "a number";
  const range = Number.isFinite(lo) && Number.isFinite(hi) ? ` from ${fmt(lo)} to ${fmt(hi)}` : "";
  const got = raw === "" || input.validity.badInput ? "the field is empty" : `not ${raw}`;
  throw new ApiError(`${name}: give ${what}${range} (${got})`);
}

function fmt(n) { return Number(n).toLocaleString("en-US"); }

// --- tabs ---------------------------------------------------------------------------------

const pages = {};
function showTab(name) {
  for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("active", b.dataset.tab === name);
  for (const s of document.querySelectorAll(".page")) s.classList.toggle("active", s.id === name);
  if (pages[name] && pages[name].shown) pages[name].shown();
}
document.addEventListener("DOMContentLoaded", () => {
  for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => showTab(b.dataset.tab));
});
