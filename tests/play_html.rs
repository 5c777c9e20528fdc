//! `boardlab play --html` against a raw HTTP client (std::net): only the
//! page the server served may drive the game (its secret, its origin, its
//! host), connections and waiting moves are capped, and the server stops
//! cleanly when the game ends or the page quits.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// A served game: the binary, its port and the rest of its output.
struct Served {
    child: Child,
    port: u16,
    out: Option<BufReader<ChildStdout>>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    fn start(args: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
            .args(["play", "--html"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("binary runs");
        let mut out = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut line = String::new();
        out.read_line(&mut line).expect("a first line");
        let port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        Served {
            child,
            port,
            out: Some(out),
        }
    }

    /// One request; returns the status code and the body.
    fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> (u16, String) {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).expect("connects");
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut req = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: {}\r\nConnection: close\r\n",
            self.port,
            body.len()
        );
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str("\r\n");
        req.push_str(body);
        s.write_all(req.as_bytes()).unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        let code = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status in {text:?}"));
        let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        (code, body.to_string())
    }

    /// The secret the page carries.
    fn secret(&self) -> String {
        let (code, page) = self.request("GET", "/", &[], "");
        assert_eq!(code, 200);
        let at = page
            .find("name=\"boardlab-secret\" content=\"")
            .expect("a secret")
            + 32;
        let secret = page[at..].split('"').next().unwrap().to_string();
        assert!(secret.len() >= 32 && secret.bytes().all(|b| b.is_ascii_hexdigit()));
        secret
    }

    fn post(&self, path: &str, secret: &str, body: &str) -> (u16, String) {
        self.request("POST", path, &[("X-Boardlab-Secret", secret)], body)
    }

    /// The state once its version passes `after`.
    fn state(&self, secret: &str, after: u64) -> serde_json::Value {
        let (code, body) = self.request(
            "GET",
            &format!("/state?after={after}"),
            &[("X-Boardlab-Secret", secret)],
            "",
        );
        assert_eq!(code, 200, "{body}");
        serde_json::from_str(&body).expect("JSON state")
    }

    /// The first state (from version `after` on) that `until` accepts.
    fn state_until(
        &self,
        secret: &str,
        mut after: u64,
        until: impl Fn(&serde_json::Value) -> bool,
    ) -> serde_json::Value {
        let start = Instant::now();
        loop {
            let s = self.state(secret, after);
            if until(&s) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "no such state: {s}"
            );
            after = s["version"].as_u64().unwrap();
        }
    }

    /// Waits for the process to end; returns whether it succeeded and the
    /// rest of its output.
    fn end(&mut self) -> (bool, String) {
        let mut rest = String::new();
        self.out.take().unwrap().read_to_string(&mut rest).unwrap();
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return (status.success(), rest);
            }
            assert!(start.elapsed() < Duration::from_secs(20), "still running");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Whether the port still takes connections.
    fn listening(&self) -> bool {
        TcpStream::connect(("127.0.0.1", self.port)).is_ok()
    }
}

