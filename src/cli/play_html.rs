//! `boardlab play --html`: the human seat plays in a browser. A small HTTP
//! server on localhost (std only) serves one page that draws the seat's view
//! with the viewer's SVG ([`Picture::draw`]), lists the legal moves as
//! buttons, and shows the action log and result.
//!
//! The game loop is `play`'s ([`super::play::play_at`]); this is its
//! [`Table`]. What reaches the page is only what the human seat may see: the
//! board is drawn from the seat's view (a determinization for the seat,
//! drawn from its point of view), the log is narrated in the seat's words.
//! The page polls `/state?after=N`, which answers when the state's version
//! passes N; a click posts the move's key to `/move`.
//!
//! Only the page this server served may drive the game. Each served game has
//! a random secret, embedded in the page, that every request but the page
//! itself must carry (`X-Boardlab-Secret`; a header, so a cross-site page
//! cannot even send it without a preflight this server refuses); requests
//! naming another host (DNS rebinding) or another origin are refused too.
//! Connections are capped ([`MAX_CONNECTIONS`], each with a deadline for its
//! request), and so are the moves waiting for the game ([`MAX_QUEUED`]). The
//! game has a clear end: when it is over, quit or stopped by an error, the
//! page is told so and the server stops.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde::Serialize;

use super::play::{Table, play_at};
use crate::agents::human::{Reply, normal};
use crate::agents::registry::AgentSpec;
use crate::arena::AgentFactory;
use crate::game::{Outcome, PlayerId};
use crate::view::Picture;

/// The most connections served at once; more are answered "503" and closed.
/// The page needs two (its long poll and a click).
pub const MAX_CONNECTIONS: usize = 16;
/// The most moves (and undos) waiting for the game; more are answered "429".
pub const MAX_QUEUED: usize = 4;
/// How long a connection may take to send its request.
const REQUEST_DEADLINE: Duration = Duration::from_secs(5);
/// How long a long poll of `/state` waits for a change.
const POLL_WAIT: Duration = Duration::from_secs(20);
/// How long the server stays up after the game's end for the page to learn
/// of it (it usually has within milliseconds: its long poll is waiting).
const END_GRACE: Duration = Duration::from_secs(10);
/// The header that carries the game's secret.
const SECRET_HEADER: &str = "x-boardlab-secret";

/// What the page shows, as JSON.
#[derive(Clone, Default, Serialize)]
struct Shown {
    version: u64,
    title: String,
    /// The status line: whose move it is, or how the game ended.
    status: String,
    layers: Vec<String>,
    view_box: Option<String>,
    text: Option<String>,
    moves: Vec<(String, String)>,
    /// Each move's picks: the parts of the drawing clicked, in order, to
    /// choose it (`data-pick`); empty for a move chosen by its button only.
    picks: Vec<Vec<String>>,
    log: Vec<String>,
    over: Option<String>,
    /// Set when the game has stopped (over, quit or an error) and the server
    /// with it: what the page says.
    stopped: Option<String>,
    notice: String,
    legend: Vec<(String, String)>,
}

/// A command from the page.
enum Command {
    Move(String),
    Undo,
    Quit,
}

/// How the game ended, as the table saw it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    Over,
    Quit,
}

/// What the game loop and the connection threads share.
struct Server {
    port: u16,
    secret: String,
    shown: Mutex<Shown>,
    changed: Condvar,
    commands: Mutex<Sender<Command>>,
    /// Moves and undos sent and not yet taken by the game.
    queued: AtomicUsize,
    /// Connections being answered.
    live: AtomicUsize,
    /// The highest version a `/state` answer has carried.
    delivered: AtomicU64,
    /// The page asked to quit: the next question answers it.
    quit: AtomicBool,
    /// The game has ended: no more commands are taken.
    closed: AtomicBool,
    /// The server is stopping: polls answer at once, nothing more is accepted.
    stopping: AtomicBool,
}

impl Server {
    fn publish(&self, change: impl FnOnce(&mut Shown)) {
        let mut s = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        change(&mut s);
        s.version += 1;
        self.changed.notify_all();
    }

    fn version(&self) -> u64 {
        self.shown.lock().unwrap_or_else(|e| e.into_inner()).version
    }

