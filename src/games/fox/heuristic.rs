//! A one-ply evaluation after spec §9, from the Foxes' side: immediate wins
//! first, then rescue reach, Indigo's safety, Zev's guard on Scarlett and tempo.

use super::board::{SQUARES, neighbours};
use super::state::{Cell, INDIGO, PUFFER, Phase, SCARLETT, State, ZEV};
use super::{Ending, Fox};

impl Fox {
    /// Value in [-1, 1] for the Foxes (the Guardians get its negation).
    pub(super) fn fox_value(&self, s: &State) -> f64 {
        match s.phase {
            Phase::Over(Ending::Rescue) => return 1.0,
            Phase::Over(Ending::Capture | Ending::AllRevealed) => return -1.0,
            Phase::Over(Ending::Cap) => return 0.0,
            _ => {}
        }
        let (indigo, scarlett) = (s.pos[INDIGO as usize], s.pos[SCARLETT as usize]);
        let indigo_reach = self.mv.reach(s, INDIGO);
        let zev_reach = self.mv.reach(s, ZEV);
        let rescue = indigo_reach & (1 << scarlett) != 0;
        let capture = zev_reach & (1 << indigo) != 0;
        let moving = s.phase == Phase::Move;
        if moving && s.to_move == INDIGO && rescue {
            return 0.95;
        }
        if moving && s.to_move == ZEV && capture {
            return -0.95;
        }
        let face_down = f64::from(s.face_down());
        let mut v = -0.1; // the Guardians win most naive games (spec §2.4)
        if rescue {
            v += 0.3;
        }
        if capture {
            v -= 0.45;
        } else if self.rotation_threat(s, zev_reach) {
            v -= 0.2;
        }
        // Squares next to Scarlett that Indigo can reach give an entry next turn.
        let near_scarlett = (indigo_reach & neighbours(scarlett)).count_ones().min(4);
        v += 0.04 * f64::from(near_scarlett);
        // Zev is dangerous when he can end close to Indigo.
        let near_indigo = (zev_reach & neighbours(indigo)).count_ones().min(4);
        v -= 0.03 * f64::from(near_indigo);
        if self.mv.zev_guards_scarlett(s) {
            v -= 0.15;
        }
        // Tempo: every flip brings the "all revealed" win closer, steeply at the end.
        let revealed = 1.0 - face_down / 22.0;
        v -= 0.35 * revealed * revealed;
        if face_down <= 1.0 && matches!(s.cells[indigo as usize], Cell::Up(..) | Cell::Start(_)) {
            v -= 0.1;
        }
        v.clamp(-0.9, 0.9)
    }

    /// Could one Puffer rotation, still to come before Zev moves, open a path
    /// from Zev to Indigo? Candidate tiles are those next to the squares Puffer
    /// can end on (or next to him once he has moved). Spec §9 reports that this
    /// term matters for the Foxes' safety.
    /// `zev_reach`: Zev's [`MoveRules::reach`](super::movement::MoveRules::reach) in `s`.
    fn rotation_threat(&self, s: &State, zev_reach: u32) -> bool {
        let puffer = s.pos[PUFFER as usize];
        let around = match (s.to_move, s.phase) {
            (INDIGO, _) | (PUFFER, Phase::Move) => {
                let ends = self.mv.reach(s, PUFFER) | 1 << puffer;
                (0..SQUARES as u8)
                    .filter(|q| ends & (1 << q) != 0)
                    .fold(0, |m, q| m | neighbours(q))
            }
            (PUFFER, _) => neighbours(puffer),
            _ => return false,
        };
        let indigo = s.pos[INDIGO as usize];
        let free = around & !s.occupied();
        // A turn that leaves the tile's arrows as they are, or turns a tile
        // no chain of Zev's enters, leaves his reach as it is.
        let unchanged = zev_reach & (1 << indigo) != 0;
        let entered = self.mv.entered(s, ZEV);
        (0..SQUARES as u8)
            .filter(|q| free & (1 << q) != 0)
            .any(|q| {
                let Cell::Up(id, r) = s.cells[q as usize] else {
                    return false;
                };
                let now = self.mv.arrows(s.cells[q as usize]);
                (1..4).any(|k| {
                    let turned = Cell::Up(id, (r + k) % 4);
                    if entered & (1 << q) == 0 || self.mv.arrows(turned) == now {
                        return unchanged;
                    }
                    let mut t = s.clone();
                    t.cells[q as usize] = turned;
                    self.mv.reach(&t, ZEV) & (1 << indigo) != 0
                })
            })
    }
}
