// The live page: applies each snapshot (Server-Sent Events) to the board and the panels.
"use strict";
const COLOURS = { o: "s-o", x: "s-x", "=": "s-r" };
const NAMES = { o: "white", x: "black", "=": "red", ".": "empty" };
// How the LED mirror shows each light: stone colours, then last move (+), winner (*), remove (-).
const LED_COLOURS = { o: "#ffffff", x: "#3060ff", "=": "#ff2020", "+": "#20d040", "*": "#ffd700", "-": "#ff00ff", ":": "#20e0e0" };
const params = new URLSearchParams(location.search);
const token = params.get("token");
const boardSpec = document.getElementById("board").dataset.spec;

function symbolClass(symbol) { return COLOURS[(symbol || ".")[0]] || ""; }

function setList(element, items) {
  const wanted = items.map(String);
  const current = Array.from(element.children).map((li) => li.textContent);
  if (current.join("\n") === wanted.join("\n")) return;
  element.replaceChildren(...wanted.map((text) => { const li = document.createElement("li"); li.textContent = text; return li; }));
}

function apply(state) {
  if (state.geometry !== boardSpec) { location.reload(); return; }
  document.getElementById("game-name").textContent = state.game.charAt(0).toUpperCase() + state.game.slice(1);
  const score = document.getElementById("score");
  score.replaceChildren(...Object.entries(state.score).map(([name, value]) => {
    const span = document.createElement("span"); span.className = "player";
    span.append(name + " "); const b = document.createElement("b"); b.textContent = value; span.append(b); return span;
  }));
  document.getElementById("turn").textContent = state.result ? "Game over: " + state.result : state.turn;
  document.getElementById("message").textContent = state.message;
  const link = document.getElementById("link");
  link.textContent = state.link || "";
  link.hidden = !state.link;
  const hub = document.getElementById("hub");
  hub.textContent = state.hub || "";
  hub.hidden = !state.hub;
  setList(document.getElementById("alerts"), state.alerts);
  const moves = [];
  for (let i = 0; i < state.moves.length; i += 2) moves.push(state.moves.slice(i, i + 2).join("   "));
  setList(document.getElementById("moves"), moves);
  const pending = new Map(state.pending.map((m) => [m.cell, m.need]));
  const errors = new Map(state.errors.map((m) => [m.cell, m.need]));
  const last = new Set(state.last_move);
  document.querySelectorAll("#board .cell").forEach((g, i) => {
    const name = g.dataset.cell;
    let symbol = state.cells[i] || ".";
    const isPending = pending.has(name);
    if (isPending) symbol = pending.get(name);
    else if (errors.has(name) && state.observed[i] && state.observed[i] !== "?") symbol = state.observed[i];
    g.setAttribute("class", ["cell", symbolClass(symbol), isPending ? "pending" : "", errors.has(name) ? "error" : "",
      last.has(name) ? "last" : ""].filter(Boolean).join(" "));
    const count = symbol.length > 1 ? symbol.slice(1) : "";
    g.querySelector(".count").textContent = count;
  });
  document.getElementById("pending").textContent = state.pending.length
    ? "To place: " + state.pending.map((m) => `${NAMES[m.need] || m.need} on ${m.cell}`).join(", ") : "";
  document.querySelectorAll("#leds circle").forEach((c, i) => {
    const led = state.leds[i] || "";
    c.style.fill = led ? (LED_COLOURS[led[0]] || "#888") : "";
    c.setAttribute("class", led.endsWith("!!") ? "fast" : led.endsWith("!") ? "blink" : "");
  });
  const confirm = document.getElementById("confirm-undo");
  if (confirm) confirm.hidden = !state.undo_offer;
  document.dispatchEvent(new CustomEvent("cascade:snapshot", { detail: state }));
}

async function act(name, extra) {
  const body = new URLSearchParams(Object.assign({ token: token }, extra || {}));
  const response = await fetch("/api/action/" + name, { method: "POST", body: body });
  const answer = await response.json();
  document.getElementById("action-result").textContent = answer.message;
}

if (token) {
  document.querySelectorAll("#archive-link, #setup-link").forEach((a) => { a.href += "?token=" + encodeURIComponent(token); });
  const actions = document.getElementById("actions");
  actions.hidden = false;
  actions.querySelectorAll("button").forEach((button) => button.addEventListener("click", () => {
    const name = button.dataset.action;
    const extra = name === "correct" ? { cell: document.getElementById("correct-cell").value,
      symbol: document.getElementById("correct-symbol").value } : {};
    act(name, extra);
  }));
}

apply(JSON.parse(document.getElementById("initial-state").textContent));
const source = new EventSource("/events");
source.addEventListener("snapshot", (event) => apply(JSON.parse(event.data)));

// The camera stream never ends, so it starts after the page has loaded.
window.addEventListener("load", () => {
  const camera = document.getElementById("camera");
  camera.src = camera.dataset.src;
});
