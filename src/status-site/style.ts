/**
 * The one stylesheet of the status site: system fonts only (nothing is
 * fetched), light and dark by `prefers-color-scheme`, tables that scroll
 * inside their box on a narrow screen. Colors keep text at a contrast of
 * 4.5:1 or more. The interface is English and left to right on every page;
 * logical properties keep it right should it ever be mirrored. Bars are
 * SVGs colored here, so the pages need no style attribute.
 */
export const STYLESHEET = `:root {
  color-scheme: light dark;
  --text: #1f2328;
  --muted: #57606a;
  --page: #ffffff;
  --panel: #f6f8fa;
  --line: #d0d7de;
  --link: #0550ae;
  --good: #1a7f37;
  --failing: #cf222e;
  --fuzzy: #bf8700;
  --empty: #e6e9ec;
}
@media (prefers-color-scheme: dark) {
  :root {
    --text: #e6edf3;
    --muted: #9da7b3;
    --page: #0d1117;
    --panel: #161b22;
    --line: #30363d;
    --link: #79c0ff;
    --good: #3fb950;
    --failing: #f85149;
    --fuzzy: #d29922;
    --empty: #30363d;
  }
}
* { box-sizing: border-box; }
body {
  margin: 0;
  background: var(--page);
  color: var(--text);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;
}
a { color: var(--link); }
a:focus-visible, .scroll:focus-visible { outline: 2px solid var(--link); outline-offset: 2px; }
.skip { position: absolute; inset-inline-start: -100vw; }
.skip:focus { inset-inline-start: 1rem; top: 1rem; background: var(--page); padding: .25rem .5rem; }
header, main, footer { max-width: 72rem; margin: 0 auto; padding: 0 1rem; }
header { padding-block: .75rem; border-block-end: 1px solid var(--line); }
header ol { display: flex; flex-wrap: wrap; gap: .25rem .5rem; margin: 0; padding: 0; list-style: none; }
header li:not(:last-child)::after { content: "›"; margin-inline-start: .5rem; color: var(--muted); }
h1 { font-size: 1.75rem; margin: 1.25rem 0 .75rem; overflow-wrap: anywhere; }
h2 { font-size: 1.25rem; margin: 1.5rem 0 .5rem; }
footer { margin-block: 2rem; padding-block: 1rem; border-block-start: 1px solid var(--line); color: var(--muted); font-size: .875rem; }
.notice { background: var(--panel); border: 1px solid var(--line); border-inline-start: 4px solid var(--link); padding: .75rem 1rem; }
.badge { margin: 0 0 .5rem; }
.bar { display: block; width: 100%; height: .75rem; min-width: 4rem; background: var(--empty); border-radius: .375rem; overflow: hidden; }
.bar .good { fill: var(--good); }
.bar .failing { fill: var(--failing); }
.bar .fuzzy { fill: var(--fuzzy); }
.legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: .5rem 0 0; padding: 0; list-style: none; color: var(--muted); font-size: .875rem; }
.swatch { display: inline-block; width: .75rem; height: .75rem; margin-inline-end: .375rem; border-radius: .1875rem; vertical-align: -.0625rem; }
.swatch.good { background: var(--good); }
.swatch.failing { background: var(--failing); }
.swatch.fuzzy { background: var(--fuzzy); }
.swatch.empty { background: var(--empty); box-shadow: inset 0 0 0 1px var(--line); }
.figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: .5rem 1.5rem; margin: 1rem 0; }
.figures div { border-block-start: 1px solid var(--line); padding-block-start: .25rem; }
.figures dt { color: var(--muted); font-size: .875rem; }
.figures dd { margin: 0; }
.scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: .375rem; }
table { border-collapse: collapse; width: 100%; font-size: .9375rem; }
th, td { padding: .5rem .75rem; text-align: start; border-block-end: 1px solid var(--line); white-space: nowrap; }
thead th { background: var(--panel); color: var(--muted); font-weight: 600; font-size: .8125rem; }
tbody th { font-weight: 500; white-space: normal; min-width: 8rem; }
td.share .bar { display: inline-block; width: 6rem; vertical-align: middle; margin-inline-end: .5rem; }
.widget { border-block-start: 1px solid var(--line); padding-block: .5rem; }
.widget h3 { font-size: 1rem; margin: .5rem 0; }
.widget img { max-width: 100%; height: auto; }
.widget label { display: block; color: var(--muted); font-size: .875rem; }
.widget textarea { box-sizing: border-box; width: 100%; font: .8125rem/1.4 ui-monospace, monospace; color: inherit; background: var(--panel); border: 1px solid var(--line); border-radius: .25rem; resize: vertical; }
`;
