import type { RunWorker } from "@reelsmith/distributed/internal";
import {
  escapeHtml,
  formatNumber,
  type ReportModel,
  type StoryboardCard,
} from "@reelsmith/report/page";
import type { SessionState } from "../actions/sessions.js";
import { actionPrices, canResume, type Price } from "../runs/action-prices.js";

/** What the actions of a run page are drawn from. */
export interface ActionView {
  /** The run's name in the studio's URLs. */
  name: string;
  model: ReportModel;
  /** True while a process holds the run's lock. */
  locked: boolean;
  session: { running?: SessionState; last?: SessionState };
  /** A run made with `--database` (its state lives in the database). */
  database?: DatabaseActionView;
}

/** What the page knows of a run of the database. */
export interface DatabaseActionView {
  /** False when this studio is not connected to the run's database: nothing is offered. */
  connected: boolean;
  /** The run has ended; false while its workers run it or it waits at a gate. */
  ended?: boolean;
  cancelling?: boolean;
  workers?: RunWorker[];
  /** Its directory, when it is outside the studio's runs directory (its media are not served). */
  unservedDir?: string;
}

const workerText = (worker: RunWorker) =>
  `${worker.host}${worker.pid ? ` pid ${worker.pid}` : ""} (${worker.live ? "live" : "gone"})`;

/** The actions of a run of the database: its gate, cancel and resume, through its workers. */
function databaseActions(view: ActionView, database: DatabaseActionView): string {
  const prices = actionPrices(view.model);
  const parts: string[] = [];
  if (!database.connected) {
    parts.push(
      `<p class="session database" id="session-state">This run was made with --database: its state lives in the database, and this directory only mirrors it. Start the studio with <code>--database URL</code> (or REELSMITH_DATABASE_URL) to act on it.</p>`,
    );
    return parts.join("");
  }
  const workers = database.workers ?? [];
  parts.push(
    `<p class="session database" id="session-state">${database.cancelling ? "cancelling on its workers" : database.ended ? "on many machines: ended" : "on many machines: its workers run it"}</p><p class="workers">workers: ${workers.length === 0 ? "none yet" : workers.map((worker) => `<span class="worker mono${worker.live ? " live" : ""}">${escapeHtml(workerText(worker))}</span>`).join(", ")}</p>`,
  );
  if (database.unservedDir) {
    parts.push(
      `<p class="session">Its directory <code>${escapeHtml(database.unservedDir)}</code> is outside the studio's runs directory: its media are not shown (start the studio on its artifacts directory).</p>`,
    );
  }
  const waiting = view.model.status === "waiting";
  parts.push(gateForms(view, !waiting || database.cancelling === true));
  // A run at its gate has ended its attempt; cancelling it ends its wait for a decision.
  if ((!database.ended || waiting) && !database.cancelling) {
    parts.push(
      form(
        view,
        "cancel",
        "Cancel the run on its workers (video jobs the service accepted still finish there)",
        { credits: 0, complete: true },
        "",
        "Cancel",
      ),
    );
  }
  if (database.ended && RESUMABLE_DATABASE.has(view.model.status)) {
    parts.push(
      form(view, "resume", "Resume the run on its workers", prices.resume(), "", "Resume"),
    );
  }
  parts.push(
    `<p class="session">Retake and pick are not available for a run made with --database (its clips live in its workers' directories).</p>`,
  );
  return parts.join("");
}

/** Statuses a run of the database is resumed from (a waiting one goes on by its gate). */
const RESUMABLE_DATABASE = new Set(["cancelled", "failed", "budget_reached"]);

const priceText = (price: Price) =>
  price.creditsAtMost !== undefined
    ? `between ${formatNumber(price.credits)} and ${formatNumber(price.creditsAtMost)} credits`
    : `${formatNumber(price.credits)}${price.complete ? "" : "+"} credits`;

function form(
  view: ActionView,
  action: string,
  label: string,
  price: Price,
  fields: string,
  button: string,
  extra = "",
  more = "",
): string {
  return `<form class="action" method="post" action="/api/runs/${encodeURIComponent(view.name)}/${action}" data-action="${action}" data-label="${escapeHtml(label)}" data-price="${escapeHtml(priceText(price))}"${extra}>${fields}<button type="submit">${escapeHtml(button)}</button> <span class="price">${escapeHtml(priceText(price))}</span>${more}</form>`;
}

