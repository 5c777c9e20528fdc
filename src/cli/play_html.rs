//! `boardlab play --html`: the human seat plays in a browser. A small HTTP
//! server on localhost (std only, a thread per connection) serves one page
//! that draws the seat's view with the viewer's SVG ([`Picture::draw`]),
//! lists the legal moves as buttons, and shows the action log and result.
//!
//! The game loop is `play`'s ([`super::play::play_at`]); this is its
//! [`Table`]. What reaches the page is only what the human seat may see: the
//! board is drawn from the seat's view (a determinization for the seat,
//! drawn from its point of view), the log is narrated in the seat's words.
//! The page polls `/state?after=N`, which answers when the state's version
//! passes N; a click posts the move's key to `/move`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use serde::Serialize;

use super::play::{Table, play_at};
use crate::agents::human::{Reply, normal, seat_line};
use crate::agents::registry::AgentSpec;
use crate::arena::AgentFactory;
use crate::game::PlayerId;
use crate::view::Picture;

/// What the page shows, as JSON.
#[derive(Clone, Default, Serialize)]
struct Shown {
    version: u64,
    title: String,
    seat: String,
    layers: Vec<String>,
    view_box: Option<String>,
    text: Option<String>,
    moves: Vec<(String, String)>,
    log: Vec<String>,
    over: Option<String>,
    notice: String,
    legend: Vec<(String, String)>,
}

/// A command from the page.
enum Command {
    Move(String),
    Undo,
    Quit,
}

/// The page's state, shared with the connection threads.
type Board = Arc<(Mutex<Shown>, Condvar)>;

/// The browser table: publishes what the seat sees, waits for its clicks.
struct Browser {
    shown: Board,
    commands: Receiver<Command>,
}

impl Browser {
    fn publish(&self, change: impl FnOnce(&mut Shown)) {
        let (lock, ready) = &*self.shown;
        let mut s = lock.lock().unwrap_or_else(|e| e.into_inner());
        change(&mut s);
        s.version += 1;
        ready.notify_all();
    }

    /// Draws `state` as `pov` sees it: the viewer's SVG, or its text.
    fn draw<G: Picture>(game: &G, state: &G::State, pov: PlayerId, s: &mut Shown) {
        match game.canvas(std::slice::from_ref(state)) {
            Some(c) => {
                s.layers = game.draw(state, Some(pov), &c);
                s.view_box = Some(format!("{} {} {} {}", c.x, c.y, c.w, c.h));
                s.text = None;
            }
            None => {
                s.layers.clear();
                s.view_box = None;
                s.text = Some(game.render(state, Some(pov)));
            }
        }
    }
}

impl<G: Picture> Table<G> for Browser {
    fn say(&mut self, line: &str) {
        println!("{line}");
        let line = line.to_string();
        self.publish(|s| {
            s.notice = if line.starts_with("cannot undo") {
                line.clone()
            } else {
                String::new()
            };
            s.log.push(line);
        });
    }

    fn ask(
        &mut self,
        game: &G,
        view: &G::State,
        p: PlayerId,
        moves: &[(String, String)],
        again: bool,
    ) -> Reply {
        if !again {
            self.publish(|s| {
                Self::draw(game, view, p, s);
                s.seat = seat_line(&game.seat_name(view, p), p);
                s.moves = moves.to_vec();
            });
        }
        let keys: Vec<String> = moves.iter().map(|(k, _)| normal(k)).collect();
        loop {
            let Ok(command) = self.commands.recv() else {
                return Reply::EndOfInput;
            };
            match command {
                Command::Move(key) => {
                    if let Some(i) = keys.iter().position(|k| *k == normal(&key)) {
                        self.publish(|s| {
                            s.moves.clear();
                            s.notice.clear();
                        });
                        return Reply::Move(i);
                    }
                    self.publish(|s| s.notice = format!("'{key}' is not a move here"));
                }
                Command::Undo => return Reply::Undo,
                Command::Quit => return Reply::Quit,
            }
        }
    }

    fn finish(&mut self, game: &G, state: &G::State, viewer: Option<PlayerId>, result: &[String]) {
        for line in result {
            println!("{line}");
        }
        let result = result.join("; ");
        self.publish(|s| {
            if let Some(p) = viewer {
                Self::draw(game, state, p, s);
            }
            s.moves.clear();
            s.over = Some(result);
        });
        // The page stays until the person closes the game.
        while let Ok(command) = self.commands.recv() {
            if let Command::Quit = command {
                break;
            }
        }
        println!("game ended: closed in the browser");
    }
}

