import type { ChatUnit, ReportModel } from "../model/report-model.js";
import { escapeHtml, jsonBlock } from "./escape.js";

/** Tokens as the cost table counts them; a cached answer's own tokens are shown as saved. */
function tokensText(chat: ChatUnit): string {
  if (chat.tokens === undefined) return "";
  const saved = chat.savedTokens ? ` (${chat.savedTokens} saved: from the cache)` : "";
  return ` · <span class="tokens">${chat.tokens} tokens${escapeHtml(saved)}</span>`;
}

function chatHtml(chat: ChatUnit): string {
  const label = chat.index === undefined ? chat.step : `${chat.step} #${chat.index}`;
  const messages = chat.messages
    .map((message) => {
      const calls = message.toolCalls
        .map(
          (call) =>
            `<div class="tool-call">calls <b>${escapeHtml(call.name)}</b><pre>${escapeHtml(call.arguments)}</pre></div>`,
        )
        .join("");
      const content = message.content
        ? `<pre class="content">${escapeHtml(message.content)}</pre>`
        : "";
      return `<li class="message ${escapeHtml(message.role)}"><span class="role">${escapeHtml(message.role)}${message.toolCallId ? ` (${escapeHtml(message.toolCallId)})` : ""}</span>${content}${calls}</li>`;
    })
    .join("");
  const json =
    chat.json === undefined
      ? ""
      : `<details class="json"><summary>JSON output</summary><pre>${jsonBlock(chat.json)}</pre></details>`;
  const excerpt = (chat.text ?? "").replace(/\s+/g, " ").slice(0, 120);
  return `<details class="chat" data-step="${escapeHtml(chat.step)}"><summary><b>${escapeHtml(label)}</b> <span class="badge ${escapeHtml(chat.status)}">${escapeHtml(chat.status)}</span> ${escapeHtml(chat.model ?? "")}${tokensText(chat)} <span class="excerpt">${escapeHtml(excerpt)}</span></summary><ol class="messages">${messages}</ol>${json}</details>`;
}

/** Chat steps: their conversation, tool calls and JSON outputs, collapsed by default. */
export function renderChats(model: ReportModel): string {
  if (model.chats.length === 0) return "";
  return `<section id="chats"><h2>Chat</h2>${model.chats.map(chatHtml).join("")}</section>`;
}

/** Failures of steps and items, with where the step is written in the pipeline. */
export function renderErrors(model: ReportModel): string {
  if (model.errors.length === 0) return "";
  const items = model.errors
    .map((error) => {
      const label = error.index === undefined ? error.step : `${error.step} #${error.index}`;
      return `<li class="error"><b>${escapeHtml(label)}</b>${error.location ? ` <span class="mono location">${escapeHtml(error.location)}</span>` : ""}<div class="mono">${escapeHtml(error.name)}${error.code ? ` (${escapeHtml(error.code)})` : ""}</div><pre>${escapeHtml(error.message)}</pre></li>`;
    })
    .join("");
  return `<section id="errors"><h2>Errors</h2><ul class="errors">${items}</ul></section>`;
}
