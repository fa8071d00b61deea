//! The MLS battle map: a square grid with facing (rule text 001, *Forward
//! Movement* to *Sideways and Rearward Movement*), read from a TOML file,
//! and movement over it at the text's costs with a cheapest-path search.
//!
//! | module | owns |
//! |---|---|
//! | `grid` | squares (`E5`), facings, adjacency |
//! | `terrain` | the map file: rows of legend characters, starts; errors with line and column |
//! | `movement` | the cost of each step, diagonal runs, the cheapest path |
//! | `geometry` | who is in front, the four arcs of fire, range in squares, line of sight |
//! | `distance` | steps to the nearest of some squares, around walls |
//! | `picture` | the map drawn as text, with tokens |
//!
//! Fights on a map (`FightOptions::map`) use all of these; see
//! docs/mls/map.md.

mod distance;
mod geometry;
mod grid;
mod movement;
mod picture;
mod terrain;

pub use distance::Distances;
pub use geometry::{Arc, MissileKind, arc, attackable, clear_shot, may_shoot_into, range};
pub use grid::{Facing, Square};
pub use movement::{
    DiagonalRun, Hand, Mover, Path, Pose, Reach, Step, body, body_squares, cheapest_path, explore,
    reachable, step,
};
pub use picture::{Token, arrow, picture};
pub use terrain::{BattleMap, MAX_MAP_SIDE, SideStart, Start, Terrain};