/// Plays one game with the single human seat in a browser, served on
/// 127.0.0.1:`port` (0: a free port), until the page quits.
pub fn play_one<G: Picture>(
    game: &G,
    specs: &[AgentSpec],
    factories: &[Option<AgentFactory<G>>],
    seed: u64,
    port: u16,
) -> Result<()> {
    let humans = specs.iter().filter(|s| s.spec.name == "human").count();
    if humans != 1 {
        bail!(
            "play --html needs exactly one human seat (one browser sees one seat's view); {humans} given"
        );
    }
    let listener = TcpListener::bind(("127.0.0.1", port))
        .with_context(|| format!("cannot listen on 127.0.0.1:{port}"))?;
    let port = listener.local_addr()?.port();
    let shown: Board = Arc::new((
        Mutex::new(Shown {
            title: format!("{} (seed {seed})", game.spec()),
            legend: game.legend(),
            ..Shown::default()
        }),
        Condvar::new(),
    ));
    let (send, commands) = channel();
    {
        let shown = shown.clone();
        std::thread::spawn(move || serve(listener, port, shown, send));
    }
    println!(
        "playing in the browser: open http://127.0.0.1:{port}/ (the page's Quit ends the game)"
    );
    let _ = std::io::stdout().flush();
    play_at(
        game,
        specs,
        factories,
        seed,
        &mut Browser { shown, commands },
    )
}

/// Accepts connections, one thread each.
fn serve(listener: TcpListener, port: u16, shown: Board, send: Sender<Command>) {
    for stream in listener.incoming().flatten() {
        let shown = shown.clone();
        let send = send.clone();
        std::thread::spawn(move || {
            let _ = answer(stream, port, &shown, &send);
        });
    }
}

/// The largest request head and body read.
const MAX_HEAD: u64 = 16 * 1024;
const MAX_BODY: usize = 1024;

/// Reads one request and answers it.
fn answer(stream: TcpStream, port: u16, shown: &Board, send: &Sender<Command>) -> Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?.take(MAX_HEAD));
    let mut first = String::new();
    reader.read_line(&mut first)?;
    let mut parts = first.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let mut length = 0usize;
    let mut host_ok = false;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            let value = value.trim();
            match name.trim().to_ascii_lowercase().as_str() {
                "content-length" => length = value.parse().unwrap_or(usize::MAX),
                // Only pages of this server may drive it (no DNS rebinding).
                "host" => {
                    host_ok =
                        value == format!("127.0.0.1:{port}") || value == format!("localhost:{port}")
                }
                _ => {}
            }
        }
    }
    let mut out = stream;
    if !host_ok {
        return respond(&mut out, "403 Forbidden", "text/plain", "wrong host");
    }
    if length > MAX_BODY {
        return respond(&mut out, "413 Payload Too Large", "text/plain", "too long");
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let body = String::from_utf8_lossy(&body).to_string();
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    match (method, path) {
        ("GET", "/") => respond(&mut out, "200 OK", "text/html; charset=utf-8", PAGE),
        ("GET", "/state") => {
            let after: u64 = query
                .strip_prefix("after=")
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            let (lock, ready) = &**shown;
            let s = lock.lock().unwrap_or_else(|e| e.into_inner());
            let (s, _) = ready
                .wait_timeout_while(s, Duration::from_secs(20), |s| s.version <= after)
                .unwrap_or_else(|e| e.into_inner());
            let json = serde_json::to_string(&*s)?;
            drop(s);
            respond(&mut out, "200 OK", "application/json", &json)
        }
        ("POST", "/move" | "/undo" | "/quit") => {
            respond(&mut out, "200 OK", "text/plain", "ok")?;
            let command = match path {
                "/move" => Command::Move(body),
                "/undo" => Command::Undo,
                _ => Command::Quit,
            };
            let _ = send.send(command);
            Ok(())
        }
        _ => respond(&mut out, "404 Not Found", "text/plain", "not found"),
    }
}

fn respond(out: &mut TcpStream, status: &str, kind: &str, body: &str) -> Result<()> {
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    out.flush()?;
    Ok(())
}

