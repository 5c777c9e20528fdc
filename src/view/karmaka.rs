//! Karmaka: the Karmic Ladder with every seat's token, each seat's Deeds,
//! Hand, Future Life and Deck, rings, the Well, the Ruins and the cards in
//! play. A seat's view is drawn from `Karmaka::view`: what it does not know
//! is a card back.

use super::svg::{self, layer};
use super::{Canvas, Picture};
use crate::game::PlayerId;
use crate::games::karmaka::Karmaka;
use crate::games::karmaka::cards::Colour;
use crate::games::karmaka::state::{Action, NONE, Phase, State, THRESHOLD};

const W: f64 = 1120.0;
const CARD_W: f64 = 46.0;
const CARD_H: f64 = 62.0;
const LADDER_W: f64 = 150.0;
const TOP_H: f64 = 110.0;
const SEAT_H: f64 = 196.0;
const RUNGS: [&str; 5] = ["Dung Beetle", "Snake", "Wolf", "Ape", "Transcendence"];
const SEAT: [&str; 4] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];

/// How far apart a row's cards are drawn: side by side, overlapping when
/// `n` of them do not fit in `width`.
fn row_step(width: f64, n: usize) -> f64 {
    if n > 1 {
        ((width - CARD_W - 8.0) / (n - 1) as f64).min(CARD_W + 4.0)
    } else {
        0.0
    }
}

fn colour(c: Colour) -> &'static str {
    match c {
        Colour::Red => "#e06666",
        Colour::Green => "#6aa84f",
        Colour::Blue => "#6d9eeb",
        Colour::Mosaic => "url(#mosaic)",
    }
}

impl Karmaka {
    fn pic_card(&self, out: &mut String, x: f64, y: f64, card: u8) {
        if card == NONE {
            svg::use_at(out, "kback", x, y);
        } else {
            let t = self.cards.kind[card as usize];
            svg::use_at(out, &format!("k{t}"), x, y);
        }
    }

    /// One symbol per card type and one for the back: a card drawn is a `use`.
    fn pic_symbols(&self) -> String {
        let mut out = String::from("<defs>");
        out.push_str(&format!(
            r#"<symbol id="kback" width="{CARD_W}" height="{CARD_H}">"#
        ));
        svg::card_back(&mut out, 0.0, 0.0, CARD_W, CARD_H);
        out.push_str("</symbol>");
        for (i, t) in self.cards.types.iter().enumerate() {
            out.push_str(&format!(
                r#"<symbol id="k{i}" width="{CARD_W}" height="{CARD_H}">"#
            ));
            out.push_str(&format!("<title>{}</title>", svg::esc(&t.name)));
            svg::rect(
                &mut out,
                [0.5, 0.5, CARD_W - 1.0, CARD_H - 1.0],
                4.0,
                colour(t.colour),
                "#333",
            );
            svg::bold(
                &mut out,
                CARD_W / 2.0,
                20.0,
                12.0,
                "middle",
                "#111",
                &t.code,
            );
            svg::bold(
                &mut out,
                CARD_W / 2.0,
                48.0,
                18.0,
                "middle",
                "#111",
                &t.points.to_string(),
            );
            out.push_str("</symbol>");
        }
        out.push_str("</defs>");
        out
    }

    /// A labelled row of cards overlapping to fit `width`.
    fn pic_row(&self, out: &mut String, x: f64, y: f64, width: f64, label: &str, cards: &[u8]) {
        svg::text(
            out,
            x,
            y + 12.0,
            12.0,
            "start",
            "#444",
            &format!("{label} ({})", cards.len()),
        );
        let x0 = x + 4.0;
        let step = row_step(width, cards.len());
        for (i, &c) in cards.iter().enumerate() {
            self.pic_card(out, x0 + step * i as f64, y + 18.0, c);
        }
    }

