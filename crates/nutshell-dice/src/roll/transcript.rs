//! What happened to every die: the record a roll leaves behind.
//!
//! The records are flat vectors in the order things happened, so one
//! [`Transcript`] can be reused roll after roll without allocating. Dice terms,
//! groups and labels are recorded in evaluation order; [`crate::Roll::render`]
//! and [`crate::Roll::report`] walk the plan in the same order to pair each
//! record with the text it came from.

/// Everything one roll did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Transcript {
    /// One per dice term evaluated, in evaluation order (a computed count's dice
    /// come before the dice they count).
    pub terms: Vec<TermRecord>,
    /// Every die, in the order rolled.
    pub dice: Vec<DieRecord>,
    /// Every face rolled (and every fixed face), in the order rolled.
    pub faces: Vec<FaceRecord>,
    /// One per group, in the order the groups were entered.
    pub groups: Vec<GroupRecord>,
    /// The values of every group member, groups one after another.
    pub members: Vec<MemberRecord>,
    /// One per label, in the order the labelled parts were entered.
    pub labels: Vec<LabelRecord>,
}

impl Transcript {
    /// Empties the transcript, keeping its memory.
    pub fn clear(&mut self) {
        self.terms.clear();
        self.dice.clear();
        self.faces.clear();
        self.groups.clear();
        self.members.clear();
        self.labels.clear();
    }

    /// The dice of a term.
    pub fn dice_of(&self, term: &TermRecord) -> &[DieRecord] {
        &self.dice[term.first_die as usize..(term.first_die + term.dice) as usize]
    }

    /// The faces of a die.
    pub fn faces_of(&self, die: &DieRecord) -> &[FaceRecord] {
        &self.faces[die.first_face as usize..(die.first_face + die.faces) as usize]
    }

    /// The members of a group.
    pub fn members_of(&self, group: &GroupRecord) -> &[MemberRecord] {
        &self.members
            [group.first_member as usize..(group.first_member + group.member_count) as usize]
    }
}

/// One dice term, rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TermRecord {
    /// Index of its first die in [`Transcript::dice`].
    pub first_die: u32,
    /// How many dice it rolled.
    pub dice: u32,
    /// The number of sides, when computed at roll time.
    pub sides: Option<i64>,
    /// Its value: the sum of kept dice, or the count of successes.
    pub total: i64,
    /// The label it is inside, as an index into [`Transcript::labels`].
    pub label: Option<u32>,
    /// A `nominal` or `maximize` around it fixed every face.
    pub fixed: bool,
}

/// One die: one or more faces (a reroll replaces a face, an explosion adds one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DieRecord {
    /// The term it belongs to, as an index into [`Transcript::terms`].
    pub term: u32,
    /// Index of its first face in [`Transcript::faces`].
    pub first_face: u32,
    /// How many faces, rerolled ones included.
    pub faces: u32,
    /// What it counts for: the sum of its standing faces' values.
    pub value: i64,
    /// Whether keep/drop kept it.
    pub kept: bool,
    /// Faces of it (or it, for `!!` and dice that do not explode) counted as successes.
    pub successes: u32,
    /// Faces of it counted as failures.
    pub failures: u32,
    /// It stopped exploding, or kept a face that should be rerolled, because it
    /// reached [`crate::Limits::max_repeats_per_die`].
    pub limit_reached: bool,
}

/// Why a face was rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum FaceCause {
    /// The die's first face.
    Roll,
    /// Rolled again because the face before matched `r` or `ro`.
    Reroll,
    /// Added because the face before exploded.
    Explosion,
    /// Not rolled: `nominal` or `maximize` fixed it.
    Fixed,
}

/// One face.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FaceRecord {
    /// What the die showed (for `d66`, the two-digit number).
    pub natural: i64,
    /// What it counts for, after `min`/`max` and `!p`.
    pub value: i64,
    /// Why it was rolled.
    pub cause: FaceCause,
    /// It was replaced by a reroll and counts for nothing.
    pub rerolled: bool,
    /// It exploded: another face follows.
    pub exploded: bool,
}

/// One group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupRecord {
    /// Index of its first member in [`Transcript::members`] (none when pooled).
    pub first_member: u32,
    /// How many members are recorded.
    pub member_count: u32,
    /// Its value.
    pub total: i64,
}

/// One member of a group that is not pooled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemberRecord {
    /// Its value.
    pub value: i64,
    /// Whether keep/drop kept it.
    pub kept: bool,
    /// Whether counting scored it as a success (+1), a failure (-1 or +1), or neither.
    pub score: i8,
}

/// One labelled part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LabelRecord {
    /// Its value.
    pub total: i64,
}
