//! Text rendering for a human at the table, and action labels.

use std::fmt::Write;

use super::Karmaka;
use super::cards::Colour;
use super::state::{Action, NONE, Phase, State, THRESHOLD, bit};

fn colour_word(c: Colour) -> &'static str {
    match c {
        Colour::Red => "red",
        Colour::Green => "green",
        Colour::Blue => "blue",
        Colour::Mosaic => "mosaic",
    }
}

const RUNGS: [&str; 5] = ["Dung Beetle", "Snake", "Wolf", "Ape", "Transcendence"];

impl Karmaka {
    fn cards_text(&self, pile: &[u8]) -> String {
        if pile.is_empty() {
            return "-".into();
        }
        pile.iter()
            .map(|&c| {
                if c == NONE {
                    "??".to_string()
                } else {
                    let t = self.cards.ty(c);
                    format!("{} ({} {})", t.name, colour_word(t.colour), t.points)
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A pile as the board prints it: each card's code (the key of a move
    /// that plays or picks it), name, colour and points, and with `slot`
    /// each card's position key first (`D1`, `F2`, `R1`).
    fn board_cards(&self, pile: &[u8], slot: Option<char>) -> String {
        if pile.is_empty() {
            return "-".into();
        }
        pile.iter()
            .enumerate()
            .map(|(i, &c)| {
                let at = slot.map_or(String::new(), |k| format!("{k}{}:", i + 1));
                if c == NONE {
                    format!("{at}??")
                } else {
                    let t = self.cards.ty(c);
                    format!(
                        "{at}{} {} ({} {})",
                        t.code,
                        t.name,
                        colour_word(t.colour),
                        t.points
                    )
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn type_name(&self, t: u8) -> String {
        let ty = &self.cards.types[t as usize];
        format!("{} ({} {})", ty.name, colour_word(ty.colour), ty.points)
    }

    /// The table as `viewer` sees it (`None`: everything).
    pub fn render_text(&self, s: &State, viewer: Option<u8>) -> String {
        let v = match viewer {
            Some(o) => self.view(s, o),
            None => s.clone(),
        };
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Well: {} cards{} | Ruins: {} cards, top 3 (top first): {}",
            v.well.len() + v.well_top.len(),
            if v.well_top.is_empty() {
                String::new()
            } else {
                format!(" (top: {})", self.board_cards(&v.well_top, None))
            },
            v.ruins.len(),
            self.board_cards(
                &v.ruins.iter().rev().take(3).copied().collect::<Vec<u8>>(),
                Some('R')
            )
        );
        for p in 0..self.players {
            let pu = p as usize;
            let lvl = v.level[pu] as usize;
            let need = THRESHOLD
                .get(lvl)
                .map_or(String::new(), |n| format!(", needs {n}"));
            let me = viewer == Some(p);
            let _ = writeln!(
                out,
                "{}P{p}{}{}: {} (rung {lvl}{need}), rings {}, Deeds score {}",
                if p == v.active { "> " } else { "  " },
                if me { " (you)" } else { "" },
                if self.wolf {
                    if p == 0 { " [Wolf]" } else { " [Beetle]" }
                } else if self.teams {
                    if p % 2 == 0 { " [team A]" } else { " [team B]" }
                } else {
                    ""
                },
                RUNGS[lvl.min(4)],
                v.rings[pu],
                self.score_deeds(&v.deeds[pu]),
            );
            let _ = writeln!(
                out,
                "    Deeds (exposed last): {}",
                self.board_cards(&v.deeds[pu], Some('D'))
            );
            let _ = writeln!(
                out,
                "    Hand {}: {}",
                v.hands[pu].len(),
                self.board_cards(&v.hands[pu], None)
            );
            let _ = writeln!(
                out,
                "    Future Life {} (top last): {}",
                v.futures[pu].len(),
                self.board_cards(&v.futures[pu], Some('F'))
            );
            let _ = writeln!(
                out,
                "    Deck {}: {}",
                v.decks[pu].len(),
                self.board_cards(&v.decks[pu], None)
            );
        }
        if v.center != NONE {
            let _ = writeln!(out, "Center: {}", self.board_cards(&[v.center], None));
        }
        if !v.aside.is_empty() {
            let _ = writeln!(out, "Aside: {}", self.board_cards(&v.aside, None));
        }
        let _ = writeln!(out, "Now: {}", self.phase_text(&v));
        if let Some(o) = viewer {
            let m = self.types_in(&s.hands[o as usize]);
            if m != 0 {
                let _ = writeln!(out, "Your cards:");
            }
            for t in 0..self.cards.types.len() {
                if m & 1 << t != 0 {
                    let ty = &self.cards.types[t];
                    let _ = writeln!(
                        out,
                        "    {} {} ({} {}): {}",
                        ty.code,
                        ty.name,
                        colour_word(ty.colour),
                        ty.points,
                        ty.ability.text()
                    );
                }
            }
        }
        if let (Some(o), true) = (viewer, viewer.is_some()) {
            let known: Vec<String> = (0..self.players)
                .filter(|&q| q != o)
                .filter_map(|q| {
                    let k: Vec<u8> = s.hands[q as usize]
                        .iter()
                        .copied()
                        .filter(|&c| s.known[c as usize] & bit(o) != 0)
                        .collect();
                    (!k.is_empty()).then(|| format!("P{q}: {}", self.board_cards(&k, None)))
                })
                .collect();
            if !known.is_empty() {
                let _ = writeln!(out, "You know these Hand cards: {}", known.join("; "));
            }
        }
        out
    }

    fn phase_text(&self, s: &State) -> String {
        let a = s.active;
        match s.phase {
            Phase::Main => format!("P{a} plays a card (or passes)"),
            Phase::Bonus => format!("P{a} may make a bonus play"),
            Phase::Target(t) => format!("P{a} chooses a target for {}", self.type_name(t)),
            Phase::MimicSource => format!("P{a} chooses whose exposed Deed to Mimic"),
            Phase::DenialPick => format!("P{a} picks a Hand card to ruin (Denial)"),
            Phase::EmbodyPick => format!("P{a} picks a Deed to Embody"),
            Phase::DwindlePick(v) => format!("P{v} ruins a card of their Hand (Dwindle)"),
            Phase::CrisisPick(v) => format!("P{v} ruins one of their Deeds (Crisis)"),
            Phase::RouletteRuin(k) => format!("P{a} may ruin a Hand card (Roulette, {k} so far)"),
            Phase::RouletteDraw(n) => format!("P{a} may draw (Roulette, up to {n} more)"),
            Phase::TransPick => format!("P{a} takes a Future Life card (Transmigrate)"),
            Phase::DestinyPlace(_) => format!("P{a} may place a seen card on their Future Life"),
            Phase::DestinyReturn => format!("P{a} puts the seen cards back on the Well"),
            Phase::SwindleTake(v) => format!("P{a} takes one of P{v}'s shown cards"),
            Phase::RuinPick(f) => format!(
                "P{a} takes one of the top 3 Ruins into their {}",
                if f { "Future Life" } else { "Hand" }
            ),
            Phase::SowPlace(n) => {
                format!("P{a} places a Hand card on their Future Life ({n} left)")
            }
            Phase::JubileePick(n) => format!("P{a} may move a Hand card to their Deeds ({n} left)"),
            Phase::Offer(to, _) => format!("P{to} is offered the played card (karmic cost)"),
            Phase::Drawing(..) => "a card is taken from the Well".into(),
            Phase::SpiteChance(v, _) => format!("a random card of P{v}'s Hand is ruined"),
            Phase::SwindleChance(v, _) => format!("a random card of P{v}'s Hand is shown"),
            Phase::Over => {
                if s.winner == NONE {
                    "game over: draw (ply cap)".into()
                } else {
                    format!("game over: P{} transcended", s.winner)
                }
            }
        }
    }

    /// A human label for `action` in `s`.
    pub fn label(&self, s: &State, action: Action) -> String {
        match action {
            Action::Points(t) => format!("play {} for points", self.type_name(t)),
            Action::Ability(t) => {
                let ty = &self.cards.types[t as usize];
                format!("play {} for its ability", ty.name)
            }
            Action::Future(t) => format!("put {} on your Future Life", self.type_name(t)),
            Action::AllyFuture(t) => {
                format!("put {} on your ally's Future Life", self.type_name(t))
            }
            Action::Pass => "pass".into(),
            Action::Stop => "stop".into(),
            Action::Target(p) => match s.phase {
                Phase::MimicSource => {
                    let top = s.deeds[p as usize].last().copied().unwrap_or(NONE);
                    format!("Mimic P{p}'s exposed Deed, {}", self.cards_text(&[top]))
                }
                Phase::Target(t) if p == s.active => {
                    format!("{} on yourself", self.cards.types[t as usize].name)
                }
                Phase::Target(t) => format!("{} on P{p}", self.cards.types[t as usize].name),
                _ => format!("target P{p}"),
            },
            Action::Pick(t) => {
                let (verb, rest) = match s.phase {
                    Phase::DenialPick => ("ruin", " and play a copy of its ability"),
                    Phase::EmbodyPick => ("copy the ability of your Deed", ""),
                    Phase::DwindlePick(_) | Phase::RouletteRuin(_) => ("ruin", ""),
                    Phase::SowPlace(_) | Phase::DestinyPlace(_) => {
                        ("place", " on your Future Life")
                    }
                    Phase::DestinyReturn => ("put back", " on the Well (below the rest)"),
                    Phase::SwindleTake(_) => ("take", " into your Hand"),
                    Phase::JubileePick(_) => ("move", " to your Deeds"),
                    _ => ("pick", ""),
                };
                format!("{verb} {}{rest}", self.type_name(t))
            }
            Action::Deed(i) => {
                let v = match s.phase {
                    Phase::CrisisPick(v) => v,
                    _ => s.active,
                };
                let c = s.deeds[v as usize].get(i as usize).copied().unwrap_or(NONE);
                format!("ruin Deed {} ({})", i + 1, self.cards_text(&[c]))
            }
            Action::Position(i) => {
                let c = s.futures[s.active as usize]
                    .get(i as usize)
                    .copied()
                    .unwrap_or(NONE);
                format!(
                    "take Future Life card {} ({})",
                    i + 1,
                    self.cards_text(&[c])
                )
            }
            Action::Ruin(d) => {
                let c = s
                    .ruins
                    .len()
                    .checked_sub(1 + d as usize)
                    .map_or(NONE, |i| s.ruins[i]);
                format!("take {} from the Ruins", self.cards_text(&[c]))
            }
            Action::Draw => "draw a card".into(),
            Action::Accept => match s.center {
                NONE => "accept".into(),
                c => format!("accept {} into your Future Life", self.cards.ty(c).name),
            },
            Action::Decline => "decline".into(),
            Action::Chance(t) => {
                let what = self.type_name(t);
                match s.phase {
                    Phase::SpiteChance(..) => format!("{what} is ruined at random"),
                    Phase::SwindleChance(..) => format!("{what} is shown"),
                    _ => format!("{what} comes from the Well"),
                }
            }
        }
    }
}