/// The page: the viewer's styles, the board, the moves, the log.
const PAGE: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>boardlab play</title>
<link rel="icon" href="data:,">
<style>
body { font-family: system-ui, sans-serif; margin: 0; background: #f4f1ea; color: #222; }
header { padding: 8px 16px; background: #2d3142; color: #fff; display: flex; gap: 12px; align-items: center; }
header h1 { font-size: 18px; margin: 0; flex: 1; }
main { display: flex; gap: 12px; padding: 12px 16px; align-items: flex-start; }
#board-wrap { flex: 3; min-width: 0; }
#board { width: 100%; height: auto; max-height: 78vh; background: #fffdf8; border: 1px solid #ccc; }
#board text { font-family: system-ui, sans-serif; }
#text { background: #fffdf8; border: 1px solid #ccc; padding: 8px; font-size: 13px; overflow: auto; }
#seat { font-weight: bold; margin: 6px 0; }
#notice { color: #a00; min-height: 1.2em; }
#result { font-size: 16px; font-weight: bold; background: #ffe28a; padding: 6px; }
#moves { display: flex; flex-wrap: wrap; gap: 6px; }
#moves button { font-size: 13px; text-align: left; }
#moves button b { font-family: monospace; margin-right: 6px; }
aside { flex: 1; min-width: 260px; max-width: 420px; }
aside h2 { font-size: 15px; margin: 0 0 6px; }
#log { height: 70vh; overflow: auto; margin: 0; padding-left: 2.4em; font-size: 13px; background: #fffdf8; border: 1px solid #ccc; }
#legend { padding: 0 16px 16px; font-size: 13px; }
#legend dt { font-weight: bold; float: left; clear: left; min-width: 9em; }
#legend dd { margin-left: 10em; }
</style>
</head>
<body>
<header><h1 id="title">boardlab play</h1><button id="undo">undo</button><button id="quit">quit</button></header>
<main>
<section id="board-wrap">
<div id="result" hidden></div>
<svg id="board" xmlns="http://www.w3.org/2000/svg"></svg>
<pre id="text" hidden></pre>
<div id="seat"></div>
<div id="notice"></div>
<div id="moves"></div>
</section>
<aside><h2>Actions</h2><ol id="log"></ol></aside>
</main>
<section id="legend"></section>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
let version = 0, legendShown = false, closed = false;
function render(s) {
  version = s.version;
  document.title = $("title").textContent = s.title;
  if (s.view_box) {
    $("board").hidden = false; $("text").hidden = true;
    $("board").setAttribute("viewBox", s.view_box);
    $("board").innerHTML = s.layers.join("");
  } else if (s.text !== null) {
    $("board").hidden = true; $("text").hidden = false;
    $("text").textContent = s.text;
  }
  $("seat").textContent = s.seat;
  $("notice").textContent = s.notice;
  const moves = $("moves");
  moves.textContent = "";
  for (const [key, label] of s.moves) {
    const b = document.createElement("button");
    b.dataset.key = key;
    const k = document.createElement("b"); k.textContent = key;
    b.appendChild(k); b.appendChild(document.createTextNode(label));
    b.onclick = () => send("/move", key);
    moves.appendChild(b);
  }
  const log = $("log");
  for (let i = log.children.length; i < s.log.length; i++) {
    const li = document.createElement("li"); li.textContent = s.log[i]; log.appendChild(li);
  }
  if (log.lastChild) log.lastChild.scrollIntoView({ block: "nearest" });
  if (s.over !== null) { $("result").hidden = false; $("result").textContent = "game over: " + s.over; $("undo").disabled = true; }
  if (!legendShown && s.legend.length) {
    legendShown = true;
    const h = document.createElement("h2"); h.textContent = "Legend"; $("legend").appendChild(h);
    const dl = document.createElement("dl");
    for (const [sym, meaning] of s.legend) {
      const dt = document.createElement("dt"); dt.textContent = sym;
      const dd = document.createElement("dd"); dd.textContent = meaning;
      dl.appendChild(dt); dl.appendChild(dd);
    }
    $("legend").appendChild(dl);
  }
}
async function poll() {
  while (!closed) {
    try {
      const r = await fetch("/state?after=" + version);
      const s = await r.json();
      // A state that arrives after quitting must not bring the moves back.
      if (closed) return;
      render(s);
    } catch (e) {
      if (!closed) { $("notice").textContent = "the game's server is gone"; }
      return;
    }
  }
}
async function send(path, body) {
  for (const b of $("moves").querySelectorAll("button")) b.disabled = true;
  await fetch(path, { method: "POST", body: body || "" });
}
$("undo").onclick = () => send("/undo");
$("quit").onclick = async () => {
  closed = true;
  await send("/quit");
  $("notice").textContent = "game closed";
  $("moves").textContent = "";
  $("undo").disabled = $("quit").disabled = true;
};
poll();
</script>
</body>
</html>
"#;
