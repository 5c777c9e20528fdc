//! Integer actions and observation tensors (see [`crate::game::encoding`]).
//!
//! Action indices, in blocks (C = 961 cells of the 31 × 31 grid, row-major
//! from (-15, -15); K = 64 card-kind slots; E = 64 equipment slots):
//! `Roll(n)` 32, `Die(f)` 5, `Draw(k)` K, `Lose(k)` K, `Draft(c)` 16,
//! `Entrance(i)` 16, `Propose{to, card}` 4·K, `Accept(k)` K, `Reject`,
//! `EndTrade`, `OpenTrade(p)` 4, `Give(k)` K, `Ask(n)` 16, `Agree`,
//! `Discard(k)` K, `AssignMove{equip, ch}` E·16, `Step{ch, to}` 16·C,
//! `Overtake{from, via, to}` C·5·5, `Join(b)` 2, `EndMove`, `Select(k)` K,
//! `At(c)` C, `Rotate(r)` 4, `Scroll{equip, at}` E·C, `EndPlace`, `Site(c)` C,
//! `AssignCombat{equip, ch}` E·16, `DoneAssign`, `Attack(s)` 2,
//! `Counter{stat, ch}` 2·17 (ch 16 for `NONE`), `Target(c)` 16, `Continue`,
//! `Retreat(c)` C, `PlayEquip(e)` E, `SkipEquip`, `MonsterStep{foe, to}`
//! 16·C, `MonsterStop`, `Pass`. Compound fields are row-major in the order
//! written. An overtake names its two hops as links of the cell they leave:
//! 0–3 the grid neighbour in that direction, 4 the stair's passage twin,
//! which the state's board fixes (the only state-dependent part).
//!
//! Factored form ([`Factored`]): `(kind, f0, f1, f2)`, the kind the block's
//! number in the order above (38) and its fields in the order written (an
//! overtake's `from`, then its two hops' links), shape (38, 961, 961, 5).
//!
//! Observation (flat), from the observer's masked state (other hands, tables,
//! discards, the pile and trades it is not party to hidden, spec §5):
//! * 18 planes of the 31 × 31 grid (plane-major, row-major): tile laid, open
//!   sides (4), stair, stair symbol / 8, exit, stair layer by relative seat
//!   (4), alive characters by relative owner (4), encounters, encounter damage;
//! * 16 characters × 15: relative owner one-hot (4 and none), alive, has a
//!   cell, x and y (/ 31), damage, movement points, stopped, moved, active
//!   equipment, came-from set;
//! * 16 encounters × 5: on the board, x, y, damage, moved;
//! * 4 seats, relative × 198: hand size, hand by kind (K), table size, table
//!   by kind (K), entrance (set, x, y), discards, discards by kind (K);
//! * pile size, kinds gone (K), phase (20), seat to move (4), round over the
//!   cap, final round, trade partner (4), offer (set, kind K), given and
//!   returned cards by kind (2K), asked, combat (set, stage 11, stat, rounds,
//!   ambush), dice rolled and successes.

use super::Hamunaptra;
use super::state::{Action, NCELLS, NO_CELL, NONE, Phase, Stage, State, W, xy};
use crate::game::PlayerId;
use crate::game::encoding::{Blocks, Encode, Factored, one_hot, relative};

const C: u32 = NCELLS as u32;
const K: u32 = 64;
const E: u32 = 64;
const PLANES: usize = 18;
const PHASES: usize = 20;
const STAGES: usize = 11;

fn blocks() -> Blocks {
    Blocks::new(&[
        32,
        5,
        K,
        K,
        16,
        16,
        4 * K,
        K,
        1,
        1,
        4,
        K,
        16,
        1,
        K,
        E * 16,
        16 * C,
        C * 25,
        2,
        1,
        K,
        C,
        4,
        E * C,
        1,
        C,
        E * 16,
        1,
        2,
        2 * 17,
        16,
        1,
        C,
        E,
        1,
        16 * C,
        1,
        1,
    ])
}