    /// The ladder: five rungs, each seat's token on its rung.
    fn pic_ladder(&self, v: &State) -> String {
        let mut ladder = String::new();
        let bottom = TOP_H + SEAT_H * f64::from(self.players) - 20.0;
        let gap = (bottom - TOP_H) / 5.0;
        svg::bold(
            &mut ladder,
            10.0,
            TOP_H - 8.0,
            14.0,
            "start",
            "#222",
            "Karmic Ladder",
        );
        svg::line(&mut ladder, 20.0, TOP_H, 20.0, bottom, "#8b6b3e", 5.0);
        svg::line(&mut ladder, 130.0, TOP_H, 130.0, bottom, "#8b6b3e", 5.0);
        for (r, name) in RUNGS.iter().enumerate() {
            let y = bottom - gap * (r as f64 + 0.5);
            svg::line(&mut ladder, 20.0, y, 130.0, y, "#8b6b3e", 3.0);
            svg::text(&mut ladder, 75.0, y - 6.0, 11.0, "middle", "#5a4020", name);
            if let Some(need) = THRESHOLD.get(r) {
                svg::text(
                    &mut ladder,
                    75.0,
                    y + 14.0,
                    10.0,
                    "middle",
                    "#7a6040",
                    &format!("needs {need}"),
                );
            }
        }
        for p in 0..self.players {
            let r = v.level[p as usize].min(4) as f64;
            let y = bottom - gap * (r + 0.5);
            let x = 35.0 + 25.0 * f64::from(p);
            svg::circle(&mut ladder, x, y, 9.0, SEAT[p as usize], "#111");
            svg::bold(
                &mut ladder,
                x,
                y + 4.0,
                10.0,
                "middle",
                "#fff",
                &p.to_string(),
            );
        }
        ladder
    }

    /// The table: Well, Ruins, cards in play, and the phase.
    fn pic_table(&self, v: &State) -> String {
        let mut table = String::new();
        let x = LADDER_W + 10.0;
        let well = v.well.len() + v.well_top.len();
        svg::text(
            &mut table,
            x,
            14.0,
            12.0,
            "start",
            "#444",
            &format!("Well ({well})"),
        );
        if well > 0 {
            svg::card_back(&mut table, x + 4.0, 20.0, CARD_W, CARD_H);
        }
        for (i, &c) in v.well_top.iter().rev().enumerate() {
            self.pic_card(&mut table, x + 56.0 + 50.0 * i as f64, 20.0, c);
        }
        let ruins_top: Vec<u8> = v.ruins.iter().rev().take(3).copied().collect();
        self.pic_row(
            &mut table,
            x + 220.0,
            2.0,
            170.0,
            &format!("Ruins, top first of {}", v.ruins.len()),
            &ruins_top,
        );
        if v.center != NONE {
            svg::text(&mut table, x + 420.0, 14.0, 12.0, "start", "#444", "played");
            self.pic_card(&mut table, x + 424.0, 20.0, v.center);
        }
        if !v.aside.is_empty() {
            self.pic_row(&mut table, x + 490.0, 2.0, 170.0, "aside", &v.aside);
        }
        let status = self.pic_phase_line(v);
        svg::bold(&mut table, x + 680.0, 40.0, 13.0, "start", "#222", &status);
        table
    }

