"use strict";
// The Kalah board drawn in the page (the Kalah and Review tabs), so that a sowing can be
// shown stone by stone.

const STONE_COLOURS = ["#e9c46a", "#f4a261", "#e76f51", "#2a9d8f", "#8ab17d", "#a8dadc", "#cdb4db", "#f1faee"];

function drawKalah(svg, board, pits, opts = {}) {
  // board: 2m+2 holes in the RULES.md numbering; A's pits along the bottom (left to
  // right), B's along the top (right to left), B's store left, A's store right.
  clear(svg);
  const m = pits;
  const cell = 86, pad = 16, storeW = 84, h = 2 * cell + 70;
  const w = 2 * pad + 2 * storeW + m * cell;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const defs = el("defs", {}, svg);
  const grad = el("linearGradient", { id: "wood", x1: 0, y1: 0, x2: 0, y2: 1 }, defs);
  el("stop", { offset: "0", "stop-color": "#c99a62" }, grad);
  el("stop", { offset: "1", "stop-color": "#a8723f" }, grad);
  const hole = el("radialGradient", { id: "hole", cx: "50%", cy: "40%", r: "60%" }, defs);
  el("stop", { offset: "0", "stop-color": "#5b361a" }, hole);
  el("stop", { offset: "1", "stop-color": "#7d4d27" }, hole);
  el("rect", { x: 2, y: 26, width: w - 4, height: 2 * cell + 18, rx: 40, fill: "url(#wood)", stroke: "#7a4e27", "stroke-width": 2 }, svg);
  const top = 35, bottom = top + cell;
  const centres = {};
  for (let i = 0; i < m; i++) {
    centres[i] = { x: pad + storeW + i * cell + cell / 2, y: bottom + cell / 2, r: cell * 0.4 };
    centres[2 * m - i] = { x: pad + storeW + i * cell + cell / 2, y: top + cell / 2, r: cell * 0.4 };
  }
  centres[m] = { x: w - pad - storeW / 2, y: top + cell, r: 0, store: true };
  centres[2 * m + 1] = { x: pad + storeW / 2, y: top + cell, r: 0, store: true };
  const legal = new Set(opts.legal || []);
  for (let idx = 0; idx < 2 * m + 2; idx++) {
    const c = centres[idx];
    const g = el("g", { "data-hole": idx, class: "hole" + (legal.has(idx) ? " pit-legal" : "") }, svg);
    const hl = opts.highlight === idx;
    const ring = opts.ring || "#ffd77a";
    if (c.store) {
      el("rect", { class: "pit-hole", x: c.x - storeW / 2 + 6, y: top + 6, width: storeW - 12, height: 2 * cell - 12, rx: 34,
        fill: "url(#hole)", stroke: hl ? ring : "#5a3618", "stroke-width": hl ? 4 : 1.5 }, g);
    } else {
      el("circle", { class: "pit-hole", cx: c.x, cy: c.y, r: c.r, fill: "url(#hole)", stroke: hl ? ring : "#5a3618", "stroke-width": hl ? 4 : 1.5 }, g);
    }
    drawStones(g, board[idx], c, c.store ? { w: storeW - 26, h: 2 * cell - 40 } : null, idx);
    const count = el("text", { x: c.x, y: c.store ? top + 34 : c.y + c.r - 6, "text-anchor": "middle",
      "font-size": c.store ? 22 : 15, "font-weight": 700, fill: "#fff8e8", stroke: "#3d230e", "stroke-width": 3, "paint-order": "stroke" }, g, String(board[idx]));
    count.setAttribute("class", "count");
    if (!c.store) {
      const ly = idx < m ? h - 6 : 18;
      el("text", { x: c.x, y: ly, "text-anchor": "middle", "font-size": 13, fill: "#8a7f70" }, svg, String(idx));
    }
    if (legal.has(idx) && opts.onPit) g.addEventListener("click", () => opts.onPit(idx));
  }
  el("text", { x: pad + 4, y: 18, "font-size": 13, fill: "#7a4f9a", "font-weight": 600 }, svg, "B" + (opts.names ? ` · ${opts.names[1]}` : ""));
  el("text", { x: w - pad - 4, y: h - 6, "font-size": 13, fill: "#1f6f9a", "text-anchor": "end", "font-weight": 600 }, svg, "A" + (opts.names ? ` · ${opts.names[0]}` : ""));
  if (opts.toMove) {
    const y = opts.toMove === "A" ? bottom + cell - 2 : top + 2;
    el("rect", { x: pad + storeW - 4, y: y - 4 + (opts.toMove === "A" ? 0 : 0), width: m * cell + 8, height: 6, rx: 3,
      fill: opts.toMove === "A" ? "#1f6f9a" : "#7a4f9a", opacity: 0.75 }, svg);
  }
}

function drawStones(g, n, c, box, seed) {
  const shown = Math.min(n, box ? 48 : 20);
  for (let k = 0; k < shown; k++) {
    let x, y;
    if (box) {
      const cols = 4;
      x = c.x - box.w / 2 + 10 + (k % cols) * ((box.w - 20) / (cols - 1)) + ((k * 7) % 5) - 2;
      y = c.y + box.h / 2 - 8 - Math.floor(k / cols) * 10 + ((k * 3) % 4) - 2;
    } else {
      const angle = k * 2.399963 + seed;
      const radius = k === 0 ? 0 : Math.min(c.r - 12, 7 * Math.sqrt(k));
      x = c.x + radius * Math.cos(angle);
      y = c.y - 4 + radius * Math.sin(angle);
    }
    el("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: 6.2, fill: STONE_COLOURS[(k + seed) % STONE_COLOURS.length],
      stroke: "rgba(0,0,0,0.35)", "stroke-width": 0.8 }, g);
  }
}
