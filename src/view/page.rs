//! The viewer's HTML page: styles and the stepping script inline, the frames
//! as one JSON block. No network, no server.

/// The page for `title` with the frames and steps in `data` (JSON).
pub(super) fn html(title: &str, data: &str) -> String {
    // With every `<` escaped (JSON allows `\u003c` in any string, and has
    // no `<` outside one), no text of a trace can end the script element
    // early (`</script>`) or keep it open past its end (`<!--<script>`).
    let data = data.replace('<', "\\u003c");
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{STYLE}</style>
</head>
<body>
<header><h1 id="title"></h1><div id="meta"></div></header>
<div id="controls">
<button id="first" title="first state (Home)">|◀</button>
<button id="back" title="step back (←)">◀</button>
<button id="play" title="play / pause (space)">▶ play</button>
<button id="fwd" title="step forward (→)">▶</button>
<button id="last" title="last state (End)">▶|</button>
<label>step <input id="jump" type="number" min="0" value="0"> / <span id="total"></span></label>
<input id="slider" type="range" min="0" value="0">
<label>speed <select id="speed"><option value="1000">1/s</option><option value="400" selected>2.5/s</option><option value="150">7/s</option><option value="40">25/s</option></select></label>
<label>point of view <select id="pov"></select></label>
</div>
<main>
<section id="board-wrap">
<div id="status"></div>
<svg id="board" xmlns="http://www.w3.org/2000/svg"></svg>
<pre id="text" hidden></pre>
<div id="search"></div>
</section>
<aside>
<h2>Actions</h2>
<ol id="log" start="0"></ol>
</aside>
</main>
<section id="legend"></section>
<script type="application/json" id="data">{data}</script>
<script>{SCRIPT}</script>
</body>
</html>
"#,
        title = super::svg::esc(title)
    )
}

