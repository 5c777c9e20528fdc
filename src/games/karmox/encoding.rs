//! Integer actions and observation tensors (see [`crate::game::encoding`]).
//!
//! Action indices, in blocks (S = 1025 square slots, the board's 1024 squares
//! and the off-board marker): `Die(d)` 7, `Roll{att, def}` 13·13 (att·13 +
//! def), `Test(b)` 2, `Draw(card)` 32, `First(seat)` 6, `Stat(k)` 3,
//! `Cell(c)` 6, `Char(c)` 6, `Pass` 1, `Dest(sq)` S, `Anchor(sq)` S,
//! `Activate{tile, cell}` 48·6, `Move(c)` 6, `Equip(c)` 6, `Give{c, p}` 36,
//! `Attack{c, d}` 36, `Teleport{c, to}` 6·S, `Portal(c)` 6, `Potions(c)` 6,
//! `Tomes{c, stat}` 18, `Liberate(cell)` 6, `EndTurn` 1, `Tile(t)` 48,
//! `Push(n)` 32. Compound fields are row-major in the order written.
//!
//! Factored form ([`Factored`]): `(kind, f0, f1, f2)`, the kind the block's
//! number in the order above (24) and its fields in the order written, shape
//! (24, 1025, 1025, 1).
//!
//! Observation (flat), from the observer's information key (other sides'
//! face-down mission cards and the deck's unknown part masked, spec §5):
//! * 6 characters × 20: in play, on the board, on the observer's side, seat
//!   one-hot relative to the observer (6), has a square, x / width, y / height,
//!   prison, prison cell, life, level, the three ability rows, actions used;
//! * permanent XP of each seat's side, seats relative to the observer (6);
//! * mission piles per side, the observer's side first (6 × 3 slots × 34):
//!   slot filled, card public, card identity one-hot (32, all zero if hidden);
//! * 48 item tiles × 7: location one-hot (supply, slot, sheet, board), slot
//!   or sheet index, board x / width, board y / height;
//! * the deck's known cards (32 flags) and unknown card count;
//! * the seat to move (6, relative), the phase (25), the round over the cap,
//!   actions left, attack / movement modifiers, defence modifiers (6),
//!   adrenaline bonus, liberation, event square, events this turn (11 flags),
//!   combat attack, defence, adrenaline and rerolls, Skittle positions (2),
//!   setup.

use super::Karmox;
use super::data::{MAX_MISSIONS, MAX_SQ, MAX_TILES, NO_SQ};
use super::state::{Action, Loc, Phase, State};
use crate::game::PlayerId;
use crate::game::encoding::{Blocks, Encode, Factored, bits, one_hot, relative};

const S: u32 = MAX_SQ as u32 + 1;
const TILES: u32 = MAX_TILES as u32;
const CARDS: u32 = MAX_MISSIONS as u32;
const PHASES: usize = 25;
const PUSH: u32 = 32;

fn blocks() -> Blocks {
    Blocks::new(&[
        7,
        13 * 13,
        2,
        CARDS,
        6,
        3,
        6,
        6,
        1,
        S,
        S,
        TILES * 6,
        6,
        6,
        36,
        36,
        6 * S,
        6,
        6,
        18,
        6,
        1,
        TILES,
        PUSH,
    ])
}

/// The factored form: the blocks' kinds with their fields, in order.
fn factored() -> Factored {
    let f = Factored::new(vec![
        vec![7],
        vec![13, 13],
        vec![2],
        vec![CARDS],
        vec![6],
        vec![3],
        vec![6],
        vec![6],
        vec![],
        vec![S],
        vec![S],
        vec![TILES, 6],
        vec![6],
        vec![6],
        vec![6, 6],
        vec![6, 6],
        vec![6, S],
        vec![6],
        vec![6],
        vec![6, 3],
        vec![6],
        vec![],
        vec![TILES],
        vec![PUSH],
    ]);
    debug_assert!(f.matches(&blocks()));
    f
}

