//! The `uoanim` command.

use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use uoanim_cli::diag::{render_text, to_json};
use uoanim_cli::explain::{explain, Query};
use uoanim_cli::input::Inputs;

const USAGE: &str = "\
usage:
  uoanim check [OPTIONS] [PATH]...
  uoanim explain [PATH]... --state STATE (--movetype MOVE | --event EVENT | --statechange [FROM:]TO) [CONDITIONS]

PATH: a game or mod directory (mp/playeranim.script, animtrees/, weapons/mp/,
xanim/), or a single .script / .atr file; several are layered in order (a
later file of the same role replaces an earlier one). Default: '.'.

check options:
  --engine            print only the first error, exactly as the engine raises it
  --format text|json  json: one JSON object per line and diagnostic
  -A CODE             leave out diagnostics with this code (repeatable; docs/CHECK.md)
  --tree FILE         the multiplayer tree (default: multiplayer.atr of PATH)
  --weapons DIR|FILE  a weapons/mp directory or a list of weapon names, one a line

explain conditions (any of): --weapon NAME  --weaponclass NAME  --mounted NAME
  --vehicle NAME  --vehicle-motion NAME  --weapon-position NAME  --strafing NAME
  --crouching  --firing  --underhand
";

struct Args {
    command: String,
    paths: Vec<PathBuf>,
    engine: bool,
    json: bool,
    allow: HashSet<String>,
    tree: Option<PathBuf>,
    weapons: Option<PathBuf>,
    query: Query,
}

fn parse_args(argv: Vec<String>) -> Result<Args, String> {
    let mut it = argv.into_iter();
    let command = it.next().ok_or_else(|| USAGE.to_string())?;
    if command == "--help" || command == "-h" || command == "help" {
        return Err(USAGE.to_string());
    }
    if command == "--version" || command == "-V" {
        return Err(format!("uoanim {}", env!("CARGO_PKG_VERSION")));
    }
    if command != "check" && command != "explain" {
        return Err(format!("unknown command '{command}'\n{USAGE}"));
    }
    let mut a = Args {
        command,
        paths: Vec::new(),
        engine: false,
        json: false,
        allow: HashSet::new(),
        tree: None,
        weapons: None,
        query: Query::default(),
    };
    let value = |it: &mut std::vec::IntoIter<String>, opt: &str| it.next().ok_or(format!("{opt} needs a value"));
    while let Some(arg) = it.next() {
        let cond = |name: &str| Some(name.to_string());
        let as_condition = match arg.as_str() {
            "--weapon" => cond("weapons"),
            "--weaponclass" => cond("weaponclass"),
            "--mounted" => cond("mounted"),
            "--vehicle" => cond("vehicle"),
            "--vehicle-motion" => cond("vehicle_motion"),
            "--weapon-position" => cond("weapon_position"),
            "--strafing" => cond("strafing"),
            _ => None,
        };
        if let Some(c) = as_condition {
            let v = value(&mut it, &arg)?;
            a.query.conditions.push((c, v));
            continue;
        }
        match arg.as_str() {
            "--engine" => a.engine = true,
            "--format" => match value(&mut it, &arg)?.as_str() {
                "json" => a.json = true,
                "text" => a.json = false,
                other => return Err(format!("unknown format '{other}' (text or json)")),
            },
            "-A" | "--allow" => {
                a.allow.insert(value(&mut it, &arg)?);
            }
            "--tree" => a.tree = Some(PathBuf::from(value(&mut it, &arg)?)),
            "--weapons" => a.weapons = Some(PathBuf::from(value(&mut it, &arg)?)),
            "--state" => a.query.state = Some(value(&mut it, &arg)?),
            "--movetype" => a.query.movetype = Some(value(&mut it, &arg)?),
            "--event" => a.query.event = Some(value(&mut it, &arg)?),
            "--statechange" => {
                let v = value(&mut it, &arg)?;
                a.query.statechange = Some(match v.split_once(':') {
                    Some((f, t)) => (f.to_string(), t.to_string()),
                    None => (String::new(), v),
                });
            }
            "--crouching" | "--firing" | "--underhand" => a.query.conditions.push((arg[2..].to_string(), "1".into())),
            "--help" | "-h" => return Err(USAGE.to_string()),
            s if s.starts_with('-') && s.len() > 1 => {
                if let Some(code) = s.strip_prefix("-A") {
                    a.allow.insert(code.to_string());
                } else {
                    return Err(format!("unknown option '{s}'\n{USAGE}"));
                }
            }
            _ => a.paths.push(PathBuf::from(arg)),
        }
    }
    if let Some((from, _)) = &mut a.query.statechange {
        if from.is_empty() {
            *from = a.query.state.clone().unwrap_or_else(|| "combat".into());
        }
    }
    for code in &a.allow {
        if !uoanim_cli::CODES.iter().any(|(c, _)| c == code) {
            return Err(format!("unknown code '{code}' for -A (see docs/CHECK.md)"));
        }
    }
    if a.paths.is_empty() {
        a.paths.push(PathBuf::from("."));
    }
    Ok(a)
}