const STYLE: &str = r#"
body { font-family: system-ui, sans-serif; margin: 0; background: #f4f1ea; color: #222; }
header { padding: 8px 16px; background: #2d3142; color: #fff; }
header h1 { font-size: 18px; margin: 0 0 4px; }
#meta { font-size: 13px; opacity: .9; }
#controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 8px 16px; background: #e4dfd3; position: sticky; top: 0; z-index: 2; }
#controls button { font-size: 15px; min-width: 36px; }
#jump { width: 70px; }
#slider { flex: 1; min-width: 160px; }
main { display: flex; gap: 12px; padding: 12px 16px; align-items: flex-start; }
#board-wrap { flex: 3; min-width: 0; }
#board { width: 100%; height: auto; max-height: 82vh; background: #fffdf8; border: 1px solid #ccc; }
#board text { font-family: system-ui, sans-serif; }
#text { background: #fffdf8; border: 1px solid #ccc; padding: 8px; font-size: 13px; overflow: auto; }
#status { font-size: 14px; margin-bottom: 6px; min-height: 1.2em; }
aside { flex: 1; min-width: 260px; max-width: 420px; }
aside h2 { font-size: 15px; margin: 0 0 6px; }
#log { height: 78vh; overflow: auto; margin: 0; padding-left: 3.2em; font-size: 13px; background: #fffdf8; border: 1px solid #ccc; }
#log li { cursor: pointer; padding: 1px 4px; }
#log li.chance { color: #6a5a2a; }
#log li.chance::before { content: "chance"; font-size: 10px; background: #e9d9a6; border-radius: 3px; padding: 0 3px; margin-right: 4px; }
#log li.current { background: #ffe28a; }
#log li.future { color: #999; }
.seat0 { border-left: 4px solid #1f77b4; } .seat1 { border-left: 4px solid #d62728; }
.seat2 { border-left: 4px solid #2ca02c; } .seat3 { border-left: 4px solid #9467bd; }
.seat4 { border-left: 4px solid #8c564b; } .seat5 { border-left: 4px solid #e377c2; }
#search table { border-collapse: collapse; font-size: 13px; margin-top: 8px; }
#search td, #search th { padding: 2px 8px; border-bottom: 1px solid #ddd; text-align: left; }
#search tr.chosen { background: #ffe28a; }
#search .bar { display: inline-block; height: 10px; background: #5b8def; }
#legend { padding: 0 16px 16px; font-size: 13px; }
#legend dt { font-weight: bold; float: left; clear: left; min-width: 7em; }
#legend dd { margin-left: 8em; }
"#;

const SCRIPT: &str = r#"
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const $ = (id) => document.getElementById(id);
const last = D.frames.length - 1;
let idx = 0, pov = 0, timer = null;
$("title").textContent = D.title;
$("meta").textContent = D.agents.map((a, p) => "seat " + p + ": " + a + (D.roles[p] ? " [" + D.roles[p] + "]" : "")).join(" · ") + " · result: " + D.result;
$("total").textContent = last;
$("jump").max = last;
$("slider").max = last;
D.povs.forEach((name, i) => { const o = document.createElement("option"); o.value = i; o.textContent = name; $("pov").appendChild(o); });
if (!D.hidden) { $("pov").title = "a game without hidden information: every seat sees everything"; }
if (D.view_box) { $("board").setAttribute("viewBox", D.view_box); } else { $("board").hidden = true; $("text").hidden = false; }
const label = (s) => s.l[Math.min(pov, s.l.length - 1)];
const who = (s) => s.p === null ? "chance" : "seat " + s.p;
const whoLog = (s) => s.p === null ? "" : "seat " + s.p + ": ";
// The log marks each seat in the drawing's colour where the game has its own.
D.seat_colours.forEach((c, p) => {
  const st = document.createElement("style");
  st.textContent = ".seat" + p + " { border-left-color: " + c + "; }";
  document.head.appendChild(st);
});
const log = $("log");
D.steps.forEach((s, i) => {
  const li = document.createElement("li");
  li.className = (s.p === null ? "chance " : "seat" + s.p + " ");
  li.dataset.step = i;
  li.addEventListener("click", () => show(i + 1));
  log.appendChild(li);
});
function relabel() {
  D.steps.forEach((s, i) => { log.children[i].textContent = whoLog(s) + label(s); });
}
function searchTable() {
  const box = $("search");
  box.textContent = "";
  const s = D.steps[idx];
  if (!s || !s.s || (pov !== 0 && s.p !== pov - 1)) return;
  const max = Math.max(...s.s.map((c) => c[1]), 1);
  const h = document.createElement("div");
  h.textContent = "Why " + who(s) + " played \"" + label(s) + "\": the search's root candidates (visits, mean value for the mover)";
  box.appendChild(h);
  const t = document.createElement("table");
  t.innerHTML = "<tr><th>action</th><th>visits</th><th></th><th>value</th></tr>";
  const chosen = s.l[Math.min(s.p + 1, s.l.length - 1)];
  for (const [name, visits, value] of s.s) {
    const tr = document.createElement("tr");
    if (name === chosen) tr.className = "chosen";
    const cells = [name, visits, "", value.toFixed(3)];
    cells.forEach((c, k) => { const td = document.createElement("td"); if (k === 2) { const b = document.createElement("span"); b.className = "bar"; b.style.width = Math.round(120 * visits / max) + "px"; td.appendChild(b); } else { td.textContent = c; } tr.appendChild(td); });
    t.appendChild(tr);
  }
  box.appendChild(t);
}
function show(i) {
  idx = Math.max(0, Math.min(last, i | 0));
  const parts = D.frames[idx][pov];
  if (D.view_box) { $("board").innerHTML = parts.map((k) => D.pool[k]).join(""); }
  else { $("text").textContent = D.pool[parts[0]]; }
  $("jump").value = idx;
  $("slider").value = idx;
  const prev = D.steps[idx - 1];
  const next = D.steps[idx];
  $("status").textContent = "state " + idx + " of " + last +
    (prev ? " · last: " + who(prev) + ": " + label(prev) : " · start") +
    (next ? " · next: " + who(next) : " · game over: " + D.result);
  for (const li of log.querySelectorAll(".current")) li.classList.remove("current");
  log.querySelectorAll("li").forEach((li, k) => li.classList.toggle("future", k >= idx));
  if (idx > 0) { const li = log.children[idx - 1]; li.classList.add("current"); li.scrollIntoView({ block: "nearest" }); }
  searchTable();
  // The address names what is shown, so a copied link opens it again.
  history.replaceState(null, '', '#step=' + idx + '&pov=' + (pov === 0 ? 'all' : pov - 1));
}
function stop() { if (timer) { clearInterval(timer); timer = null; } $("play").textContent = "▶ play"; }
function play() {
  if (timer) { stop(); return; }
  if (idx >= last) show(0);
  $("play").textContent = "⏸ pause";
  timer = setInterval(() => { if (idx >= last) { stop(); } else { show(idx + 1); } }, +$("speed").value);
}
$("first").onclick = () => { stop(); show(0); };
$("back").onclick = () => { stop(); show(idx - 1); };
$("fwd").onclick = () => { stop(); show(idx + 1); };
$("last").onclick = () => { stop(); show(last); };
$("play").onclick = play;
$("speed").onchange = () => { if (timer) { stop(); play(); } };
$("jump").onchange = () => { stop(); show(+$("jump").value); };
$("slider").oninput = () => { stop(); show(+$("slider").value); };
$("pov").onchange = () => { pov = +$("pov").value; relabel(); show(idx); };
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  if (e.key === "ArrowRight") { stop(); show(idx + 1); e.preventDefault(); }
  else if (e.key === "ArrowLeft") { stop(); show(idx - 1); e.preventDefault(); }
  else if (e.key === "Home") { stop(); show(0); e.preventDefault(); }
  else if (e.key === "End") { stop(); show(last); e.preventDefault(); }
  else if (e.key === " ") { play(); e.preventDefault(); }
});
if (D.legend.length) {
  const dl = document.createElement("dl");
  const h = document.createElement("h2"); h.textContent = "Legend"; $("legend").appendChild(h);
  for (const [sym, meaning] of D.legend) {
    const dt = document.createElement("dt"); dt.textContent = sym;
    const dd = document.createElement("dd"); dd.textContent = meaning;
    dl.appendChild(dt); dl.appendChild(dd);
  }
  $("legend").appendChild(dl);
}
// A link may name a state and a point of view: page.html#step=40&pov=1 is
// seat 1's view (seats count from 0, as everywhere), pov=all everything.
const want = new URLSearchParams(location.hash.slice(1));
if (want.has("pov") && want.get("pov") !== "all") {
  const seat = parseInt(want.get("pov"), 10);
  if (seat >= 0 && seat + 1 < D.povs.length) { pov = seat + 1; $("pov").value = pov; }
}
relabel();
show(want.has("step") ? +want.get("step") : 0);
"#;
