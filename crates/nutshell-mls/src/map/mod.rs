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
//!
//! Not yet here: fights on the map (the fight engine still places the sides
//! on a line); see docs/mls/map.md.

mod geometry;
mod grid;
mod movement;
mod terrain;

pub use geometry::{Arc, MissileKind, arc, attackable, clear_shot, may_shoot_into, range};
pub use grid::{Facing, Square};
pub use movement::{DiagonalRun, Hand, Mover, Path, Pose, Step, cheapest_path, reachable, step};
pub use terrain::{BattleMap, MAX_MAP_SIDE, Start, Terrain};
