//! Text to syntax tree: the AST keeps the user's spelling and a span on every node.

pub mod ast;
mod foreign;
pub(crate) mod habits;
mod parser;

pub use habits::repeated;
pub use parser::parse;
