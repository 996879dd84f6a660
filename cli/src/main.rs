//! The `uoanim` command.

#![forbid(unsafe_code)]

use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use clap::{Parser, Subcommand, ValueEnum};
use uoanim_cli::diag::{render_text, to_json, to_sarif, Render};
use uoanim_cli::explain::{explain, grid, grid_html, grid_text, Query};
use uoanim_cli::input::Inputs;

/// The engine's own parsers and runtime as a checker for Call of Duty:
/// United Offensive `mp/playeranim.script` and `.atr` files.
#[derive(Parser)]
#[command(name = "uoanim", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
#[allow(clippy::large_enum_variant)] // parsed once
enum Command {
    /// Check a mod: every error (the engine's first marked) and warning.
    Check {
        #[command(flatten)]
        input: InputArgs,
        /// Print only the first error, exactly as the engine raises it.
        #[arg(long)]
        engine: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Colours in the text output.
        #[arg(long, value_enum, value_name = "WHEN", default_value_t = Colour::Auto)]
        color: Colour,
        /// Leave out diagnostics with this code (repeatable; docs/CHECK.md).
        #[arg(short = 'A', long = "allow", value_name = "CODE")]
        allow: Vec<String>,
        /// Report this opt-in code too (repeatable: and-union,
        /// unused-define).
        #[arg(short = 'W', long = "warn", value_name = "CODE")]
        warn: Vec<String>,
    },
    /// Walk the blocks the engine's runtime looks at for a query.
    Explain {
        #[command(flatten)]
        input: InputArgs,
        #[arg(long, default_value = "combat")]
        state: String,
        #[arg(long, value_name = "MOVE")]
        movetype: Option<String>,
        #[arg(long)]
        event: Option<String>,
        /// A state change: [FROM:]TO.
        #[arg(long, value_name = "[FROM:]TO")]
        statechange: Option<String>,
        #[arg(long, value_name = "NAME")]
        weapon: Option<String>,
        #[arg(long, value_name = "NAME")]
        weaponclass: Option<String>,
        #[arg(long, value_name = "NAME")]
        mounted: Option<String>,
        #[arg(long, value_name = "NAME")]
        vehicle: Option<String>,
        #[arg(long = "vehicle-motion", value_name = "NAME")]
        vehicle_motion: Option<String>,
        #[arg(long = "weapon-position", value_name = "NAME")]
        weapon_position: Option<String>,
        #[arg(long, value_name = "NAME")]
        strafing: Option<String>,
        #[arg(long)]
        crouching: bool,
        #[arg(long)]
        firing: bool,
        #[arg(long)]
        underhand: bool,
        /// Every state and move type: what the runtime plays for this
        /// player (the weapon and the other conditions given).
        #[arg(long)]
        grid: bool,
        /// Output format of --grid.
        #[arg(long, value_enum, default_value_t = GridFormat::Text)]
        format: GridFormat,
    },
    /// A Language Server Protocol server over stdio (for editors).
    Lsp,
}

