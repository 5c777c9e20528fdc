//! Card data: the card types as a TOML table (embedded default, replaceable
//! with `cards=<path>`), expanded into 64 numbered instances.

use serde::{Deserialize, Serialize};

use crate::error::SpecError;

/// Number of card instances; the state keeps fixed-size arrays of this length.
pub const NCARDS: usize = 64;
/// Most card types a data file may define (keeps action lists bounded).
pub const MAX_TYPES: usize = 24;

/// The embedded default card table.
pub const DEFAULT_CARDS: &str = include_str!("cards.toml");

/// Card colour; mosaic is wild when scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    /// Red.
    Red,
    /// Green.
    Green,
    /// Blue.
    Blue,
    /// Mosaic (wild).
    Mosaic,
}

/// The ability of a card type; each is implemented in `rules.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    /// Ruin the top card of a player's Deck.
    Panic,
    /// A player ruins a card of their choice from their Hand.
    Dwindle,
    /// A rival ruins one of their Deeds of their choice.
    Crisis,
    /// Ruin the top 2 cards of a rival's Future Life.
    HellsHeart,
    /// Ruin up to 2 Hand cards, then draw up to that many plus 1.
    Roulette,
    /// Ruin a rival's exposed Deed.
    Vengeance,
    /// Ruin 2 random cards of a rival's Hand.
    Spite,
    /// Look at a rival's Hand.
    Peek,
    /// Take any card of your Future Life into your Hand.
    Transmigrate,
    /// Ruin a Hand card and play a copy of its ability.
    Denial,
    /// Look at the top 3 Well cards, place up to 2 on your Future Life.
    Destiny,
    /// Move the top card of a rival's Future Life onto yours.
    StolenDreams,
    /// Take a rival's exposed Deed into your Hand.
    Thievery,
    /// Look at 3 random cards of a rival's Hand and take one.
    Swindle,
    /// Draw a card from the Well.
    AnotherDay,
    /// Move one of the top 3 Ruins onto your Future Life.
    Recycle,
    /// Deal 2 Well cards onto a player's Deck.
    Longevity,
    /// Take one of the top 3 Ruins into your Hand.
    Salvage,
    /// Draw 2, then place 2 Hand cards on your Future Life.
    Sowing,
    /// Draw 3 cards from the Well.
    Voyage,
    /// Move up to 2 Hand cards onto your Deeds.
    Jubilee,
    /// Play a copy of one of your Deeds' abilities.
    Embody,
    /// Play a copy of a rival's exposed Deed's ability.
    Mimic,
}

/// Whom an ability may target (spec §4.1 wordings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Who {
    /// A rival.
    Rival,
    /// Any player, yourself included.
    Any,
    /// Only yourself (no target).
    #[serde(rename = "self")]
    Own,
    /// A copy ability: the copied ability's wording applies.
    Copy,
}

impl Ability {
    /// Abilities that start by choosing a player.
    pub fn targeted(self) -> bool {
        use Ability::*;
        matches!(
            self,
            Panic
                | Dwindle
                | Crisis
                | HellsHeart
                | Vengeance
                | Spite
                | Peek
                | StolenDreams
                | Thievery
                | Swindle
                | Longevity
        )
    }

    /// The printed card text, for players.
    pub fn text(self) -> &'static str {
        use Ability::*;
        match self {
            Panic => "Ruin the top card of any player's Deck. You may then play another card.",
            Dwindle => "The player of your choice ruins a card from their Hand.",
            Crisis => "The rival of your choice ruins one of their Deeds.",
            HellsHeart => "Ruin the top 2 cards of a rival's Future Life.",
            Roulette => {
                "Ruin up to 2 cards in your Hand. You may draw up to that many cards plus 1."
            }
            Vengeance => "Ruin a rival's exposed Deed.",
            Spite => "Ruin 2 random cards from a rival's Hand.",
            Peek => "Look at a rival's Hand. You may then play another card.",
            Transmigrate => "Take any card from your Future Life into your Hand.",
            Denial => "Ruin a card from your Hand. Play a copy of that card's ability.",
            Destiny => "Look at the top 3 cards of the Well; place up to 2 on your Future Life.",
            StolenDreams => "Move the top card of a rival's Future Life onto your Future Life.",
            Thievery => "Take a rival's exposed Deed into your Hand.",
            Swindle => "Look at 3 random cards from a rival's Hand; take one into your Hand.",
            AnotherDay => "Draw a card from the Well. You may then play another card.",
            Recycle => "Move one of the top 3 Ruins onto your Future Life.",
            Longevity => "Deal 2 cards from the Well onto any player's Deck.",
            Salvage => "Take one of the top 3 Ruins into your Hand.",
            Sowing => {
                "Draw 2 cards from the Well, then place 2 cards from your Hand onto your Future Life."
            }
            Voyage => "Draw 3 cards from the Well. You may then play another card.",
            Jubilee => "Move up to 2 cards from your Hand onto your Deeds.",
            Embody => "Choose one of your Deeds. Play a copy of that Deed's ability.",
            Mimic => "Choose any rival's exposed Deed. Play a copy of that Deed's ability.",
        }
    }

    /// Denial, Embody and Mimic.
    pub fn copies(self) -> bool {
        matches!(self, Ability::Denial | Ability::Embody | Ability::Mimic)
    }
}