/// The factored form: the blocks' kinds with their fields, in order.
fn factored() -> Factored {
    let f = Factored::new(vec![
        vec![32],
        vec![5],
        vec![K],
        vec![K],
        vec![16],
        vec![16],
        vec![4, K],
        vec![K],
        vec![],
        vec![],
        vec![4],
        vec![K],
        vec![16],
        vec![],
        vec![K],
        vec![E, 16],
        vec![16, C],
        vec![C, 5, 5],
        vec![2],
        vec![],
        vec![K],
        vec![C],
        vec![4],
        vec![E, C],
        vec![],
        vec![C],
        vec![E, 16],
        vec![],
        vec![2],
        vec![2, 17],
        vec![16],
        vec![],
        vec![C],
        vec![E],
        vec![],
        vec![16, C],
        vec![],
        vec![],
    ]);
    debug_assert!(f.matches(&blocks()));
    f
}

fn phase_index(p: Phase) -> usize {
    match p {
        Phase::FirstRoll => 0,
        Phase::Draft => 1,
        Phase::Entrance => 2,
        Phase::Draw => 3,
        Phase::Trade => 4,
        Phase::TradeBuild => 5,
        Phase::TradeReply => 6,
        Phase::TradeDiscard => 7,
        Phase::Move => 8,
        Phase::OvertakeGroup => 9,
        Phase::Place => 10,
        Phase::PlaceCell => 11,
        Phase::PlaceRot => 12,
        Phase::Penalty => 13,
        Phase::Site => 14,
        Phase::Fight => 15,
        Phase::Equip => 16,
        Phase::Monsters => 17,
        Phase::MonsterStep2 => 18,
        Phase::Over => 19,
    }
}

fn stage_index(s: Stage) -> usize {
    match s {
        Stage::Assign => 0,
        Stage::QAssign => 1,
        Stage::Stat => 2,
        Stage::TargetDef => 3,
        Stage::TargetAtt => 4,
        Stage::AttackRoll => 5,
        Stage::Counter => 6,
        Stage::CounterDef => 7,
        Stage::CounterRoll => 8,
        Stage::PvpRoll => 9,
        Stage::Decide => 10,
    }
}

impl Hamunaptra {
    /// The link (0–3 a direction, 4 the passage) from `from` to `to`.
    fn link_of(&self, from: u16, to: u16) -> u32 {
        (0..4u32)
            .find(|&d| self.nb(from, d as usize) == Some(to))
            .unwrap_or(4)
    }

    /// The cell the link `k` of `from` leads to at `s` (`NO_CELL` if none).
    fn follow(&self, s: &State, from: u16, k: u32) -> u16 {
        let next = if k < 4 {
            self.nb(from, k as usize)
        } else {
            self.twin(s, from)
        };
        next.unwrap_or(NO_CELL)
    }

    /// Appends set, x / W and y / W of a cell.
    fn cell(out: &mut Vec<f32>, c: u16) {
        if c == NO_CELL || usize::from(c) >= NCELLS {
            out.extend([0.0, 0.0, 0.0]);
        } else {
            let (x, y) = xy(c);
            out.extend([1.0, x as f32 / W as f32, y as f32 / W as f32]);
        }
    }

    /// Cards of `pile` (hidden ones skipped) counted by kind.
    fn kinds(out: &mut Vec<f32>, pile: &[u8]) {
        let at = out.len();
        out.resize(at + K as usize, 0.0);
        for &k in pile.iter().filter(|&&k| u32::from(k) < K) {
            out[at + usize::from(k)] += 1.0;
        }
    }
}

impl Encode for Hamunaptra {
    fn factored(&self) -> Option<Factored> {
        Some(factored())
    }

    fn num_distinct_actions(&self) -> u32 {
        blocks().total()
    }