fn log_of(s: &serde_json::Value) -> Vec<String> {
    s["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_string())
        .collect()
}

/// The cross-site "simple" request of the review (a form post a browser
/// sends without preflight), requests without the secret or with a wrong
/// one, and requests naming another host are all refused with 403 and a
/// message; none of them moves the game.
#[test]
fn only_the_served_page_may_play() {
    let mut g = Served::start(&[
        "--game",
        "tictactoe",
        "--agents",
        "human,random",
        "--seed",
        "3",
    ]);
    let secret = g.secret();
    let before = g.state(&secret, 0);
    assert_eq!(before["moves"].as_array().unwrap().len(), 9);
    let evil = [
        ("Origin", "http://evil.example"),
        ("Content-Type", "text/plain;charset=UTF-8"),
    ];
    for path in ["/move", "/undo", "/quit"] {
        let (code, body) = g.request("POST", path, &evil, "4");
        assert_eq!(code, 403, "{path}: {body}");
        assert!(body.contains("cross-origin"), "{body}");
        // Even with the secret, another origin is refused.
        let mut with = evil.to_vec();
        with.push(("X-Boardlab-Secret", &secret));
        let (code, _) = g.request("POST", path, &with, "4");
        assert_eq!(code, 403, "{path}");
        let (code, body) = g.request("POST", path, &[], "4");
        assert_eq!(code, 403, "{path}: {body}");
        assert!(body.contains("secret"), "{body}");
        let (code, _) = g.post(path, "0123456789abcdef0123456789abcdef", "4");
        assert_eq!(code, 403, "{path}");
        let (code, _) = g.request(
            "POST",
            path,
            &[
                ("X-Boardlab-Secret", &secret),
                ("Sec-Fetch-Site", "cross-site"),
            ],
            "4",
        );
        assert_eq!(code, 403, "{path}");
    }
    let (code, body) = g.request("GET", "/state?after=0", &[], "");
    assert_eq!(code, 403, "{body}");
    // Another Host: a DNS-rebinding page.
    let mut s = TcpStream::connect(("127.0.0.1", g.port)).unwrap();
    write!(s, "GET / HTTP/1.1\r\nHost: evil.example:{}\r\n\r\n", g.port).unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    assert!(text.starts_with("HTTP/1.1 403"), "{text}");
    // Nothing moved: the state is the one before.
    let now = g.state(&secret, 0);
    assert_eq!(now["version"], before["version"]);
    assert!(log_of(&now).is_empty(), "{now}");
    // The page's own request plays.
    assert_eq!(g.post("/move", &secret, "5").0, 200);
    let s = g.state_until(&secret, 0, |s| log_of(s).len() >= 2);
    assert!(log_of(&s)[0].starts_with("seat 0 (you): cell 5"), "{s}");
    assert_eq!(g.post("/quit", &secret, "").0, 200);
    let (ok, out) = g.end();
    assert!(ok, "{out}");
    assert!(out.contains("the server has stopped"), "{out}");
    assert!(!g.listening());
}

/// At most MAX_CONNECTIONS (16) connections are served at once: idle ones
/// do not make more threads, a request beyond the cap is answered 503 at
/// once, and an idle connection is closed after its deadline.
#[test]
fn connections_are_capped() {
    let mut g = Served::start(&[
        "--game",
        "tictactoe",
        "--agents",
        "human,random",
        "--seed",
        "3",
    ]);
    let secret = g.secret();
    let idle: Vec<TcpStream> = (0..40)
        .map(|_| TcpStream::connect(("127.0.0.1", g.port)).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let (code, body) = g.request("GET", "/", &[], "");
    assert_eq!(code, 503, "{body}");
    assert!(body.contains("too many connections"), "{body}");
    // The idle ones are closed within their deadline (5 s), freeing places.
    let start = Instant::now();
    let mut first = idle[0].try_clone().unwrap();
    first
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut buf = Vec::new();
    let _ = first.read_to_end(&mut buf);
    assert!(start.elapsed() < Duration::from_secs(10));
    drop(idle);
    let start = Instant::now();
    while g.request("GET", "/", &[], "").0 != 200 {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "never served again"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(g.post("/quit", &secret, "").0, 200);
    assert!(g.end().0);
}

/// Moves posted while the other seat thinks wait for the game, at most
/// MAX_QUEUED (4) of them; more are answered 429 with a message, and Quit is
/// still taken at the next question.
#[test]
fn waiting_moves_are_capped() {
    let mut g = Served::start(&[
        "--game",
        "tictactoe",
        "--agents",
        "human,faulty(fault=slow,ms=2000,after=0)",
        "--seed",
        "3",
    ]);
    let secret = g.secret();
    assert_eq!(g.post("/move", &secret, "5").0, 200);
    // The game takes the move, then the slow seat thinks for 2 s.
    g.state_until(&secret, 0, |s| !log_of(s).is_empty());
    let codes: Vec<(u16, String)> = (0..10).map(|_| g.post("/move", &secret, "zz")).collect();
    let accepted = codes.iter().filter(|(c, _)| *c == 200).count();
    assert_eq!(accepted, 4, "{codes:?}");
    let refused = codes.iter().find(|(c, _)| *c == 429).expect("a refusal");
    assert!(refused.1.contains("waiting"), "{}", refused.1);
    assert_eq!(g.post("/quit", &secret, "").0, 200);
    let (ok, out) = g.end();
    assert!(ok, "{out}");
    assert!(out.contains("game ended: you quit"), "{out}");
}

/// Played to its end, the game tells the page how it ended (the status
/// names the outcome, not a seat to move), the human's moves are in the log
/// in the page's word for a seat, and the server stops by itself.
#[test]
fn the_server_stops_when_the_game_ends() {
    let mut g = Served::start(&[
        "--game",
        "tictactoe",
        "--agents",
        "human,random",
        "--seed",
        "3",
    ]);
    let secret = g.secret();
    let mut after = 0;
    let mine = loop {
        let s = g.state_until(&secret, after, |s| {
            !s["stopped"].is_null() || !s["moves"].as_array().unwrap().is_empty()
        });
        after = s["version"].as_u64().unwrap();
        if !s["stopped"].is_null() {
            let status = s["status"].as_str().unwrap();
            assert!(status.starts_with("game over"), "{status}");
            assert!(
                !status.contains("to move") && !status.contains("Player"),
                "{status}"
            );
            assert!(
                s["over"].as_str().unwrap().contains("seat 0 (human)"),
                "{s}"
            );
            assert!(s["stopped"].as_str().unwrap().contains("stopped"), "{s}");
            break log_of(&s);
        }
        assert!(
            s["status"]
                .as_str()
                .unwrap()
                .starts_with("your move: you hold seat 0")
        );
        let key = s["moves"][0][0].as_str().unwrap().to_string();
        assert_eq!(g.post("/move", &secret, &key).0, 200);
    };
    assert!(
        mine.iter().any(|l| l.starts_with("seat 0 (you): cell")),
        "{mine:?}"
    );
    assert!(
        mine.iter().any(|l| l.starts_with("seat 1 (random): cell")),
        "{mine:?}"
    );
    assert!(mine.iter().all(|l| !l.contains("Player")), "{mine:?}");
    let (ok, out) = g.end();
    assert!(ok, "{out}");
    assert!(out.contains("game ended: the server has stopped"), "{out}");
    assert!(!g.listening());
}
