/** The page's only stylesheet (inline; allowed by its hash in the Content-Security-Policy). */
export const STYLES = `
:root{color-scheme:light dark;--bg:#f6f7f9;--fg:#1c2024;--muted:#646b73;--card:#fff;--line:#dde1e6;--ok:#1f8a4c;--bad:#c62f2f;--run:#b7791f;--accent:#3867d6}
@media (prefers-color-scheme:dark){:root{--bg:#15171a;--fg:#e6e8eb;--muted:#9aa1a9;--card:#1e2125;--line:#30353b}}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
main{max-width:1400px;margin:0 auto;padding:20px 24px 60px}
h1{font-size:22px;margin:0 0 4px}
h2{font-size:17px;margin:28px 0 10px;border-bottom:1px solid var(--line);padding-bottom:4px}
h2 small{font-weight:normal;color:var(--muted);font-size:13px}
.mono,pre,code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
pre{white-space:pre-wrap;word-break:break-word;margin:4px 0;background:var(--bg);padding:6px 8px;border-radius:4px}
.header dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:8px 0}
.header dt{color:var(--muted)}
.header dd{margin:0}
.status-line{font-size:15px}
.badge{display:inline-block;padding:0 6px;border-radius:8px;font-size:11px;font-weight:600;text-transform:uppercase;letter-spacing:.02em;background:var(--line);color:var(--fg)}
.badge.succeeded,.badge.cached,.badge.reused{background:#d4f3df;color:#14532d}
.badge.failed{background:#fbd5d5;color:#7f1d1d}
.badge.running,.badge.pending,.badge.cancelled{background:#fdecc8;color:#713f12}
.badge.waiting{background:#d6e4fb;color:#1e3a8a}
.badge.rejected,.badge.timed_out{background:#fbd5d5;color:#7f1d1d}
.badge.approved{background:#d4f3df;color:#14532d}
.gates{display:grid;gap:12px}
.gate{background:var(--card);border:1px solid var(--line);border-left:4px solid var(--accent);border-radius:8px;padding:8px 12px}
.gate.rejected,.gate.timed_out{border-left-color:var(--bad)}
.gate.approved{border-left-color:var(--ok)}
.gate header{display:flex;gap:10px;align-items:center}
.gate .label{font-weight:600}
.gate .message{margin:6px 0;font-size:15px}
.gate dl{display:grid;grid-template-columns:max-content 1fr;gap:0 10px;margin:4px 0;font-size:13px}
.gate dt{color:var(--muted)}
.gate dd{margin:0}
.next{margin:4px 0}
.next-steps{margin:0 0 10px;padding-left:20px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:12px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;overflow:hidden;display:flex;flex-direction:column}
.grid.many .card{content-visibility:auto;contain-intrinsic-size:220px 330px}
.card.failed{border-color:var(--bad)}
.thumb{display:block;width:100%;height:auto;aspect-ratio:16/9;object-fit:contain;background:#000}
.thumb.none{display:flex;align-items:center;justify-content:center;color:#aaa;font-size:12px;text-transform:uppercase}
.card header{display:flex;justify-content:space-between;align-items:center;padding:6px 10px 0}
.card .label{font-weight:600}
.card .prompt{margin:4px 10px;font-size:13px;max-height:7.5em;overflow:auto;white-space:pre-wrap;word-break:break-word}
.card .facts{margin:0 10px;color:var(--muted);font-size:12px}
.card dl{display:grid;grid-template-columns:max-content 1fr;gap:0 8px;margin:4px 10px;font-size:12px}
.card dt{color:var(--muted)}
.card dd{margin:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.card details.play{margin:4px 10px 8px}
.card details.play summary{cursor:pointer;color:var(--accent);font-size:12px}
.card video{width:100%;margin-top:4px;background:#000}
.card.retaken{grid-column:span 2}
.takes{display:grid;grid-template-columns:repeat(auto-fill,minmax(120px,1fr));gap:6px;margin:4px 10px 8px;border-top:1px solid var(--line);padding-top:6px}
.take{margin:0;border:1px solid var(--line);border-radius:6px;overflow:hidden;font-size:11px}
.take.picked{border-color:var(--accent);box-shadow:0 0 0 1px var(--accent)}
.take figcaption{display:flex;flex-direction:column;gap:2px;padding:4px 6px}
.take .take-prompt{max-height:4.5em;overflow:auto;white-space:pre-wrap;word-break:break-word}
.badge.picked{color:var(--accent);font-weight:600}
.card a.file{display:block;font-size:11px;color:var(--muted);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.error-text{color:var(--bad);margin:4px 10px 8px;font-size:12px;white-space:pre-wrap}
.final-media{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
.final-media figure{margin:0}
video.final{max-width:min(100%,720px);max-height:80vh;background:#000;display:block}
.thumbs{display:flex;flex-wrap:wrap;gap:10px;margin:8px 0}
.thumbs figure{margin:0;max-width:200px}
.thumbs img.thumb{width:auto;height:auto;max-width:min(100%,200px);max-height:200px;aspect-ratio:auto;object-fit:contain;background:none;border:1px solid var(--line)}
.made h3{margin:12px 0 4px;font-size:14px}
img.sheet{max-width:min(100%,640px);display:block;border:1px solid var(--line)}
figcaption{color:var(--muted);margin-top:2px}
.legend{list-style:none;display:flex;flex-wrap:wrap;gap:4px 14px;padding:0;margin:0 0 6px;font-size:12px;color:var(--muted)}
.swatch{display:inline-block;width:12px;height:10px;border-radius:2px;margin-right:4px;vertical-align:middle}
.gantt{display:block;background:var(--card);border:1px solid var(--line);border-radius:6px}
.gantt text{font-size:10px;fill:var(--fg)}
.gantt .tick{stroke:var(--line);stroke-width:1}
.gantt .tick-label{fill:var(--muted);font-size:9px}
.gantt .resume{stroke:var(--accent);stroke-width:1.5;stroke-dasharray:4 3}
.gantt .bar.failed .row-label{fill:var(--bad)}
.p-waiting{fill:#c9ced6;background:#c9ced6}
.p-submitted{fill:#f0b44c;background:#f0b44c}
.p-polling{fill:#3f8ee8;background:#3f8ee8}
.p-downloading{fill:#27b5a4;background:#27b5a4}
.w-0{fill:#8e5bd8;background:#8e5bd8}
.w-1{fill:#e0609a;background:#e0609a}
.w-2{fill:#7a8491;background:#7a8491}
.w-3{fill:#5fa83b;background:#5fa83b}
.w-4{fill:#c2763a;background:#c2763a}
.w-5{fill:#2f6f9f;background:#2f6f9f}
#costs{overflow-x:auto}
table.costs{border-collapse:collapse;background:var(--card);border:1px solid var(--line);min-width:60%}
.costs th,.costs td{padding:4px 10px;border-bottom:1px solid var(--line);text-align:left}
.costs .num{text-align:right;font-variant-numeric:tabular-nums}
.costs tr.sub th{font-weight:normal;padding-left:22px;color:var(--muted)}
.costs tfoot th,.costs tfoot td{font-weight:700;border-top:2px solid var(--fg)}
.note{color:var(--muted);font-size:12px}
.other-unit{white-space:nowrap}
.other-units{font-weight:600}
details.chat{background:var(--card);border:1px solid var(--line);border-radius:6px;margin:6px 0;padding:6px 10px}
details.chat summary{cursor:pointer}
.excerpt{color:var(--muted)}
ol.messages{list-style:none;padding:0;margin:6px 0}
.message{margin:6px 0}
.message .role{font-size:11px;text-transform:uppercase;color:var(--muted);font-weight:600}
.tool-call{font-size:12px;margin-left:10px}
ul.errors{list-style:none;padding:0}
li.error{background:var(--card);border-left:4px solid var(--bad);padding:6px 10px;margin:6px 0}
.location{color:var(--accent)}
footer{margin-top:40px;color:var(--muted);font-size:12px}
`;
