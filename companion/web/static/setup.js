// The set-up page: follows the calibration under way (its step, problems and camera preview) and, with the
// token, answers it and starts a new game. The page asks for the state about every second.
"use strict";
(function () {
  const token = new URLSearchParams(location.search).get("token");
  const $ = (id) => document.getElementById(id);
  const say = (words) => { $("setup-message").textContent = words; };
  let state = null;
  let previewAt = 0;

  function show(next) {
    state = next;
    const calibration = next.calibration;
    $("calibration").hidden = !calibration;
    $("calibration-status").textContent = calibration ? "Calibrating the " + calibration.board + " board"
      : next.calibrated ? "The board is calibrated" + (next.saved ? ": profile saved to " + next.saved : "") + "."
        : "The board is not calibrated yet.";
    $("calibrate").textContent = calibration ? "Start the calibration again"
      : next.calibrated ? "Calibrate the board again" : "Calibrate the board";
    if (!calibration) return;
    const step = calibration.step;
    $("step-number").textContent = "Step " + calibration.number + " of " + calibration.steps;
    $("step-title").textContent = step.title;
    $("step-instructions").textContent = step.instructions;
    $("problems").replaceChildren(...calibration.problems.map((p) => {
      const li = document.createElement("li");
      li.textContent = p.what + ": " + p.fix;
      return li;
    }));
    $("leds-words").textContent = calibration.leds;
    $("grid-question").hidden = !step.asks;
    $("capture-again").hidden = !(["stones", "verify", "done"].includes(step.name));
    $("map-leds").hidden = !(calibration.can_map_leds && !calibration.mapping);
    $("save-profile").hidden = !(calibration.done && !calibration.mapping);
    if (Date.now() - previewAt > 700 && calibration.frames > 0) {
      previewAt = Date.now();
      $("preview").src = $("preview").dataset.src + "?frame=" + calibration.frames;
    }
  }

  async function refresh() {
    try {
      const response = await fetch("/api/setup");
      if (response.ok) show(await response.json());
    } catch (error) { say("The companion cannot be reached: check the network"); }
  }

  async function act(name, body) {
    try {
      const response = await fetch("/api/setup/" + name, { method: "POST", body: JSON.stringify(body || {}),
        headers: { "Content-Type": "application/json", "X-Cascade-Token": token } });
      const answer = await response.json().catch(() => ({ ok: false, message: "the page answered " + response.status }));
      say(answer.message);
      if (answer.state) show(answer.state);
      return answer;
    } catch (error) {
      say("The companion cannot be reached: check the network, then try again");
      return { ok: false };
    }
  }

  if (token) {
    document.querySelectorAll(".controls").forEach((element) => { element.hidden = false; });
    $("read-only").hidden = true;
    $("calibrate").addEventListener("click", () => act("calibrate"));
    $("grid-yes").addEventListener("click", () => act("answer", { yes: "yes" }));
    $("grid-no").addEventListener("click", () => act("answer", { yes: "no" }));
    $("capture-again").addEventListener("click", () => act("again"));
    $("map-leds").addEventListener("click", () => act("map_leds"));
    $("save-profile").addEventListener("click", () => act("save"));
    $("new-game").addEventListener("click", () => {
      const body = { white: $("new-white").value, black: $("new-black").value };
      if ($("new-variant")) body.variant = $("new-variant").value;
      if ($("new-first")) body.first = $("new-first").value;
      act("new_game", body);
    });
  }
  refresh();
  setInterval(refresh, 900);
})();