    /// Seat `p`'s panel, its head then each pile its own layer: most steps
    /// change one pile.
    fn pic_seat(&self, v: &State, pov: Option<PlayerId>, p: PlayerId, out: &mut Vec<String>) {
        let x = LADDER_W + 10.0;
        let pu = p as usize;
        let mut seat = String::new();
        let y = TOP_H + SEAT_H * f64::from(p);
        let active = p == v.active && v.phase != Phase::Over;
        svg::rect(
            &mut seat,
            [x - 4.0, y, W - x - 6.0, SEAT_H - 8.0],
            6.0,
            if active { "#fff6d5" } else { "#faf7f0" },
            SEAT[pu],
        );
        let role = if self.wolf {
            if p == 0 {
                " — the Wolf"
            } else {
                " — a Beetle"
            }
        } else if self.teams {
            if p.is_multiple_of(2) {
                " — team A"
            } else {
                " — team B"
            }
        } else {
            ""
        };
        let head = format!(
            "P{p}{role}{}: {}, {} ring{}, Deeds score {}",
            if pov == Some(p) { " (this view)" } else { "" },
            RUNGS[v.level[pu].min(4) as usize],
            v.rings[pu],
            if v.rings[pu] == 1 { "" } else { "s" },
            self.score_deeds(&v.deeds[pu])
        );
        svg::bold(&mut seat, x + 4.0, y + 18.0, 13.0, "start", SEAT[pu], &head);
        for k in 0..v.rings[pu].min(12) {
            svg::circle(
                &mut seat,
                W - 30.0 - 16.0 * f64::from(k),
                y + 14.0,
                6.0,
                "none",
                "#c9a227",
            );
        }
        out.push(layer(&format!("seat seat{p}"), &seat));
        // Each pile its own layer: most steps change one pile.
        let half = (W - x - 20.0) / 2.0;
        let piles = [
            (0.0, 24.0, "Deeds (exposed last)", &v.deeds[pu]),
            (half, 24.0, "Hand", &v.hands[pu]),
            (0.0, 106.0, "Future Life (top last)", &v.futures[pu]),
            (half, 106.0, "Deck (top last)", &v.decks[pu]),
        ];
        for (dx, dy, name, cards) in piles {
            let mut pile = String::new();
            self.pic_row(&mut pile, x + 4.0 + dx, y + dy, half - 10.0, name, cards);
            out.push(layer("pile", &pile));
        }
        if pov == Some(p) {
            out.push(layer("picks", &self.pic_picks(v, p, x, y, half)));
        }
    }

    /// The parts of seat `p`'s panel that choose a move from its Hand: each
    /// Hand card (`card:PAN`), then where it goes: its Deeds (`pile:deeds`)
    /// or its Future Life (`pile:future`).
    fn pic_picks(&self, v: &State, p: PlayerId, x: f64, y: f64, half: f64) -> String {
        let mut out = String::new();
        let pile_h = 18.0 + CARD_H + 4.0;
        svg::pick(
            &mut out,
            [x + 4.0, y + 24.0, half - 10.0, pile_h],
            "pile:deeds",
        );
        svg::pick(
            &mut out,
            [x + 4.0, y + 106.0, half - 10.0, pile_h],
            "pile:future",
        );
        let hand = &v.hands[p as usize];
        let step = row_step(half - 10.0, hand.len());
        for (i, &c) in hand.iter().enumerate() {
            if c == NONE {
                continue;
            }
            let t = self.cards.kind[c as usize];
            let x0 = x + 4.0 + half + 4.0 + step * i as f64;
            let pick = format!("card:{}", self.cards.types[t as usize].code);
            svg::pick(&mut out, [x0, y + 24.0 + 18.0, CARD_W, CARD_H], &pick);
        }
        out
    }
}

impl Picture for Karmaka {
    super::move_number_from_encoding!();

    /// A card by the code the board prints for it, with where it goes when
    /// played from the Hand (`PAN-points`); a Deed, Future Life card or Ruin
    /// by the position the board prints (`D2`, `F1`, `R1`); a seat as `P1`.
    fn move_key(&self, _s: &State, action: Action) -> Option<String> {
        let code = |t: u8| &self.cards.types[t as usize].code;
        Some(match action {
            Action::Points(t) => format!("{}-points", code(t)),
            Action::Ability(t) => format!("{}-ability", code(t)),
            Action::Future(t) => format!("{}-future", code(t)),
            Action::AllyFuture(t) => format!("{}-ally", code(t)),
            Action::Pick(t) => code(t).clone(),
            Action::Target(p) => format!("P{p}"),
            Action::Deed(i) => format!("D{}", u32::from(i) + 1),
            Action::Position(i) => format!("F{}", u32::from(i) + 1),
            Action::Ruin(d) => format!("R{}", u32::from(d) + 1),
            Action::Pass => "pass".into(),
            Action::Stop => "stop".into(),
            Action::Draw => "draw".into(),
            Action::Accept => "accept".into(),
            Action::Decline => "decline".into(),
            Action::Chance(_) => return None,
        })
    }
    /// A card from the Hand, then its Deeds or Future Life when it goes
    /// there (its ability and an ally's Future Life are the buttons left
    /// highlighted after the card).
    fn picks(&self, _s: &State, action: Action) -> Vec<String> {
        let card = |t: u8| format!("card:{}", self.cards.types[t as usize].code);
        match action {
            Action::Points(t) => vec![card(t), "pile:deeds".into()],
            Action::Future(t) => vec![card(t), "pile:future".into()],
            Action::Ability(t) | Action::AllyFuture(t) => vec![card(t)],
            _ => Vec::new(),
        }
    }