    fn action_index(&self, _state: &State, action: Action) -> u32 {
        let b = blocks();
        let pair = |x: u8, y: u8, n: u32| u32::from(x) * n + u32::from(y);
        let at_cell = |x: u8, c: u16| u32::from(x) * C + u32::from(c);
        match action {
            Action::Roll(n) => b.at(0, n.into()),
            Action::Die(f) => b.at(1, f.into()),
            Action::Draw(k) => b.at(2, k.into()),
            Action::Lose(k) => b.at(3, k.into()),
            Action::Draft(c) => b.at(4, c.into()),
            Action::Entrance(i) => b.at(5, i.into()),
            Action::Propose { to, card } => b.at(6, pair(to, card, K)),
            Action::Accept(k) => b.at(7, k.into()),
            Action::Reject => b.at(8, 0),
            Action::EndTrade => b.at(9, 0),
            Action::OpenTrade(p) => b.at(10, p.into()),
            Action::Give(k) => b.at(11, k.into()),
            Action::Ask(n) => b.at(12, n.into()),
            Action::Agree => b.at(13, 0),
            Action::Discard(k) => b.at(14, k.into()),
            Action::AssignMove { equip, ch } => b.at(15, pair(equip, ch, 16)),
            Action::Step { ch, to } => b.at(16, at_cell(ch, to)),
            Action::Overtake { from, via, to } => {
                let hops = self.link_of(from, via) * 5 + self.link_of(via, to);
                b.at(17, u32::from(from) * 25 + hops)
            }
            Action::Join(j) => b.at(18, j.into()),
            Action::EndMove => b.at(19, 0),
            Action::Select(k) => b.at(20, k.into()),
            Action::At(c) => b.at(21, c.into()),
            Action::Rotate(r) => b.at(22, r.into()),
            Action::Scroll { equip, at } => b.at(23, at_cell(equip, at)),
            Action::EndPlace => b.at(24, 0),
            Action::Site(c) => b.at(25, c.into()),
            Action::AssignCombat { equip, ch } => b.at(26, pair(equip, ch, 16)),
            Action::DoneAssign => b.at(27, 0),
            Action::Attack(s) => b.at(28, s.into()),
            Action::Counter { stat, ch } => b.at(29, pair(stat, ch.min(16), 17)),
            Action::Target(c) => b.at(30, c.into()),
            Action::Continue => b.at(31, 0),
            Action::Retreat(c) => b.at(32, c.into()),
            Action::PlayEquip(e) => b.at(33, e.into()),
            Action::SkipEquip => b.at(34, 0),
            Action::MonsterStep { foe, to } => b.at(35, at_cell(foe, to)),
            Action::MonsterStop => b.at(36, 0),
            Action::Pass => b.at(37, 0),
        }
    }

    fn action_from_index(&self, state: &State, index: u32) -> Option<Action> {
        let (block, i) = blocks().locate(index)?;
        let x = i as u8;
        let hi = |n: u32| (i / n) as u8;
        let cell = (i % C) as u16;
        Some(match block {
            0 => Action::Roll(x),
            1 => Action::Die(x),
            2 => Action::Draw(x),
            3 => Action::Lose(x),
            4 => Action::Draft(x),
            5 => Action::Entrance(x),
            6 => Action::Propose {
                to: hi(K),
                card: (i % K) as u8,
            },
            7 => Action::Accept(x),
            8 => Action::Reject,
            9 => Action::EndTrade,
            10 => Action::OpenTrade(x),
            11 => Action::Give(x),
            12 => Action::Ask(x),
            13 => Action::Agree,
            14 => Action::Discard(x),
            15 => Action::AssignMove {
                equip: hi(16),
                ch: (i % 16) as u8,
            },
            16 => Action::Step {
                ch: hi(C),
                to: cell,
            },
            17 => {
                let from = (i / 25) as u16;
                let via = self.follow(state, from, i % 25 / 5);
                if via == NO_CELL {
                    return None;
                }
                let to = self.follow(state, via, i % 5);
                if to == NO_CELL {
                    return None;
                }
                Action::Overtake { from, via, to }
            }
            18 => Action::Join(i == 1),
            19 => Action::EndMove,
            20 => Action::Select(x),
            21 => Action::At(i as u16),
            22 => Action::Rotate(x),
            23 => Action::Scroll {
                equip: hi(C),
                at: cell,
            },
            24 => Action::EndPlace,
            25 => Action::Site(i as u16),
            26 => Action::AssignCombat {
                equip: hi(16),
                ch: (i % 16) as u8,
            },
            27 => Action::DoneAssign,
            28 => Action::Attack(x),
            29 => Action::Counter {
                stat: hi(17),
                ch: match (i % 17) as u8 {
                    16 => NONE,
                    c => c,
                },
            },
            30 => Action::Target(x),
            31 => Action::Continue,
            32 => Action::Retreat(i as u16),
            33 => Action::PlayEquip(x),
            34 => Action::SkipEquip,
            35 => Action::MonsterStep {
                foe: hi(C),
                to: cell,
            },
            36 => Action::MonsterStop,
            _ => Action::Pass,
        })
    }

    /// The rendering of the masked state: the plain rendering shows every
    /// seat's VP, which counts equipment in hands the seat cannot see.
    fn information_string(&self, state: &State, player: PlayerId) -> String {
        crate::game::Reporting::render(self, &self.mask(state, player), Some(player))
    }

