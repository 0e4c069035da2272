// Playing the computer on the page: its ply, a hint, and the teaching mode (legal cells, what a drop would cause).
"use strict";
(() => {
  const token = new URLSearchParams(location.search).get("token");
  const line = document.getElementById("computer");
  const colour = document.getElementById("preview-colour");
  let state = JSON.parse(document.getElementById("initial-state").textContent);

  function mark(cells, cls) {
    const wanted = new Set(cells);
    document.querySelectorAll("#board .cell").forEach((g) => g.classList.toggle(cls, wanted.has(g.dataset.cell)));
  }

  function show(next) {
    state = next;
    line.textContent = state.computer || "";
    line.hidden = !state.computer;
    mark(state.suggested.map((m) => m.cell), "suggested");
    mark(state.legal, "legal");
    if (!state.teaching) mark([], "preview");
    const teach = document.getElementById("teach-state");
    if (teach) teach.textContent = state.teaching ? "on" : "off";
  }

  async function point(cell) {
    if (!token || !state.teaching) return;
    const query = new URLSearchParams({ cell: cell });
    if (colour && colour.value) query.set("colour", colour.value);
    const response = await fetch("/api/preview?" + query, { headers: { "X-Cascade-Token": token } });
    const answer = await response.json();
    mark(answer.ok ? answer.cells.map((m) => m.cell) : [], "preview");
  }

  document.querySelectorAll("#board .cell").forEach((g) => {
    g.addEventListener("mouseenter", () => point(g.dataset.cell));
    g.addEventListener("click", () => point(g.dataset.cell));
  });
  // page.js draws each snapshot, then tells; the computer's marks go on top.
  document.addEventListener("cascade:snapshot", (event) => show(event.detail));
  show(state);
})();
