//! Text to syntax tree: the AST keeps the user's spelling and a span on every node.

pub mod ast;
mod parser;

pub use parser::parse;
