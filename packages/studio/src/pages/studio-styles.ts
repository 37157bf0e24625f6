/** The studio's own styles, over the report's (`/static/studio.css`). */
export const STUDIO_STYLES = `
.studio-bar { display: flex; gap: 1rem; align-items: baseline; padding: .6rem 1.2rem; background: #1d2330; color: #f3f4f6; font: 14px system-ui, sans-serif; }
.studio-bar a { color: #fff; font-weight: 600; text-decoration: none; }
.studio-bar .crumb { opacity: .8; font-family: ui-monospace, monospace; }
.live-state { margin-left: auto; font-size: 12px; color: #86efac; }
.live-state.failed { color: #fca5a5; }
table.runs { border-collapse: collapse; width: 100%; font-size: 14px; }
table.runs th, table.runs td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid #e5e7eb; vertical-align: top; }
table.runs td.num { text-align: right; font-variant-numeric: tabular-nums; }
#studio-actions { border: 1px solid #c7d2fe; background: #eef2ff; border-radius: 8px; padding: .6rem 1rem; margin: 1rem 0; }
#studio-actions h2 { margin: .2rem 0 .6rem; }
form.action { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .4rem 0; }
form.action label { display: flex; flex-direction: column; font-size: 12px; gap: .15rem; }
form.action textarea { width: 100%; min-width: 14rem; font: 13px system-ui, sans-serif; }
form.action button { padding: .3rem .9rem; border-radius: 6px; border: 1px solid #4f46e5; background: #4f46e5; color: #fff; cursor: pointer; }
form.action button.reject, form.action[data-action="cancel"] button { background: #fff; color: #b91c1c; border-color: #b91c1c; }
form.action .price { font-size: 12px; color: #4338ca; font-weight: 600; }
.gate-actions .question { font-weight: 600; margin: .2rem 0; }
.card-actions { border-top: 1px dashed #d1d5db; margin-top: .4rem; padding-top: .3rem; }
.card-actions details.retake summary { cursor: pointer; font-size: 13px; color: #4338ca; }
.session { font-size: 14px; margin: .2rem 0 .5rem; }
.session.running { color: #92400e; }
.session.failed, .session.rejected { color: #b91c1c; }
.session.database, .where { color: #4338ca; }
.worker { font-size: 12px; color: #6b7280; }
.worker.live { color: #047857; }
#progress { max-height: 18rem; overflow: auto; font: 12px ui-monospace, monospace; padding-left: 1.2rem; }
dialog#confirm { border: 1px solid #4f46e5; border-radius: 8px; padding: 1rem 1.4rem; }
dialog#confirm .price { font-weight: 700; color: #4338ca; }
`;
