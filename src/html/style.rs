//! The HTML report's one stylesheet, inline: it fits a phone (the tables marked `stack` reflow into
//! one block per row, each cell under its column's name; the others scroll in their own box with
//! the first column kept in view; diagrams scale with their box, their text at one size on screen
//! where the browser can divide lengths in `calc()`; names wrap between words, never inside one
//! that fits; the rank plot at its own size, scrolling beside its pinned run names) and prints on
//! paper.

pub const CSS: &str = "\
*{box-sizing:border-box}\
body{margin:0;font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1d1d1f;background:#fff}\
main{max-width:1100px;margin:0 auto;padding:16px}\
h1{font-size:1.5rem;margin:.2em 0;overflow-wrap:break-word}\
h2{font-size:1.2rem;margin:1.4em 0 .4em;border-bottom:1px solid #ddd;overflow-wrap:break-word}\
h3{font-size:1.05rem;margin:1.2em 0 .4em;overflow-wrap:break-word}h4{font-size:1rem;margin:1em 0 .3em}\
p,li{overflow-wrap:break-word}.meta,footer{color:#555;font-size:.9em}.warn{color:#8a1c1c;font-weight:600}\
a{color:#1f5fa8}ul{padding-left:1.2em}\
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(200px,1fr));gap:10px}\
.card{border:1px solid #ddd;border-radius:8px;padding:10px;display:flex;flex-direction:column;gap:2px;min-width:0}\
.card .label{font-size:.85em;color:#555}.card .value{font-size:1.6em;font-weight:600;font-variant-numeric:tabular-nums}\
.card .ci{font-size:.85em;color:#333}.card .how{font-size:.8em;color:#555;overflow-wrap:break-word}\
.scroll{overflow-x:auto;max-width:100%;margin:.4em 0}\
table{border-collapse:collapse;font-size:.9em;font-variant-numeric:tabular-nums}\
th,td{padding:3px 8px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}\
thead th{border-bottom:1px solid #bbb;white-space:nowrap}.num{text-align:right;white-space:nowrap}\
tbody th{font-weight:500;position:sticky;left:0;background:#fff;max-width:40vw;overflow-wrap:break-word}\
tr.tier th{padding-left:1.6em;font-weight:400}\
div.figures{display:flex;flex-wrap:wrap;gap:12px}figure{margin:0;flex:1 1 360px;min-width:0;max-width:600px}\
svg{width:100%;height:auto;display:block}figcaption{font-size:.8em;color:#555}\
svg text{font:11px system-ui,sans-serif;fill:#333}.grid{stroke:#e4e4e4}.frame{fill:none;stroke:#999}\
.diagonal{stroke:#888;stroke-dasharray:4 3}.baseline{stroke:#999}.bar{fill:#4c78a8}\
.gap.over{fill:#e45756;opacity:.35}.gap.under{fill:#54a24b;opacity:.35}.conf{stroke:#222;stroke-width:1.5}\
.ci{stroke:#222}.hist{fill:#9ecae9}\
.pair{margin:1em 0}caption{text-align:left;font-weight:600;padding:.3em 0}td.same,.rank-plot .same text{color:#b8470d;fill:#b8470d}footer{margin:2em 0 1em;border-top:1px solid #ddd;padding-top:.5em}\
.leaderboard-view figure{max-width:680px}.rank-scroll{display:flex;align-items:flex-start}\
.rank-names{flex:none;position:sticky;left:0;z-index:1;max-width:min(190px,45%);padding:6px 8px 0 0;background:#fff;\
font-size:11px;line-height:16px;text-align:right}\
.rank-names .run-name{height:16px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}.rank-axis{padding-top:4px}\
.rank-plot{flex:none;width:auto;height:auto}\
@supports (width:calc(1px*2px/1px)){figure{container-type:inline-size}\
svg text{font-size:calc(11px*560px/100cqw)}.rank-plot text{font-size:11px}}\
@media (max-width:600px){main{padding:10px}table.stack,table.stack tbody{display:block}\
table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}\
table.stack tr{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:2px 10px;padding:5px 0;border-bottom:1px solid #eee}\
table.stack th,table.stack td{padding:0;border:0;text-align:left;white-space:normal}\
table.stack tbody th{position:static;grid-column:1/-1;max-width:none}table.stack td.what{grid-column:1/-1}\
table.stack td.interval{grid-column:span 2}table.stack td:empty{display:none}\
table.stack td[data-label]::before{content:attr(data-label);display:block;color:#555;font-size:.8em}\
table.stack caption{display:block}table.stack.leaderboard tr{grid-template-columns:repeat(4,minmax(0,1fr))}\
table.stack.leaderboard tbody th{order:-1}table.stack.leaderboard td{order:4}table.stack.leaderboard td:nth-of-type(1){order:0}\
table.stack.leaderboard td:nth-of-type(2){order:3}table.stack.leaderboard td:nth-of-type(3){order:1}\
table.stack.leaderboard td.interval{order:2}}\
@media print{body{font-size:10pt}main{max-width:none;padding:0}.scroll{overflow:visible}\
tbody th{position:static}.card,figure,tr{break-inside:avoid}h2,h3{break-after:avoid}\
a{color:inherit;text-decoration:none}.top{display:none}\
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}";
