/**
 * The studio pages' only script, served as `/static/studio.js` (the Content-Security-Policy
 * allows scripts from the studio itself and nothing inline). It follows the run's server-sent
 * events (a `change`, and each (re)connection, redraws the live part, each `run` event adds a progress line), moves each
 * clip's retake and pick forms into its card, and asks for confirmation, with the price, before
 * any action is sent (a same-origin POST; the cookie carries the token).
 */
export const STUDIO_SCRIPT = `(() => {
  const body = document.body;
  const liveUrl = body.dataset.live;
  const viewUrl = body.dataset.view;
  const liveState = document.getElementById("live-state");
  const dialog = document.getElementById("confirm");
  let busy = false;
  let again = false;

  function placeForms() {
    for (const actions of document.querySelectorAll(".card-actions")) {
      const step = actions.dataset.forStep;
      const index = actions.dataset.forIndex;
      const card = [...document.querySelectorAll("article.card")].find(
        (c) => c.dataset.step === step && c.dataset.index === index,
      );
      if (card) card.append(actions);
    }
  }

  function editing() {
    const active = document.activeElement;
    return active instanceof HTMLElement && active.closest("#live form") !== null;
  }

  // Where a form's field is, in words that survive a redraw: its place, its form, its name.
  function fieldKey(field) {
    const place = field.closest("[data-step], [data-for-step]");
    const step = place ? (place.dataset.step ?? place.dataset.forStep) : "";
    const index = place ? (place.dataset.index ?? place.dataset.forIndex ?? "") : "";
    const action = field.form ? field.form.dataset.action ?? "" : "";
    return [step, index, action, field.name].join("|");
  }

  // What a person typed into the live part's forms and has not sent yet.
  function typed() {
    const kept = new Map();
    for (const field of document.querySelectorAll("#live form input, #live form textarea")) {
      if (field.value !== field.defaultValue) kept.set(fieldKey(field), field.value);
    }
    return kept;
  }

  async function refresh() {
    if (!viewUrl) return;
    if (busy || editing()) { again = true; return; }
    busy = true;
    try {
      const response = await fetch(viewUrl, { credentials: "same-origin" });
      const html = response.ok ? await response.text() : undefined;
      // A person who started typing while the page was asked for keeps their field.
      if (html !== undefined && editing()) again = true;
      else if (html !== undefined) {
        const kept = typed();
        const live = document.getElementById("live");
        if (live) live.innerHTML = html;
        placeForms();
        for (const field of document.querySelectorAll("#live form input, #live form textarea")) {
          const value = kept.get(fieldKey(field));
          if (value !== undefined) field.value = value;
        }
      }
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  }
  document.addEventListener("focusout", () => { if (again) setTimeout(refresh, 0); });

  function progress(event) {
    const list = document.getElementById("progress");
    if (!list) return;
    const item = document.createElement("li");
    const where = [event.step, event.index ?? event.item].filter((v) => v !== undefined).join(" #");
    const what = [event.status, event.phase].filter(Boolean).join(" ");
    item.textContent = [event.at ? String(event.at).slice(11, 19) : "", event.type, where, what].filter(Boolean).join("  ");
    item.dataset.type = event.type;
    list.prepend(item);
    while (list.children.length > 200) list.lastElementChild.remove();
  }

  function flash(text, failed) {
    if (!liveState) return;
    liveState.textContent = text;
    liveState.className = "live-state" + (failed ? " failed" : "");
  }

  if (liveUrl) {
    const source = new EventSource(liveUrl);
    // Drawn again on (re)connecting too: a change between the page and the stream is not lost.
    source.addEventListener("open", () => { flash("live", false); refresh(); });
    source.addEventListener("error", () => flash("reconnecting…", true));
    source.addEventListener("change", () => refresh());
    source.addEventListener("run", (message) => progress(JSON.parse(message.data)));
  }

  function confirmAction(label, price) {
    return new Promise((resolve) => {
      document.getElementById("confirm-text").textContent = label + "?";
      document.getElementById("confirm-price").textContent = "costs " + price;
      dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
      dialog.returnValue = "";
      dialog.showModal();
    });
  }

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains("action")) return;
    event.preventDefault();
    // A second button of the form (a gate's Reject) carries its own action, label and price.
    const button = event.submitter instanceof HTMLButtonElement && event.submitter.dataset.action ? event.submitter : undefined;
    const target = button ? button.formAction : form.action;
    const label = (button || form).dataset.label;
    if (!(await confirmAction(label, (button || form).dataset.price))) return;
    const fields = Object.fromEntries(new FormData(form));
    const response = await fetch(target, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(fields),
    });
    const answer = await response.json().catch(() => ({}));
    flash(response.ok ? label + (answer.stopping ? ": stopping" : ": started") : (answer.error || "refused (" + response.status + ")"), !response.ok);
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    refresh();
  });

  placeForms();
})();`;