    fn observation_shape(&self) -> Vec<usize> {
        let k = K as usize;
        let players = 4 * (1 + k + 1 + k + 3 + 1 + k);
        let rest = 1 + k + PHASES + 4 + 1 + 1 + 4 + 1 + k + 2 * k + 1 + 1 + STAGES + 3 + 2;
        vec![PLANES * NCELLS + 16 * 15 + 16 * 5 + players + rest]
    }

    fn observation_tensor(&self, state: &State, player: PlayerId, out: &mut Vec<f32>) {
        out.clear();
        let m = self.mask(state, player);
        let n = usize::from(self.players);
        let rel = |seat: u8| relative(seat.into(), player, n);
        out.resize(PLANES * NCELLS, 0.0);
        let mut set = |plane: usize, c: usize, v: f32| out[plane * NCELLS + c] += v;
        for (c, cell) in m.cells.iter().enumerate() {
            if cell.tile == 0 {
                continue;
            }
            set(0, c, 1.0);
            let open = self.open(&m, c as u16);
            for d in 0..4 {
                set(1 + d, c, f32::from(open >> d & 1));
            }
            set(5, c, f32::from(u8::from(self.is_stair(&m, c as u16))));
            set(6, c, f32::from(self.symbol(&m, c as u16)) / 8.0);
            set(7, c, f32::from(u8::from(cell.exit)));
            if cell.placer != 0 {
                set(8 + rel(cell.placer - 1), c, 1.0);
            }
        }
        for ch in m
            .chars
            .iter()
            .filter(|ch| ch.alive && usize::from(ch.cell) < NCELLS)
        {
            if usize::from(ch.owner) < n {
                set(12 + rel(ch.owner), usize::from(ch.cell), 1.0);
            }
        }
        for foe in m.foes.iter().filter(|f| usize::from(f.cell) < NCELLS) {
            set(16, usize::from(foe.cell), 1.0);
            set(17, usize::from(foe.cell), f32::from(foe.dmg));
        }
        for ch in &m.chars {
            let owner = if usize::from(ch.owner) < n {
                rel(ch.owner)
            } else {
                4
            };
            one_hot(out, owner, 5);
            out.push(f32::from(u8::from(ch.alive)));
            Self::cell(out, ch.cell);
            out.extend([ch.dmg, ch.mp, u8::from(ch.stopped), u8::from(ch.moved)].map(f32::from));
            out.push(f32::from(u8::from(ch.active != NONE)));
            out.push(f32::from(u8::from(ch.came_from != NO_CELL)));
        }
        for foe in &m.foes {
            Self::cell(out, foe.cell);
            out.extend([foe.dmg, u8::from(foe.moved)].map(f32::from));
        }
        for r in 0..4 {
            let per = 1 + 2 * K as usize + 1 + 3 + 1 + K as usize;
            if r >= n {
                out.resize(out.len() + per, 0.0);
                continue;
            }
            let pl = &m.players[(usize::from(player) + r) % n];
            out.push(pl.hand.len() as f32);
            Self::kinds(out, &pl.hand);
            out.push(pl.table.len() as f32);
            Self::kinds(out, &pl.table);
            Self::cell(out, pl.entrance);
            out.push(f32::from(pl.ndisc));
            out.extend(pl.discarded.map(f32::from));
        }
        out.push(f32::from(m.pile_len));
        out.extend(m.gone.map(f32::from));
        one_hot(out, phase_index(m.phase), PHASES);
        one_hot(out, rel(m.seat), 4);
        out.push(f32::from(m.round) / f32::from(self.max_rounds.max(1)));
        out.push(f32::from(u8::from(m.final_round)));
        let partner = if usize::from(m.trade_to) < n {
            rel(m.trade_to)
        } else {
            4
        };
        one_hot(out, partner, 4);
        match m.offer {
            Some((_, card)) => {
                out.push(1.0);
                one_hot(out, card.into(), K as usize);
            }
            None => out.resize(out.len() + 1 + K as usize, 0.0),
        }
        Self::kinds(out, &m.give);
        Self::kinds(out, &m.back);
        out.push(f32::from(m.ask));
        match m.combat {
            Some(c) => {
                out.push(1.0);
                one_hot(out, stage_index(c.stage), STAGES);
                out.extend([c.stat, c.rounds, u8::from(c.ambush)].map(f32::from));
            }
            None => out.resize(out.len() + 1 + STAGES + 3, 0.0),
        }
        out.extend([m.dice_rolled, m.dice_succ].map(f32::from));
    }
}
