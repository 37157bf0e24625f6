import { escapeHtml } from "@reelsmith/report/page";

/**
 * A studio page around its content: the stylesheets and the script come from the studio
 * itself (`/static/…`, allowed by the Content-Security-Policy's 'self'); nothing inline runs.
 * @example renderShell("runs", "<h1>runs</h1>")
 */
export function renderShell(title: string, content: string, bodyAttributes = ""): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} — reelsmith studio</title>
<link rel="stylesheet" href="/static/report.css">
<link rel="stylesheet" href="/static/studio.css">
</head>
<body${bodyAttributes}>
<nav class="studio-bar"><a href="/">reelsmith studio</a><span class="crumb">${escapeHtml(title)}</span><span id="live-state" class="live-state"></span></nav>
<main>
${content}
</main>
<dialog id="confirm"><form method="dialog"><p id="confirm-text"></p><p id="confirm-price" class="price"></p><button value="cancel" id="confirm-cancel">Cancel</button> <button value="ok" id="confirm-ok">Confirm</button></form></dialog>
<script src="/static/report.js"></script>
<script src="/static/studio.js"></script>
</body>
</html>
`;
}
