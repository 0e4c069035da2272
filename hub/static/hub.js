// The hub's page: each "board" event (Server-Sent Events) updates that board's card or full view.
"use strict";
const STONES = { o: "s-o", x: "s-x", "=": "s-r" };

function setText(root, selector, text) {
  const element = root.querySelector(selector);
  if (element && element.textContent !== text) element.textContent = text;
}

function setList(element, items) {
  if (!element) return;
  if (Array.from(element.children).map((li) => li.textContent).join("\n") === items.join("\n")) return;
  element.replaceChildren(...items.map((text) => { const li = document.createElement("li"); li.textContent = text; return li; }));
}

function applyBoard(view) {
  const root = document.getElementById("board-" + view.board);
  if (!root) { if (document.getElementById("boards")) location.reload(); return; }
  const svg = root.querySelector("svg");
  if (view.geometry && (!svg || svg.dataset.spec !== view.geometry)) { location.reload(); return; }
  if (svg) {
    svg.querySelectorAll(".cell").forEach((g, i) => {
      const symbol = (view.cells[i] || ".")[0];
      const wanted = "cell" + (STONES[symbol] ? " " + STONES[symbol] : "");
      if (g.getAttribute("class") !== wanted) g.setAttribute("class", wanted);
    });
  }
  setText(root, ".white", view.white || "White");
  setText(root, ".black", view.black || "Black");
  setText(root, ".score", Object.entries(view.score).map(([name, value]) => name + " " + value).join("  "));
  setText(root, ".turn", view.result ? "Game over: " + view.result : view.turn);
  setText(root, ".plies", view.moves.length + (view.moves.length === 1 ? " ply" : " plies"));
  setText(root, ".message", view.message);
  if (root.dataset.single) {
    setList(root.querySelector(".alerts"), view.alerts.concat(view.behind ? [view.behind] : []));
    const pairs = [];
    for (let i = 0; i < view.moves.length; i += 2) pairs.push(view.moves.slice(i, i + 2).join("   "));
    setList(root.querySelector(".moves"), pairs);
  } else {
    root.classList.toggle("alerted", view.alerts.length > 0 || !!view.behind);
    alerts.set(view.board, view.alerts.map((a) => "board " + view.board + ": " + a).concat(view.behind ? [view.behind] : []));
    setList(document.getElementById("alerts"), Array.from(alerts.values()).flat());
  }
  root.dataset.applied = view.applied;
}

const alerts = new Map();
const source = new EventSource("/events");
source.addEventListener("board", (event) => applyBoard(JSON.parse(event.data)));
