// The archive: the list's filter, a game's replay step by step, and (with the token) its corrections.
// It also runs inside a downloaded replay file, where only the replay is present.
"use strict";
(function () {
  const params = new URLSearchParams(location.search);
  const token = params.get("token");
  const $ = (id) => document.getElementById(id);

  // -- the list of games: the filter builds the address (the page's policy allows no form submission)
  const go = $("filter-go");
  if (go) {
    const show = () => {
      const wanted = new URLSearchParams();
      if ($("filter-game").value) wanted.set("game", $("filter-game").value);
      if ($("filter-player").value.trim()) wanted.set("player", $("filter-player").value.trim());
      if (token) wanted.set("token", token);
      location.assign("/games" + (wanted.toString() ? "?" + wanted : ""));
    };
    go.addEventListener("click", show);
    $("filter-player").addEventListener("keydown", (event) => { if (event.key === "Enter") show(); });
    $("filter-game").addEventListener("change", show);
  }

  // -- a game's replay
  const dataElement = $("replay-data");
  if (!dataElement) return;
  const data = JSON.parse(dataElement.textContent);
  const steps = data.steps;
  const images = new Set(data.images || []);
  const COLOURS = { o: "s-o", x: "s-x", "=": "s-r" };
  const cells = Array.from(document.querySelectorAll("#board .cell"));
  const links = Array.from(document.querySelectorAll("#ply-list a"));
  let at = 0;
  const fromHash = /^#step-(\d+)$/.exec(location.hash);
  if (fromHash && Number(fromHash[1]) < steps.length) at = Number(fromHash[1]);

  function paint() {
    const step = steps[at];
    const changed = new Set(step.changed);
    cells.forEach((g, i) => {
      const symbol = step.cells[i] || ".";
      g.setAttribute("class", ["cell", COLOURS[symbol[0]] || "", changed.has(g.dataset.cell) ? "last" : ""]
        .filter(Boolean).join(" "));
      g.querySelector(".count").textContent = symbol.length > 1 ? symbol.slice(1) : "";
    });
    $("step-words").textContent = step.words;
    $("step-count").textContent = (at + 1) + " / " + steps.length;
    links.forEach((a) => a.classList.toggle("current", Number(a.dataset.ply) === step.ply));
    const picture = $("ply-picture");
    if (picture) {
      const show = step.ply > 0 && images.has(step.ply);
      picture.hidden = !show;
      if (show) picture.src = "/games/" + data.game + "/ply/" + step.ply + ".jpg";
    }
  }
  function go_to(index) { at = Math.max(0, Math.min(steps.length - 1, index)); paint(); }
  function plyEnd(direction) {
    const ply = steps[at].ply;
    let index = at;
    if (direction > 0) { while (index < steps.length - 1 && steps[index].ply <= ply) index++;
      while (index < steps.length - 1 && steps[index + 1].ply === steps[index].ply) index++; }
    else { while (index > 0 && steps[index].ply >= ply) index--;
      while (index > 0 && steps[index - 1].ply === steps[index].ply) index--;
      while (index < steps.length - 1 && steps[index + 1].ply === steps[index].ply) index++; }
    go_to(index);
  }
  $("step-first").addEventListener("click", () => go_to(0));
  $("step-prev").addEventListener("click", () => go_to(at - 1));
  $("step-next").addEventListener("click", () => go_to(at + 1));
  $("step-last").addEventListener("click", () => go_to(steps.length - 1));
  links.forEach((a) => a.addEventListener("click", (event) => {
    event.preventDefault();
    if (Number(a.dataset.step) >= 0) go_to(Number(a.dataset.step));
  }));
  document.addEventListener("keydown", (event) => {
    if (event.target.closest && event.target.closest("input, select, textarea, button")) return;
    const moves = { ArrowRight: () => go_to(at + 1), ArrowLeft: () => go_to(at - 1), Home: () => go_to(0),
      End: () => go_to(steps.length - 1), ArrowDown: () => plyEnd(1), ArrowUp: () => plyEnd(-1) };
    if (moves[event.key]) { event.preventDefault(); moves[event.key](); }
  });
  paint();

  // -- corrections, with the token
  const edit = $("edit");
  if (!edit || !token) return;
  edit.hidden = false;
  const say = (words) => { $("edit-message").textContent = words; };
  async function post(path, body) {
    try {
      const response = await fetch(path, { method: "POST", body: JSON.stringify(body),
        headers: { "Content-Type": "application/json", "X-Cascade-Token": token } });
      const answer = await response.json().catch(() => ({ ok: false, message: "the page answered " + response.status }));
      say(answer.message);
      return answer;
    } catch (error) {
      say("The companion cannot be reached: check the network, then try again");
      return { ok: false };
    }
  }
  const base = "/api/games/" + data.game;
  const reloadSoon = () => setTimeout(() => location.reload(), 800);
  $("save-players").addEventListener("click", async () => {
    const answer = await post(base + "/players", { white: $("edit-white").value, black: $("edit-black").value });
    if (answer.ok) reloadSoon();
  });
  if ($("save-result")) $("save-result").addEventListener("click", async () => {
    const answer = await post(base + "/result", { result: $("edit-result-value").value });
    if (answer.ok) reloadSoon();
  });
  const plySelect = $("correct-ply");
  if (!plySelect) return;
  plySelect.addEventListener("change", () => {
    $("correct-text").value = plySelect.selectedOptions[0].dataset.text;
    $("correct-cut").hidden = true;
    const link = $("ply-" + plySelect.value);
    if (link && Number(link.dataset.step) >= 0) go_to(Number(link.dataset.step));
  });
  const correction = (extra) => Object.assign({ ply: plySelect.value, text: $("correct-text").value }, extra);
  $("correct-check").addEventListener("click", async () => {
    const answer = await post(base + "/correct", correction({ check: "yes" }));
    $("correct-cut").hidden = !(answer.ok && answer.misfit);
  });
  $("correct-save").addEventListener("click", async () => {
    const answer = await post(base + "/correct", correction({}));
    if (answer.ok) reloadSoon();
    else if (/cut the game there/.test(answer.message || "")) $("correct-cut").hidden = false;
  });
  $("correct-cut").addEventListener("click", async () => {
    const answer = await post(base + "/correct", correction({ cut: "yes" }));
    if (answer.ok) reloadSoon();
  });
})();