function gateForms(view: ActionView, busy: boolean): string {
  const prices = actionPrices(view.model);
  const base = `/api/runs/${encodeURIComponent(view.name)}`;
  return view.model.approvals
    .filter((gate) => gate.state === "waiting")
    .map((gate) => {
      const step = `<input type="hidden" name="step" value="${escapeHtml(gate.step)}">`;
      const note = `<label>note <input type="text" name="note" maxlength="500" placeholder="why (journaled)"></label>`;
      // One form, two decisions: the button pressed says which, at what price.
      const reject = prices.reject();
      const rejectButton = `<button type="submit" class="reject" formaction="${base}/reject" data-action="reject" data-label="${escapeHtml(`Reject "${gate.step}"`)}" data-price="${escapeHtml(priceText(reject))}">Reject</button> <span class="price">${escapeHtml(priceText(reject))}</span>`;
      const forms = busy
        ? ""
        : form(
            view,
            "approve",
            `Approve "${gate.step}"`,
            prices.approve(),
            step + note,
            "Approve",
            "",
            rejectButton,
          );
      return `<div class="gate-actions" data-step="${escapeHtml(gate.step)}"><p class="question">${escapeHtml(gate.message)}</p>${forms}</div>`;
    })
    .join("");
}

/** The retake and pick forms of one clip card (the page's script moves them into the card). */
function cardForms(view: ActionView, card: StoryboardCard): string {
  if (card.status === "running" || card.status === "pending") return "";
  const prices = actionPrices(view.model);
  const unit = `<input type="hidden" name="step" value="${escapeHtml(card.step)}">${card.index === undefined ? "" : `<input type="hidden" name="index" value="${card.index}">`}`;
  const label = card.index === undefined ? card.step : `${card.step} #${card.index}`;
  const retake = form(
    view,
    "retake",
    `Retake ${label}`,
    prices.retake(card.step, card),
    `${unit}<label>prompt <textarea name="prompt" rows="3">${escapeHtml(card.prompt ?? "")}</textarea></label><label>seed <input type="number" name="seed" step="1"></label><label>params <input type="text" name="params" placeholder="key=value, one per line or comma"></label>`,
    "Retake",
  );
  const picks = (card.takes ?? [])
    .filter((take) => !take.picked && take.status === "succeeded")
    .map((take) =>
      form(
        view,
        "pick",
        `Pick take ${take.take} of ${label}`,
        prices.pick(),
        `${unit}<input type="hidden" name="take" value="${take.take}">`,
        `Pick take ${take.take}`,
        ` data-take="${take.take}"`,
      ),
    )
    .join("");
  return `<div class="card-actions" data-for-step="${escapeHtml(card.step)}"${card.index === undefined ? "" : ` data-for-index="${card.index}"`}><details class="retake"><summary>retake…</summary>${retake}</details>${picks}</div>`;
}

/**
 * The run's actions: its gate's approve and reject (with a note), resume, cancel, and each
 * clip's retake and pick forms; each form carries its price, shown before it is confirmed.
 * Only what the run's state allows is offered; nothing while a session of it is going.
 * @example const html = renderActions({ name, model, locked: false, session: {} });
 */
export function renderActions(view: ActionView): string {
  if (view.database)
    return `<section id="studio-actions"><h2>Actions</h2>${databaseActions(view, view.database)}</section>`;
  const { model, session } = view;
  const busy = session.running !== undefined || view.locked;
  const prices = actionPrices(model);
  const parts: string[] = [];
  if (session.running) {
    parts.push(
      `<p class="session running" id="session-state">${escapeHtml(session.running.kind)} going on in the studio</p>${form(view, "cancel", "Stop the session gently (paid jobs are waited for)", { credits: 0, complete: true }, "", "Cancel")}`,
    );
  } else if (view.locked) {
    parts.push(
      `<p class="session running" id="session-state">another process drives this run: following it</p>`,
    );
  } else if (session.last?.result) {
    const result = session.last.result;
    parts.push(
      `<p class="session ${escapeHtml(result.status)}" id="session-state">last ${escapeHtml(session.last.kind)}: ${escapeHtml(result.status)}${result.error ? ` — ${escapeHtml(result.error)}` : ""}</p>`,
    );
  }
  parts.push(gateForms(view, busy));
  if (!busy && canResume(model, view.locked)) {
    parts.push(form(view, "resume", "Resume the run", prices.resume(), "", "Resume"));
  }
  const cards = busy ? "" : model.cards.map((card) => cardForms(view, card)).join("");
  return `<section id="studio-actions"><h2>Actions</h2>${parts.join("")}<div class="card-forms" hidden>${cards}</div></section>`;
}