/// One card type as written in the data file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardType {
    /// Three-letter code (e.g. `VEN`).
    pub code: String,
    /// English name.
    pub name: String,
    /// Colour.
    pub colour: Colour,
    /// Points when played to the Deeds.
    pub points: u8,
    /// Number of instances.
    pub copies: u8,
    /// The ability.
    pub ability: Ability,
    /// Whom it targets.
    pub who: Who,
    /// "You may then play another card."
    pub bonus: bool,
}

/// The file layout: a list of `[[card]]` tables.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardFile {
    /// The card types in instance-id order.
    pub card: Vec<CardType>,
}

/// The loaded card set: types plus the type of every instance id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardSet {
    /// Card types, indexed by type number.
    pub types: Vec<CardType>,
    /// Type number of each instance id.
    pub kind: [u8; NCARDS],
    /// The lowest instance id of each type (the copies of a type have
    /// consecutive ids).
    pub first: [u8; MAX_TYPES],
}

fn validate(f: &CardFile) -> Result<(), String> {
    if f.card.is_empty() || f.card.len() > MAX_TYPES {
        return Err(format!(
            "{} card types given; expected 1 to {MAX_TYPES}",
            f.card.len()
        ));
    }
    let total: usize = f.card.iter().map(|c| usize::from(c.copies)).sum();
    if total != NCARDS {
        return Err(format!(
            "the copies add up to {total} cards; expected exactly {NCARDS}"
        ));
    }
    for (i, c) in f.card.iter().enumerate() {
        if c.copies == 0 {
            return Err(format!("card '{}' has 0 copies", c.code));
        }
        if c.points > 9 {
            return Err(format!("card '{}' has {} points (max 9)", c.code, c.points));
        }
        // Codes name the per-type metric columns (`played_<code>_<mode>`)
        // and names label actions: both must be plain and distinct.
        if c.code.is_empty()
            || c.code.len() > 8
            || !c.code.chars().all(|x| x.is_ascii_alphanumeric())
        {
            return Err(format!(
                "card code '{}' must be 1 to 8 ASCII letters or digits",
                c.code
            ));
        }
        if c.code.eq_ignore_ascii_case("ally") {
            return Err(format!(
                "card code '{}' would name the metric played_ally_future, which is taken",
                c.code
            ));
        }
        if f.card[..i]
            .iter()
            .any(|d| d.code.eq_ignore_ascii_case(&c.code))
        {
            return Err(format!(
                "card code '{}' is used twice (codes are compared ignoring case)",
                c.code
            ));
        }
        if c.name.trim().is_empty() {
            return Err(format!("card '{}' has an empty name", c.code));
        }
        if f.card[..i].iter().any(|d| d.name == c.name) {
            return Err(format!("card name '{}' is used twice", c.name));
        }
        let ok = if c.ability.copies() {
            c.who == Who::Copy
        } else if c.ability.targeted() {
            matches!(c.who, Who::Rival | Who::Any)
        } else {
            c.who == Who::Own
        };
        if !ok {
            return Err(format!(
                "card '{}': who = {:?} does not fit ability {:?} (targeted abilities take rival or any, Denial/Embody/Mimic take copy, the others self)",
                c.code, c.who, c.ability
            ));
        }
    }
    Ok(())
}

impl CardSet {
    /// Loads the embedded table, or the file at `path`, and validates it.
    pub fn load(path: Option<&str>) -> Result<CardSet, SpecError> {
        let file: CardFile = crate::data::load(path, DEFAULT_CARDS, validate)?;
        let mut kind = [0u8; NCARDS];
        let mut first = [0u8; MAX_TYPES];
        let mut id = 0;
        for (t, c) in file.card.iter().enumerate() {
            first[t] = id as u8;
            for _ in 0..c.copies {
                kind[id] = t as u8;
                id += 1;
            }
        }
        Ok(CardSet {
            types: file.card,
            kind,
            first,
        })
    }

    /// The type of instance `card`.
    pub fn ty(&self, card: u8) -> &CardType {
        &self.types[usize::from(self.kind[usize::from(card)])]
    }

    /// Short label such as `VEN#15`.
    pub fn label(&self, card: u8) -> String {
        format!("{}#{card}", self.ty(card).code)
    }
}