    fn canvas(&self, _states: &[State]) -> Option<Canvas> {
        Some(Canvas::sized(
            W,
            TOP_H + SEAT_H * f64::from(self.players) + 10.0,
        ))
    }

    fn draw(&self, s: &State, pov: Option<PlayerId>, _c: &Canvas) -> Vec<String> {
        let v = match pov {
            Some(p) => self.view(s, p),
            None => s.clone(),
        };
        let mut defs = svg::defs();
        defs.push_str(r##"<defs><linearGradient id="mosaic" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#e06666"/><stop offset=".5" stop-color="#6aa84f"/><stop offset="1" stop-color="#6d9eeb"/></linearGradient></defs>"##);
        defs.push_str(&self.pic_symbols());
        let mut out = vec![
            layer("defs", &defs),
            layer("ladder", &self.pic_ladder(&v)),
            layer("table", &self.pic_table(&v)),
        ];
        for p in 0..self.players {
            self.pic_seat(&v, pov, p, &mut out);
        }
        out
    }

    fn text_legend(&self) -> Vec<(String, String)> {
        super::grids::pairs(&[
            ("> P1", "the seat whose turn it is"),
            ("(you)", "your seat"),
            (
                "[Wolf] [team A]",
                "the seat's side, in the wolf and team variants",
            ),
            (
                "PAN Panic (red 1)",
                "a card: its code, name, colour (red, green, blue, or mosaic: all three) and points",
            ),
            ("??", "a card you cannot see"),
            (
                "PAN-points",
                "keys by a card's code: `PAN` picks it; from the Hand, `PAN-points`, `PAN-ability`, `PAN-future` (`PAN-ally`: your ally's Future Life) play it",
            ),
            (
                "D1: F1: R1:",
                "a Deed (oldest first), a Future Life card (bottom first) and a Ruin (top first) by position: the key of a move that picks it",
            ),
            ("P1", "a seat: the key of a move that targets it"),
            ("-", "an empty pile"),
            (
                "rung, needs N",
                "the seat's rung of the Karmic Ladder and the Deeds score that climbs it",
            ),
            (
                "Deeds score",
                "the points of the seat's best colour in its Deeds",
            ),
            ("Your cards", "the abilities of the cards in your hand"),
        ])
    }

    fn legend(&self) -> Vec<(String, String)> {
        let mut l = vec![
            ("card".to_string(), "code and points; colour red, green, blue or mosaic (all three); hover for the name".to_string()),
            ("hatched card".into(), "face down: this view does not know it".into()),
            ("gold rings".into(), "karmic rings".into()),
            ("ladder".into(), "each seat's token on its rung".into()),
            ("yellow panel".into(), "the seat whose turn it is".into()),
        ];
        for t in &self.cards.types {
            l.push((
                t.code.clone(),
                format!("{} ({} points): {}", t.name, t.points, t.ability.text()),
            ));
        }
        l
    }
}

impl Karmaka {
    fn pic_phase_line(&self, v: &State) -> String {
        match v.phase {
            Phase::Over if v.winner == NONE => "game over: draw".into(),
            Phase::Over => format!("game over: P{} transcended", v.winner),
            Phase::Main => format!("P{} plays a card", v.active),
            Phase::Offer(to, _) => format!("P{to} is offered the played card"),
            Phase::Drawing(..) => "a card comes from the Well".into(),
            _ => format!("P{} resolves an ability", v.active),
        }
    }
}