    /// Stops taking commands and says why the game stopped.
    fn close(&self, why: &str, status: Option<&str>) {
        self.closed.store(true, Ordering::SeqCst);
        self.publish(|s| {
            s.moves.clear();
            s.picks.clear();
            s.notice.clear();
            if let Some(status) = status {
                s.status = status.to_string();
            }
            s.stopped = Some(format!(
                "{why}. The game has stopped and its server is closed: you can close this tab."
            ));
        });
    }

    /// Stops the server: waits (at most [`END_GRACE`]) until the page has
    /// been sent the last state if `deliver`, then answers every waiting
    /// poll, stops accepting and lets the open connections finish.
    fn stop(&self, acceptor: JoinHandle<()>, deliver: bool) {
        let last = self.version();
        let start = Instant::now();
        while deliver && self.delivered.load(Ordering::SeqCst) < last && start.elapsed() < END_GRACE
        {
            std::thread::sleep(Duration::from_millis(10));
        }
        {
            let _s = self.shown.lock().unwrap_or_else(|e| e.into_inner());
            self.stopping.store(true, Ordering::SeqCst);
            self.changed.notify_all();
        }
        // Wakes the acceptor, which sees `stopping` and returns.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        let _ = acceptor.join();
        let start = Instant::now();
        while self.live.load(Ordering::SeqCst) > 0 && start.elapsed() < Duration::from_secs(2) {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// The browser table: publishes what the seat sees, waits for its clicks.
struct Browser {
    server: Arc<Server>,
    commands: Receiver<Command>,
    end: Option<End>,
}

impl Browser {
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

    /// The next command, a quit first.
    fn next(&mut self) -> Option<Command> {
        if self.server.quit.load(Ordering::SeqCst) {
            return Some(Command::Quit);
        }
        let command = self.commands.recv().ok()?;
        if matches!(command, Command::Move(_) | Command::Undo) {
            self.server.queued.fetch_sub(1, Ordering::SeqCst);
        }
        if self.server.quit.load(Ordering::SeqCst) {
            return Some(Command::Quit);
        }
        Some(command)
    }
}

/// The status line of the human's turn: "your move: you hold seat 0,
/// playing X" (the role when there is one). The page calls a seat a seat.
fn your_move(role: &str, p: PlayerId) -> String {
    if role.is_empty() {
        format!("your move: you hold seat {p}")
    } else {
        format!("your move: you hold seat {p}, {role}")
    }
}

/// The status line at the end, for the seat `viewer`.
fn ending(viewer: Option<PlayerId>, outcomes: &[Outcome], truncated: bool) -> String {
    let how = if truncated {
        "game over at the length cap"
    } else {
        "game over"
    };
    match viewer.and_then(|p| outcomes.get(p as usize).map(|o| (p, o))) {
        Some((p, Outcome::Win)) => format!("{how}: you (seat {p}) won"),
        Some((p, Outcome::Loss)) => format!("{how}: you (seat {p}) lost"),
        Some((p, Outcome::Draw)) => format!("{how}: you (seat {p}) drew"),
        None => how.to_string(),
    }
}

impl<G: Picture> Table<G> for Browser {
    fn say(&mut self, line: &str) {
        println!("{line}");
        let line = line.to_string();
        self.server.publish(|s| {
            s.notice = if line.starts_with("cannot undo") {
                line.clone()
            } else {
                String::new()
            };
            s.log.push(line);
        });
    }

    fn played(&mut self, line: &str) {
        <Self as Table<G>>::say(self, line);
    }

    fn ask(
        &mut self,
        game: &G,
        view: &G::State,
        p: PlayerId,
        moves: &[(String, String)],
        picks: &[Vec<String>],
        again: bool,
    ) -> Reply {
        if !again {
            self.server.publish(|s| {
                Self::draw(game, view, p, s);
                s.status = your_move(&game.seat_name(view, p), p);
                s.moves = moves.to_vec();
                s.picks = picks.to_vec();
            });
        }
        let keys: Vec<String> = moves.iter().map(|(k, _)| normal(k)).collect();
        loop {
            let Some(command) = self.next() else {
                return Reply::EndOfInput;
            };
            match command {
                Command::Move(key) => {
                    if let Some(i) = keys.iter().position(|k| *k == normal(&key)) {
                        self.server.publish(|s| {
                            s.moves.clear();
                            s.picks.clear();
                            s.notice.clear();
                            s.status = "waiting for the other seats".into();
                        });
                        return Reply::Move(i);
                    }
                    self.server
                        .publish(|s| s.notice = format!("'{key}' is not a move here"));
                }
                Command::Undo => return Reply::Undo,
                Command::Quit => {
                    self.end = Some(End::Quit);
                    return Reply::Quit;
                }
            }
        }
    }

    fn finish(
        &mut self,
        game: &G,
        state: &G::State,
        viewer: Option<PlayerId>,
        result: &[String],
        outcomes: &[Outcome],
        truncated: bool,
    ) {
        for line in result {
            println!("{line}");
        }
        let result = result.join("; ");
        self.end = Some(End::Over);
        self.server.publish(|s| {
            if let Some(p) = viewer {
                Self::draw(game, state, p, s);
            }
            s.over = Some(result);
        });
        self.server.close(
            "The game is over",
            Some(&ending(viewer, outcomes, truncated)),
        );
    }
}

/// Plays one game with the single human seat in a browser, served on
/// 127.0.0.1:`port` (0: a free port), until the game ends or the page quits;
/// then the server stops.
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
    let (send, commands) = channel();
    let server = Arc::new(Server {
        port,
        secret: format!("{:032x}", rand::random::<u128>()),
        shown: Mutex::new(Shown {
            title: format!("{} (seed {seed})", game.spec()),
            legend: game.legend(),
            ..Shown::default()
        }),
        changed: Condvar::new(),
        commands: Mutex::new(send),
        queued: AtomicUsize::new(0),
        live: AtomicUsize::new(0),
        delivered: AtomicU64::new(0),
        quit: AtomicBool::new(false),
        closed: AtomicBool::new(false),
        stopping: AtomicBool::new(false),
    });
    let acceptor = {
        let server = server.clone();
        std::thread::spawn(move || serve(listener, server))
    };
    println!(
        "playing in the browser: open http://127.0.0.1:{port}/ (the page's Quit ends the game)"
    );
    let _ = std::io::stdout().flush();
    let mut table = Browser {
        server: server.clone(),
        commands,
        end: None,
    };
    let played = play_at(game, specs, factories, seed, &mut table);
    match (&played, table.end) {
        (Ok(()), Some(End::Quit)) => {
            server.close("You quit", Some("game stopped: you quit"));
            server.stop(acceptor, false);
            println!("game ended: quit in the browser; the server has stopped");
        }
        (Ok(()), _) => {
            server.stop(acceptor, true);
            println!("game ended: the server has stopped");
        }
        (Err(e), _) => {
            server.close(&format!("{e:#}"), Some("game stopped by an error"));
            server.stop(acceptor, true);
        }
    }
    let _ = std::io::stdout().flush();
    played
}

/// Accepts connections, a thread each, at most [`MAX_CONNECTIONS`] at once;
/// those beyond are handed to one thread that refuses them.
fn serve(listener: TcpListener, server: Arc<Server>) {
    let (refuse, refused) = std::sync::mpsc::sync_channel::<TcpStream>(64);
    std::thread::spawn(move || {
        for stream in refused {
            turn_away(stream);
        }
    });
    for stream in listener.incoming() {
        if server.stopping.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = stream else {
            // Out of descriptors, say: wait for some to close.
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        if server.live.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            server.live.fetch_sub(1, Ordering::SeqCst);
            // A flood beyond what the refusing thread keeps up with is
            // closed unanswered.
            let _ = refuse.try_send(stream);
            continue;
        }
        let server = server.clone();
        std::thread::spawn(move || {
            // Counted until closed: the client sees the end after the count.
            let _ = answer(&stream, &server);
            server.live.fetch_sub(1, Ordering::SeqCst);
            drop(stream);
        });
    }
}

/// Answers a connection beyond the cap "503" after reading what its client
/// sent (a socket closed on unread bytes is reset, and the answer lost),
/// waiting a few milliseconds at most: a client that sends nothing at once
/// is closed.
fn turn_away(mut stream: TcpStream) {
    let wait = Some(Duration::from_millis(20));
    let _ = stream.set_read_timeout(wait);
    let _ = stream.set_write_timeout(wait);
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while seen.len() < MAX_HEAD as usize && !seen.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf) {
            Ok(n) if n > 0 => seen.extend_from_slice(&buf[..n]),
            _ => break,
        }
    }
    let _ = respond(
        &mut stream,
        "503 Service Unavailable",
        "text/plain",
        &format!("too many connections: this game serves at most {MAX_CONNECTIONS} at once"),
    );
    let _ = stream.shutdown(std::net::Shutdown::Write);
    while let Ok(n) = stream.read(&mut buf) {
        if n == 0 {
            break;
        }
    }
}

