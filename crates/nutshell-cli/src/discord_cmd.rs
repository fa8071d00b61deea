//! `nutshell discord commands` (the slash commands as Discord's JSON) and
//! `nutshell discord register` (sends them to Discord), and the Discord
//! flags of `nutshell serve`. The commands and the endpoint are the server
//! crate's (`nutshell_server::discord`); this only parses flags and prints.

use std::io::Write;

use crate::exit::Failure;

/// `nutshell discord`.
#[derive(Debug, clap::Subcommand)]
pub enum DiscordCommand {
    /// Print the slash commands as Discord's JSON (what `PUT
    /// /applications/{id}/commands` takes)
    Commands,
    /// Register the slash commands with Discord for an application (the bot's token from
    /// DISCORD_BOT_TOKEN)
    Register(RegisterArgs),
}

/// `nutshell discord register`.
#[derive(Debug, clap::Args)]
pub struct RegisterArgs {
    /// The application's id (the developer portal's "Application ID")
    #[arg(long, value_name = "ID")]
    pub application_id: String,
    /// Discord's API
    #[arg(
        long,
        env = "NUTSHELL_DISCORD_API_BASE",
        default_value = nutshell_server::discord::client::DEFAULT_API_BASE,
        value_name = "URL"
    )]
    pub discord_api_base: String,
}

/// The Discord flags of `nutshell serve`.
#[derive(Debug, clap::Args)]
pub struct DiscordServeArgs {
    /// Answer Discord's slash commands at POST /discord/interactions, checking each request
    /// against this public key (the application's "Public Key", 64 hex digits)
    #[arg(long, env = "NUTSHELL_DISCORD_PUBLIC_KEY", value_name = "HEX")]
    pub discord_public_key: Option<String>,
    // The same flag as `discord register`'s, written out so that its help
    // says what `serve` sends there.
    /// Discord's API, where deferred answers are sent
    #[arg(
        long,
        env = "NUTSHELL_DISCORD_API_BASE",
        default_value = nutshell_server::discord::client::DEFAULT_API_BASE,
        value_name = "URL"
    )]
    pub discord_api_base: String,
    /// Seconds a slash command may work before Discord is told to wait and the answer is sent
    /// later (Discord waits 3 seconds for the first answer)
    #[arg(
        long,
        env = "NUTSHELL_DISCORD_ANSWER_WITHIN",
        default_value_t = 2.0,
        value_name = "SECONDS"
    )]
    pub discord_answer_within: f64,
}

impl DiscordServeArgs {
    /// The server's Discord configuration, or none when no key is given.
    pub fn config(&self) -> Result<Option<nutshell_server::discord::DiscordConfig>, Failure> {
        let Some(key) = &self.discord_public_key else {
            return Ok(None);
        };
        if !(self.discord_answer_within.is_finite()
            && (0.0..=2.5).contains(&self.discord_answer_within))
        {
            return Err(Failure::bad_input(format!(
                "error: --discord-answer-within {}: expected seconds from 0 to 2.5 (Discord waits 3 for the first answer)",
                self.discord_answer_within
            )));
        }
        let mut config = nutshell_server::discord::DiscordConfig::new(key);
        config.api_base = self.discord_api_base.clone();
        config.answer_within = std::time::Duration::from_secs_f64(self.discord_answer_within);
        nutshell_server::discord::Discord::new(&config)
            .map_err(|e| Failure::bad_input(format!("error: --discord-public-key: {e}")))?;
        Ok(Some(config))
    }
}

pub fn run(command: &DiscordCommand) -> Result<(), Failure> {
    match command {
        DiscordCommand::Commands => {
            let commands = nutshell_server::discord::commands::all();
            let text = serde_json::to_string_pretty(&commands).unwrap_or_default();
            let mut out = std::io::stdout().lock();
            writeln!(out, "{text}")?;
            Ok(())
        }
        DiscordCommand::Register(args) => {
            let token = std::env::var("DISCORD_BOT_TOKEN")
                .ok()
                .filter(|t| !t.trim().is_empty())
                .ok_or_else(|| {
                    Failure::bad_input(
                        "error: set DISCORD_BOT_TOKEN to the bot's token (the developer portal's Bot page)",
                    )
                })?;
            let registered = nutshell_server::discord::client::register_blocking(
                &args.discord_api_base,
                &args.application_id,
                token.trim(),
            )
            .map_err(|e| Failure::other(format!("error: {e}")))?;
            let names: Vec<String> = registered
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| c["name"].as_str().map(|n| format!("/{n}")))
                .collect();
            let mut out = std::io::stdout().lock();
            writeln!(
                out,
                "registered {} commands for application {}: {}",
                names.len(),
                args.application_id,
                names.join(" ")
            )?;
            Ok(())
        }
    }
}