fn load(args: &Args) -> Result<Inputs, String> {
    let mut inputs = Inputs::default();
    for p in &args.paths {
        inputs.add_path(p)?;
    }
    if let Some(t) = &args.tree {
        inputs.set_multiplayer_tree(t)?;
    }
    if let Some(w) = &args.weapons {
        inputs.set_weapons(w)?;
    }
    Ok(inputs)
}

fn run() -> Result<ExitCode, String> {
    let args = parse_args(std::env::args().skip(1).collect())?;
    let inputs = load(&args)?;
    if inputs.script.is_none() && inputs.trees.is_empty() {
        return Err(format!("nothing to check: no playeranim.script and no .atr file in {}", args.paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")));
    }
    let allow = if args.command == "check" { args.allow.clone() } else { HashSet::new() };
    let mut report = uoanim_cli::check(&inputs, &allow);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let e = |err: std::io::Error| err.to_string();

    if args.command == "explain" {
        let Some(script) = &inputs.script else { return Err("explain needs a playeranim.script".into()) };
        let classes = report.classes.clone();
        let (Some(world), Some(obs)) = (report.world.as_mut(), report.obs.as_ref()) else {
            for d in report.diags.iter().filter(|d| d.severity == uoanim_cli::diag::Severity::Error) {
                render_text(d, Some(&script.text), false, &mut std::io::stderr()).map_err(e)?;
            }
            return Err("the script does not load: fix its errors first".into());
        };
        let text = explain(world, obs, script, &args.query, &classes)?;
        out.write_all(text.as_bytes()).map_err(e)?;
        return Ok(ExitCode::SUCCESS);
    }

    if args.engine {
        if let Some(d) = report.engine_first() {
            let text = d.engine_text.clone().unwrap_or_default();
            out.write_all(&text).map_err(e)?;
            if !text.ends_with(b"\n") {
                out.write_all(b"\n").map_err(e)?;
            }
            return Ok(ExitCode::from(1));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let terminal = stdout.is_terminal();
    let source = |file: &str| -> Option<&[u8]> {
        inputs.script.iter().chain(inputs.trees.iter()).find(|f| f.display == file).map(|f| f.text.as_slice())
    };
    for d in &report.diags {
        if args.json {
            writeln!(out, "{}", to_json(d)).map_err(e)?;
        } else {
            render_text(d, source(&d.file), terminal, &mut out).map_err(e)?;
        }
    }
    out.flush().map_err(e)?;
    if !args.json {
        let errors = report.diags.iter().filter(|d| d.severity == uoanim_cli::diag::Severity::Error).count();
        let warnings = report.diags.iter().filter(|d| d.severity == uoanim_cli::diag::Severity::Warning).count();
        eprintln!("uoanim check: {errors} error(s), {warnings} warning(s)");
    }
    Ok(if report.has_errors() { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(message) => {
            let usage = message.starts_with("usage:") || message.starts_with("uoanim ");
            if usage {
                println!("{message}");
                ExitCode::SUCCESS
            } else {
                eprintln!("uoanim: {message}");
                ExitCode::from(2)
            }
        }
    }
}