fn phase_index(p: Phase) -> usize {
    match p {
        Phase::SetupStat(_) => 0,
        Phase::Drawing => 1,
        Phase::FirstPlayer => 2,
        Phase::EventDie => 3,
        Phase::Unlock => 4,
        Phase::Wound => 5,
        Phase::Heal => 6,
        Phase::FreeStep => 7,
        Phase::FreeStepDest(_) => 8,
        Phase::Summon(_) => 9,
        Phase::Activate => 10,
        Phase::Action => 11,
        Phase::MoveDest(_) => 12,
        Phase::GiveSel { .. } => 13,
        Phase::TakeSel { .. } => 14,
        Phase::CombatRoll => 15,
        Phase::LevelUp => 16,
        Phase::Steal => 17,
        Phase::Push => 18,
        Phase::SelfMove => 19,
        Phase::DefPush => 20,
        Phase::DefMove => 21,
        Phase::SkelTest => 22,
        Phase::Over => 23,
        Phase::PlayPair { .. } => 24,
    }
}

impl Karmox {
    /// Appends has-square, x / width and y / height of a square.
    fn square(&self, out: &mut Vec<f32>, sq: u16) {
        let w = self.c.board.w;
        let h = self.c.board.h;
        if sq == NO_SQ || usize::from(sq) >= w * h {
            out.extend([0.0, 0.0, 0.0]);
        } else {
            let (x, y) = (usize::from(sq) % w, usize::from(sq) / w);
            out.extend([1.0, x as f32 / w as f32, y as f32 / h as f32]);
        }
    }
}

impl Encode for Karmox {
    fn factored(&self) -> Option<Factored> {
        Some(factored())
    }

    fn num_distinct_actions(&self) -> u32 {
        blocks().total()
    }

    fn action_index(&self, _state: &State, action: Action) -> u32 {
        let b = blocks();
        match action {
            Action::Die(d) => b.at(0, d.into()),
            Action::Roll { att, def } => b.at(1, u32::from(att) * 13 + u32::from(def)),
            Action::Test(t) => b.at(2, t.into()),
            Action::Draw(c) => b.at(3, c.into()),
            Action::First(p) => b.at(4, p.into()),
            Action::Stat(k) => b.at(5, k.into()),
            Action::Cell(c) => b.at(6, c.into()),
            Action::Char(c) => b.at(7, c.into()),
            Action::Pass => b.at(8, 0),
            Action::Dest(sq) => b.at(9, sq.into()),
            Action::Anchor(sq) => b.at(10, sq.into()),
            Action::Activate { tile, cell } => b.at(11, u32::from(tile) * 6 + u32::from(cell)),
            Action::Move(c) => b.at(12, c.into()),
            Action::Equip(c) => b.at(13, c.into()),
            Action::Give { c, p } => b.at(14, u32::from(c) * 6 + u32::from(p)),
            Action::Attack { c, d } => b.at(15, u32::from(c) * 6 + u32::from(d)),
            Action::Teleport { c, to } => b.at(16, u32::from(c) * S + u32::from(to)),
            Action::Portal(c) => b.at(17, c.into()),
            Action::Potions(c) => b.at(18, c.into()),
            Action::Tomes { c, stat } => b.at(19, u32::from(c) * 3 + u32::from(stat)),
            Action::Liberate(cell) => b.at(20, cell.into()),
            Action::EndTurn => b.at(21, 0),
            Action::Tile(t) => b.at(22, t.into()),
            Action::Push(n) => b.at(23, n.into()),
        }
    }

    fn action_from_index(&self, _state: &State, index: u32) -> Option<Action> {
        let (block, i) = blocks().locate(index)?;
        let x = i as u8;
        let sq = i as u16;
        Some(match block {
            0 => Action::Die(x),
            1 => Action::Roll {
                att: (i / 13) as u8,
                def: (i % 13) as u8,
            },
            2 => Action::Test(i == 1),
            3 => Action::Draw(x),
            4 => Action::First(x),
            5 => Action::Stat(x),
            6 => Action::Cell(x),
            7 => Action::Char(x),
            8 => Action::Pass,
            9 => Action::Dest(sq),
            10 => Action::Anchor(sq),
            11 => Action::Activate {
                tile: (i / 6) as u8,
                cell: (i % 6) as u8,
            },
            12 => Action::Move(x),
            13 => Action::Equip(x),
            14 => Action::Give {
                c: (i / 6) as u8,
                p: (i % 6) as u8,
            },
            15 => Action::Attack {
                c: (i / 6) as u8,
                d: (i % 6) as u8,
            },
            16 => Action::Teleport {
                c: (i / S) as u8,
                to: (i % S) as u16,
            },
            17 => Action::Portal(x),
            18 => Action::Potions(x),
            19 => Action::Tomes {
                c: (i / 3) as u8,
                stat: (i % 3) as u8,
            },
            20 => Action::Liberate(x),
            21 => Action::EndTurn,
            22 => Action::Tile(x),
            _ => Action::Push(x),
        })
    }