/// The largest request head and body read.
const MAX_HEAD: u64 = 16 * 1024;
const MAX_BODY: usize = 1024;

/// A connection read under one deadline for the whole request, however
/// slowly its bytes come.
struct Deadline {
    stream: TcpStream,
    until: Instant,
}

impl Read for Deadline {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        self.stream.read(buf)
    }
}

/// Whether two secrets are equal, in time independent of where they differ.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// What a request's header lines say: its body's length, and whether its
/// host, origin and secret are this game's.
struct Head {
    length: usize,
    host_ok: bool,
    origin_ok: bool,
    secret_ok: bool,
}

/// Reads the header lines after the request line, up to the blank line.
fn read_head(reader: &mut impl BufRead, server: &Server) -> Result<Head> {
    let port = server.port;
    let mut length = 0usize;
    let mut host_ok = false;
    let mut origin_ok = true;
    let mut secret_ok = false;
    let ours = [format!("127.0.0.1:{port}"), format!("localhost:{port}")];
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
                "host" => host_ok = ours.iter().any(|h| value == h),
                // A browser names the page a request comes from.
                "origin" => {
                    origin_ok &= ours.iter().any(|h| value == format!("http://{h}"));
                }
                "sec-fetch-site" => {
                    origin_ok &= matches!(value, "same-origin" | "none");
                }
                SECRET_HEADER => secret_ok = same_secret(value, &server.secret),
                _ => {}
            }
        }
    }
    Ok(Head {
        length,
        host_ok,
        origin_ok,
        secret_ok,
    })
}

