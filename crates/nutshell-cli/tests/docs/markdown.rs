//! The console blocks of a Markdown page: commands and the output shown
//! under each.

use std::ops::Range;

/// One `$ command` of a console block and the lines shown under it.
#[derive(Debug, Clone)]
pub struct Shown {
    /// The page's line of the `$` (1-based), for messages.
    pub line: usize,
    /// The command as the shell reads it (continuation lines joined with
    /// their backslash and newline).
    pub command: String,
    /// The output lines shown under it, as written.
    pub output: Vec<String>,
    /// Where those output lines are in the page (0-based line indices), so a
    /// blessing can replace them.
    pub output_at: Range<usize>,
}

/// A fenced block with the info string `console`.
#[derive(Debug, Clone)]
pub struct Block {
    /// The line of the opening fence (1-based).
    pub line: usize,
    pub commands: Vec<Shown>,
}

/// Every ```` ```console ```` block of `text`, in order.
pub fn console_blocks(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i].trim_start();
        if !fence.starts_with("```") {
            i += 1;
            continue;
        }
        let info = fence.trim_start_matches('`').trim();
        let open = i;
        let mut end = i + 1;
        while end < lines.len() && !lines[end].trim_start().starts_with("```") {
            end += 1;
        }
        if info == "console" {
            blocks.push(Block {
                line: open + 1,
                commands: commands(&lines, open + 1, end),
            });
        }
        i = end + 1;
    }
    blocks
}

/// The commands of the block's lines `from..to`.
fn commands(lines: &[&str], from: usize, to: usize) -> Vec<Shown> {
    let mut out: Vec<Shown> = Vec::new();
    let mut i = from;
    while i < to {
        let Some(first) = lines[i].strip_prefix("$ ") else {
            // Output before any command is not a command's: keep it with none.
            i += 1;
            continue;
        };
        let line = i + 1;
        let mut command = first.to_string();
        while command.ends_with('\\') && i + 1 < to {
            i += 1;
            command.push('\n');
            command.push_str(lines[i]);
        }
        i += 1;
        let start = i;
        while i < to && !lines[i].starts_with("$ ") {
            i += 1;
        }
        out.push(Shown {
            line,
            command,
            output: lines[start..i].iter().map(|l| l.to_string()).collect(),
            output_at: start..i,
        });
    }
    out
}

/// The lines starting `$ nutshell` anywhere in `text`, in or out of blocks:
/// the count the harness must cover.
pub fn nutshell_lines(text: &str) -> usize {
    text.lines()
        .filter(|l| l.starts_with("$ nutshell ") || *l == "$ nutshell")
        .count()
}

#[test]
fn blocks_commands_and_outputs_are_read() {
    let page = "text\n```console\n$ nutshell roll 1d6 \\\n    --seed 1\n1d6 = [3] = 3\n$ nutshell odds 3d6\n```\n```text\n$ nutshell x\n```\n";
    let blocks = console_blocks(page);
    assert_eq!(blocks.len(), 1);
    assert_eq!(blocks[0].line, 2);
    let c = &blocks[0].commands;
    assert_eq!(c.len(), 2);
    assert_eq!(c[0].command, "nutshell roll 1d6 \\\n    --seed 1");
    assert_eq!(c[0].output, vec!["1d6 = [3] = 3"]);
    assert_eq!(c[0].output_at, 4..5);
    assert!(c[1].output.is_empty());
    assert_eq!(nutshell_lines(page), 3);
}