    /// The board as the seat sees it.
    fn information_string(&self, state: &State, player: PlayerId) -> String {
        crate::game::Reporting::render(self, state, Some(player))
    }

    fn observation_shape(&self) -> Vec<usize> {
        let chars = 6 * 20;
        let piles = 6 * 3 * (2 + MAX_MISSIONS);
        let tiles = MAX_TILES * 7;
        let deck = MAX_MISSIONS + 1;
        let rest = 6 + PHASES + 1 + 1 + 2 + 6 + 1 + 1 + 1 + 11 + 4 + 2 + 1;
        vec![chars + 6 + piles + tiles + deck + rest]
    }

    fn observation_tensor(&self, state: &State, player: PlayerId, out: &mut Vec<f32>) {
        out.clear();
        let key = self.info(state, player);
        let v = &key.view;
        let n = self.n;
        for ch in &v.ch {
            out.push(f32::from(u8::from(ch.in_play)));
            out.push(f32::from(u8::from(ch.on_board())));
            out.push(f32::from(u8::from(ch.in_play && ch.side == key.side)));
            let seat = if ch.in_play {
                relative(ch.seat.into(), player, n)
            } else {
                6
            };
            one_hot(out, seat, 6);
            self.square(out, ch.pos);
            out.extend([ch.prison, ch.prison_cell, ch.life, ch.level].map(f32::from));
            out.extend(ch.abil.map(f32::from));
            out.push(f32::from(ch.used));
        }
        for r in 0..6 {
            out.push(if r < n {
                f32::from(v.xp[usize::from(self.seat_side[(usize::from(player) + r) % n])])
            } else {
                0.0
            });
        }
        let sides = self.n_sides;
        for r in 0..6 {
            let pile = (r < sides).then(|| &v.piles[(usize::from(key.side) + r) % sides]);
            for slot in 0..3 {
                match pile.and_then(|p| p.get(slot)) {
                    Some(card) => {
                        out.extend([1.0, f32::from(u8::from(card.public))]);
                        one_hot(out, card.id.into(), MAX_MISSIONS);
                    }
                    None => out.resize(out.len() + 2 + MAX_MISSIONS, 0.0),
                }
            }
        }
        for loc in &v.tiles {
            let (kind, index, sq) = match *loc {
                Loc::Supply => (0, 0, NO_SQ),
                Loc::Slot(i) => (1, i, NO_SQ),
                Loc::Sheet(i) => (2, i, NO_SQ),
                Loc::Board(sq) => (3, 0, sq),
            };
            one_hot(out, kind, 4);
            out.push(f32::from(index));
            let at = out.len();
            self.square(out, sq);
            out.remove(at);
        }
        let known = v.deck_known.iter().fold(0u64, |m, &c| m | 1 << c);
        bits(out, known, MAX_MISSIONS);
        out.push(key.deck_unknown as f32);
        one_hot(out, relative(v.seat.into(), player, n), 6);
        one_hot(out, phase_index(v.phase), PHASES);
        out.push(f32::from(v.round) / f32::from(self.max_rounds.max(1)));
        out.push(f32::from(v.actions_left));
        out.extend([v.att_mod, v.mov_mod].map(f32::from));
        out.extend(v.def_mod.map(f32::from));
        out.push(f32::from(v.adr_bonus));
        out.push(f32::from(u8::from(v.liberation)));
        out.push(f32::from(v.square));
        bits(out, v.events.into(), 11);
        let c = v.combat;
        out.extend([c.att, c.def, c.adr, c.rerolls].map(f32::from));
        out.extend(v.skittle.map(f32::from));
        out.push(f32::from(u8::from(v.setup)));
    }
}
