//! Text to syntax tree: the AST keeps the user's spelling and a span on every node.

pub mod ast;
pub(crate) mod habits;
mod parser;

pub use parser::parse;