/// `GET /state?after=N`: the shown state once its version passes `N` (or
/// the poll times out, or the game stops).
fn answer_state(out: &mut TcpStream, server: &Server, query: &str) -> Result<()> {
    let after: u64 = query
        .strip_prefix("after=")
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let s = server.shown.lock().unwrap_or_else(|e| e.into_inner());
    let (s, _) = server
        .changed
        .wait_timeout_while(s, POLL_WAIT, |s| {
            s.version <= after && !server.stopping.load(Ordering::SeqCst)
        })
        .unwrap_or_else(|e| e.into_inner());
    let json = serde_json::to_string(&*s)?;
    let version = s.version;
    drop(s);
    respond(out, "200 OK", "application/json", &json)?;
    server.delivered.fetch_max(version, Ordering::SeqCst);
    Ok(())
}

/// `POST /move`, `/undo` or `/quit`: the command handed to the game, unless
/// it has stopped or too many moves already wait.
fn answer_command(out: &mut TcpStream, server: &Server, path: &str, body: String) -> Result<()> {
    if server.closed.load(Ordering::SeqCst) {
        return respond(
            out,
            "410 Gone",
            "text/plain",
            "the game has stopped: nothing more can be played",
        );
    }
    let command = match path {
        "/move" => Command::Move(body),
        "/undo" => Command::Undo,
        _ => {
            server.quit.store(true, Ordering::SeqCst);
            Command::Quit
        }
    };
    if !matches!(command, Command::Quit) {
        // Counted before sending, so that the game never takes one uncounted.
        if server.queued.fetch_add(1, Ordering::SeqCst) >= MAX_QUEUED {
            server.queued.fetch_sub(1, Ordering::SeqCst);
            return respond(
                out,
                "429 Too Many Requests",
                "text/plain",
                &format!(
                    "refused: {MAX_QUEUED} moves are already waiting for the game; wait for the board to catch up"
                ),
            );
        }
    }
    let sent = server
        .commands
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send(command);
    if sent.is_err() {
        return respond(
            out,
            "410 Gone",
            "text/plain",
            "the game has stopped: nothing more can be played",
        );
    }
    respond(out, "200 OK", "text/plain", "ok")
}

