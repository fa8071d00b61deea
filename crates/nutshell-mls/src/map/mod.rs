//! The MLS battle map: a square grid with facing (rule text 001, *Forward
//! Movement* to *Sideways and Rearward Movement*), read from a TOML file,
//! and movement over it at the text's costs with a cheapest-path search.
//!
//! | module | owns |
//! |---|---|
//! | `grid` | squares (`E5`), facings, adjacency |
//! | `terrain` | the map file: rows of legend characters, starts; errors with line and column |
//! | `movement` | the cost of each step, diagonal runs, the cheapest path |
//!
//! Not yet here: fights on the map (attack and shooting geometry, arcs,
//! line of sight, the set actions' movement); see docs/mls/map.md.

mod grid;
mod movement;
mod terrain;

pub use grid::{Facing, Square};
pub use movement::{DiagonalRun, Hand, Mover, Path, Pose, Step, cheapest_path, reachable, step};
pub use terrain::{BattleMap, MAX_MAP_SIDE, Start, Terrain};