#[derive(clap::Args)]
struct InputArgs {
    /// Mod directories (mp/playeranim.script, animtrees/, weapons/mp/,
    /// xanim/, .pk3 paks; a file or folder inside a mod finds the mod), paks,
    /// or single .script / .atr files; layered in order (a later file of the
    /// same role replaces an earlier one).
    #[arg(value_name = "PATH", default_value = ".")]
    paths: Vec<PathBuf>,
    /// The multiplayer tree (default: multiplayer.atr of PATH).
    #[arg(long, value_name = "FILE")]
    tree: Option<PathBuf>,
    /// A weapons/mp directory or a list of weapon names, one a line
    /// (default: the weapon files found, added to the stock UO names).
    #[arg(long, value_name = "DIR|FILE")]
    weapons: Option<PathBuf>,
    /// The game's folder (holding main/ and uo/): its paks and loose files
    /// are searched under the mod's, in the game's order (default: the
    /// stock names built in).
    #[arg(long, value_name = "DIR")]
    game: Option<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Colour {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    Always,
    Never,
}

impl Colour {
    fn on(self, terminal: bool) -> bool {
        match self {
            Colour::Auto => terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
            Colour::Always => true,
            Colour::Never => false,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum GridFormat {
    /// A table: a row per move type, a column per state.
    Text,
    /// A self-contained HTML page.
    Html,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Each diagnostic's first line, its source line with the token
    /// underlined, and its note.
    Text,
    /// Each diagnostic's first line and its note.
    Short,
    /// One JSON object per line and diagnostic.
    Json,
    /// SARIF 2.1.0, for code-scanning interfaces.
    Sarif,
}

struct Args {
    command: String,
    paths: Vec<PathBuf>,
    engine: bool,
    format: Format,
    colour: Colour,
    allow: HashSet<String>,
    tree: Option<PathBuf>,
    weapons: Option<PathBuf>,
    game: Option<PathBuf>,
    query: Query,
    /// `explain --grid`, and its format.
    grid: Option<GridFormat>,
}

fn parse_args(cli: Cli) -> Result<Args, String> {
    let mut grid_format = None;
    let (command, input, engine, format, colour, allow, query) = match cli.command {
        Command::Lsp => return Err("lsp".into()),
        Command::Check { input, engine, format, color, allow, warn } => {
            let (allow, warn): (HashSet<String>, HashSet<String>) = (allow.into_iter().collect(), warn.into_iter().collect());
            for code in &warn {
                if !uoanim_cli::CODES.iter().any(|(c, _)| c == code) {
                    return Err(format!("unknown code '{code}' for -W (see docs/CHECK.md)"));
                }
            }
            ("check", input, engine, format, color, uoanim_cli::left_out(&allow, &warn), Query::default())
        }
        Command::Explain {
            input, state, movetype, event, statechange, weapon, weaponclass, mounted, vehicle, vehicle_motion, weapon_position, strafing, crouching, firing, underhand, grid, format,
        } => {
            grid_format = grid.then_some(format);
            let mut q = Query { state: Some(state.clone()), movetype, event, ..Query::default() };
            q.statechange = statechange.map(|v| match v.split_once(':') {
                Some((f, t)) => (f.to_string(), t.to_string()),
                None => (state.clone(), v),
            });
            let named = [
                ("weapons", weapon),
                ("weaponclass", weaponclass),
                ("mounted", mounted),
                ("vehicle", vehicle),
                ("vehicle_motion", vehicle_motion),
                ("weapon_position", weapon_position),
                ("strafing", strafing),
            ];
            for (c, v) in named {
                if let Some(v) = v {
                    q.conditions.push((c.to_string(), v));
                }
            }
            for (c, on) in [("crouching", crouching), ("firing", firing), ("underhand", underhand)] {
                if on {
                    q.conditions.push((c.to_string(), "1".into()));
                }
            }
            ("explain", input, false, Format::Text, Colour::Auto, HashSet::new(), q)
        }
    };
    for code in &allow {
        if !uoanim_cli::CODES.iter().any(|(c, _)| c == code) {
            return Err(format!("unknown code '{code}' for -A (see docs/CHECK.md)"));
        }
    }
    Ok(Args { command: command.into(), paths: input.paths, engine, format, colour, allow, tree: input.tree, weapons: input.weapons, game: input.game, query, grid: grid_format })
}

fn load(args: &Args) -> Result<Inputs, String> {
    let mut inputs = Inputs::load(&args.paths, args.game.as_deref())?;
    if let Some(t) = &args.tree {
        inputs.set_multiplayer_tree(t)?;
    }
    if let Some(w) = &args.weapons {
        inputs.set_weapons(w)?;
    }
    Ok(inputs)
}

fn run(cli: Cli) -> Result<ExitCode, String> {
    let args = parse_args(cli)?;
    let inputs = load(&args)?;
    if !inputs.has_mod_files() && inputs.notices.is_empty() {
        return Err(format!("nothing to check: no playeranim.script and no .atr file in {}", args.paths.iter().map(|p| uoanim_cli::input::display_path(p)).collect::<Vec<_>>().join(", ")));
    }
    let allow = if args.command == "check" { args.allow.clone() } else { HashSet::new() };
    let mut report = uoanim_cli::check(&inputs, &allow);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let e = |err: std::io::Error| err.to_string();

    let source = |file: &str| -> Option<&[u8]> {
        inputs.script.iter().chain(inputs.trees.iter()).find(|f| f.display == file).map(|f| f.text.as_slice())
    };
    if args.command == "explain" {
        let Some(script) = &inputs.script else { return Err("explain needs a playeranim.script".into()) };
        let facts = uoanim_cli::explain::Facts { classes: report.classes.clone(), class_from: report.class_from.clone(), stock_tree: report.stock_tree };
        let (Some(world), Some(obs)) = (report.world.as_mut(), report.obs.as_ref()) else {
            let how = Render { snippet: true, colour: args.colour.on(std::io::stderr().is_terminal()) };
            for d in report.diags.iter().filter(|d| d.severity == uoanim_cli::diag::Severity::Error) {
                render_text(d, source(&d.file), how, &mut std::io::stderr()).map_err(e)?;
            }
            return Err("the script does not load: fix its errors first".into());
        };
        let text = match args.grid {
            Some(how) => {
                let g = grid(world, obs, script, &args.query, &facts)?;
                match how {
                    GridFormat::Text => grid_text(&g),
                    GridFormat::Html => grid_html(&g, &script.display),
                }
            }
            None => explain(world, obs, script, &args.query, &facts)?,
        };
        out.write_all(text.as_bytes()).map_err(e)?;
        return Ok(ExitCode::SUCCESS);
    }

    if args.engine {
        if let Some(d) = report.engine_first() {
            let text = d.engine_text.clone().unwrap_or_default();
            if args.format == Format::Json {
                // the diagnostic, its engine_text the exact text
                writeln!(out, "{}", to_json(d)).map_err(e)?;
            } else if stdout.is_terminal() {
                // the engine's marker byte and any other control byte as
                // \xHH on a terminal; the exact bytes into a pipe or file
                writeln!(out, "{}", uoanim_cli::diag::printable(text.strip_suffix(b"\n").unwrap_or(&text))).map_err(e)?;
            } else {
                out.write_all(&text).map_err(e)?;
                if !text.ends_with(b"\n") {
                    out.write_all(b"\n").map_err(e)?;
                }
            }
            return Ok(ExitCode::from(1));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let how = Render { snippet: args.format == Format::Text, colour: args.colour.on(stdout.is_terminal()) };
    if args.format == Format::Sarif {
        let sarif = to_sarif(&report.diags, uoanim_cli::CODES, env!("CARGO_PKG_VERSION"));
        writeln!(out, "{}", serde_json::to_string_pretty(&sarif).map_err(|e| e.to_string())?).map_err(e)?;
        return Ok(if report.has_errors() { ExitCode::from(1) } else { ExitCode::SUCCESS });
    }
    if args.format == Format::Json {
        for d in &report.diags {
            writeln!(out, "{}", to_json(d)).map_err(e)?;
        }
    } else {
        // A repeated diagnostic (same file, code and message) is printed
        // once, with where the others are.
        let mut groups: Vec<Vec<&uoanim_cli::diag::Diagnostic>> = Vec::new();
        let mut group_of: std::collections::HashMap<(&str, &str, &str), usize> = std::collections::HashMap::new();
        for d in &report.diags {
            let g = *group_of.entry((d.file.as_str(), d.code, d.message.as_str())).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push(d);
        }
        for group in &groups {
            let d = group[0];
            let others: Vec<u32> = group[1..].iter().map(|o| o.line).collect();
            if others.is_empty() {
                render_text(d, source(&d.file), how, &mut out).map_err(e)?;
                continue;
            }
            let mut shown = d.clone();
            let lines: Vec<String> = others.iter().take(10).map(u32::to_string).collect();
            let more = if others.len() > 10 { format!(", {} more", others.len() - 10) } else { String::new() };
            let also = format!("and {} more: line{} {}{more}", others.len(), if others.len() == 1 { "" } else { "s" }, lines.join(", "));
            shown.note = Some(match shown.note.take() {
                Some(n) => format!("{n}\n{also}"),
                None => also,
            });
            render_text(&shown, source(&d.file), how, &mut out).map_err(e)?;
        }
    }
    out.flush().map_err(e)?;
    if matches!(args.format, Format::Text | Format::Short) {
        let errors = report.diags.iter().filter(|d| d.severity == uoanim_cli::diag::Severity::Error).count();
        let warnings = report.diags.iter().filter(|d| d.severity == uoanim_cli::diag::Severity::Warning).count();
        let notes = report.diags.iter().filter(|d| d.severity == uoanim_cli::diag::Severity::Note).count();
        eprintln!("uoanim check: {errors} error(s), {warnings} warning(s), {notes} note(s)");
    }
    Ok(if report.has_errors() { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Command::Lsp = cli.command {
        use uoanim_cli::lsp::{transport::Stream, Ending};
        let mut stdio = Stream::new(std::io::stdin().lock(), std::io::stdout().lock());
        let ending = uoanim_cli::lsp::serve_on(&mut stdio);
        match ending {
            Ending::Exit => {}
            Ending::ExitWithoutShutdown => eprintln!("uoanim lsp: exit without shutdown"),
            Ending::EndOfInput => eprintln!("uoanim lsp: the input ended without exit"),
        }
        return ExitCode::from(ending.code());
    }
    match run(cli) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("uoanim: {message}");
            ExitCode::from(2)
        }
    }
}