/// Reads one request and answers it.
fn answer(stream: &TcpStream, server: &Server) -> Result<()> {
    let port = server.port;
    stream.set_write_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(
        Deadline {
            stream: stream.try_clone()?,
            until: Instant::now() + REQUEST_DEADLINE,
        }
        .take(MAX_HEAD),
    );
    let mut first = String::new();
    reader.read_line(&mut first)?;
    let mut parts = first.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let Head {
        length,
        host_ok,
        origin_ok,
        secret_ok,
    } = read_head(&mut reader, server)?;
    let mut out = stream.try_clone()?;
    if !host_ok {
        return respond(
            &mut out,
            "403 Forbidden",
            "text/plain",
            &format!("refused: this game is served only as http://127.0.0.1:{port}/"),
        );
    }
    if !origin_ok {
        return respond(
            &mut out,
            "403 Forbidden",
            "text/plain",
            "refused: a cross-origin request (only the game's own page may play)",
        );
    }
    if length > MAX_BODY {
        return respond(&mut out, "413 Payload Too Large", "text/plain", "too long");
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let body = String::from_utf8_lossy(&body).to_string();
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    if (method, path) == ("GET", "/") {
        let page = PAGE.replace("BOARDLAB_SECRET", &server.secret);
        return respond(&mut out, "200 OK", "text/html; charset=utf-8", &page);
    }
    let known = matches!(
        (method, path),
        ("GET", "/state") | ("POST", "/move" | "/undo" | "/quit")
    );
    if !known {
        return respond(&mut out, "404 Not Found", "text/plain", "not found");
    }
    if !secret_ok {
        return respond(
            &mut out,
            "403 Forbidden",
            "text/plain",
            &format!(
                "refused: the request does not carry this game's secret (only the page served at http://127.0.0.1:{port}/ may play; reload it)"
            ),
        );
    }
    if path == "/state" {
        return answer_state(&mut out, server, query);
    }
    answer_command(&mut out, server, path, body)
}

fn respond(out: &mut TcpStream, status: &str, kind: &str, body: &str) -> Result<()> {
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\nContent-Security-Policy: frame-ancestors 'none'\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    out.flush()?;
    Ok(())
}

/// The page: the viewer's styles, the board, the moves, the log. The server
/// puts the game's secret in place of `BOARDLAB_SECRET`.
const PAGE: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="boardlab-secret" content="BOARDLAB_SECRET">
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
#status { font-weight: bold; margin: 6px 0; }
#notice { color: #a00; min-height: 1.2em; }
#result { font-size: 16px; font-weight: bold; background: #ffe28a; padding: 6px; }
#stopped { font-size: 15px; background: #2d3142; color: #fff; padding: 6px; }
#moves { display: flex; flex-wrap: wrap; gap: 6px; }
#moves button { font-size: 13px; text-align: left; }
#moves button b { font-family: monospace; margin-right: 6px; }
aside { flex: 1; min-width: 260px; max-width: 420px; }
aside h2 { font-size: 15px; margin: 0 0 6px; }
#log { height: 70vh; overflow: auto; margin: 0; padding-left: 2.4em; font-size: 13px; background: #fffdf8; border: 1px solid #ccc; }
#legend { padding: 0 16px 16px; font-size: 13px; }
#board [data-pick].cand { fill-opacity: 0.3; stroke: #c98a00; stroke-width: 3; cursor: pointer; }
#board [data-pick].picked { fill: #4a90d9; fill-opacity: 0.35; stroke: #1f5fa8; stroke-width: 3; }
#moves button.cand { outline: 3px solid #c98a00; }
#hint { color: #555; font-size: 13px; min-height: 1.2em; }
#legend dt { font-weight: bold; float: left; clear: left; min-width: 9em; }
#legend dd { margin-left: 10em; }
</style>
</head>
<body>
<header><h1 id="title">boardlab play</h1><button id="undo">undo</button><button id="quit">quit</button></header>
<main>
<section id="board-wrap">
<div id="stopped" role="status" hidden></div>
<div id="result" hidden></div>
<svg id="board" xmlns="http://www.w3.org/2000/svg"></svg>
<pre id="text" hidden></pre>
<div id="status"></div>
<div id="notice"></div>
<div id="hint"></div>
<div id="moves"></div>
</section>
<aside><h2>Actions</h2><ol id="log"></ol></aside>
</main>
<section id="legend"></section>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
const SECRET = document.querySelector('meta[name="boardlab-secret"]').content;
let version = 0, legendShown = false, closed = false;
// The moves on offer, each with its picks, and the picks clicked so far.
let offered = [], picks = [], chosen = [];
// The moves on offer with their picks, for a test driving the page.
window.boardlabChoice = () => ({ offered, picks, chosen });
// The moves whose picks begin with those clicked so far.
function candidates() {
  return offered.map((m, i) => i).filter((i) =>
    picks[i].length >= chosen.length && chosen.every((p, j) => picks[i][j] === p) && picks[i].length > 0);
}
// Highlights what may be clicked next: the drawing's parts, and once a
// part is chosen, the buttons of the moves it still allows.
function highlight() {
  const cands = candidates();
  const next = new Set(cands.filter((i) => picks[i].length > chosen.length).map((i) => picks[i][chosen.length]));
  for (const el of $("board").querySelectorAll("[data-pick]")) {
    const p = el.getAttribute("data-pick");
    el.classList.toggle("cand", !closed && next.has(p));
    el.classList.toggle("picked", chosen.includes(p));
  }
  for (const b of $("moves").querySelectorAll("button")) {
    b.classList.toggle("cand", chosen.length > 0 && cands.includes(Number(b.dataset.index)));
  }
  $("hint").textContent = chosen.length === 0
    ? (next.size ? "click a highlighted part of the board, or a button" : "")
    : "chosen: " + chosen.join(", ") + " (Escape cancels)";
}
function pick(p) {
  chosen.push(p);
  const cands = candidates();
  const exact = cands.filter((i) => picks[i].length === chosen.length);
  if (exact.length === 1 && cands.length === 1) {
    chosen = [];
    send("/move", offered[exact[0]][0]);
    return;
  }
  if (cands.length === 0) chosen = [];
  highlight();
}
$("board").addEventListener("click", (e) => {
  const el = e.target.closest("[data-pick]");
  if (el && el.classList.contains("cand")) pick(el.getAttribute("data-pick"));
});
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && chosen.length) { chosen = []; highlight(); }
});
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
  $("status").textContent = s.status;
  $("notice").textContent = s.notice;
  const moves = $("moves");
  moves.textContent = "";
  offered = s.moves; picks = s.picks; chosen = [];
  for (const [index, [key, label]] of s.moves.entries()) {
    const b = document.createElement("button");
    b.dataset.key = key;
    b.dataset.index = index;
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
  if (s.over !== null) { $("result").hidden = false; $("result").textContent = "game over: " + s.over; }
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
  if (s.stopped !== null) stopped(s.stopped);
  highlight();
}
// The game has stopped: say so, and offer nothing more to click.
function stopped(why) {
  closed = true;
  $("stopped").hidden = false;
  $("stopped").textContent = why;
  $("moves").textContent = "";
  $("undo").disabled = $("quit").disabled = true;
  document.title = "stopped: " + $("title").textContent;
}
async function poll() {
  while (!closed) {
    try {
      const r = await fetch("/state?after=" + version, { headers: { "X-Boardlab-Secret": SECRET } });
      if (!r.ok) { $("notice").textContent = await r.text(); return; }
      const s = await r.json();
      // A state that arrives after quitting must not bring the moves back.
      if (closed) return;
      render(s);
    } catch (e) {
      if (!closed) stopped("The game's server is gone: the game has stopped.");
      return;
    }
  }
}
async function send(path, body) {
  for (const b of $("moves").querySelectorAll("button")) b.disabled = true;
  offered = []; picks = []; chosen = []; highlight();
  try {
    const r = await fetch(path, { method: "POST", body: body || "", headers: { "X-Boardlab-Secret": SECRET } });
    if (!r.ok) $("notice").textContent = await r.text();
    return r.ok;
  } catch (e) {
    return false;
  }
}
$("undo").onclick = () => send("/undo");
$("quit").onclick = async () => {
  closed = true;
  $("undo").disabled = $("quit").disabled = true;
  await send("/quit");
  stopped("You quit. The game has stopped and its server is closed: you can close this tab.");
};
poll();
</script>
</body>
</html>
"#;
