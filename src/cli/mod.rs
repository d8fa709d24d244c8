//! Command-line interface. Every command returns the exit code scripts can trust:
//! 0 success / check passed, 1 check found defects, 2 bad input, 3 environment failure.

#[macro_use]
pub(crate) mod output;
mod build;
mod cabling;
mod check;
mod check_multipath;
mod check_report;
mod demo;
mod export;
mod faults;
mod lfts;
mod lfts_diff;
mod lfts_vls;
mod metrics;
mod plan_paths;
mod predict;
mod recognize;
mod route;
mod route_report;
mod schedule;
mod schedule_bcast;
mod shell;
mod signals;
mod topo;
mod whoami;

use clap::{CommandFactory, Parser, Subcommand};

/// The long description: what ibfat does, the families (from the registry) and the exit
/// codes scripts rely on.
fn long_about() -> String {
    format!(
        "Plan, route and verify InfiniBand fat-tree fabrics built from finite geometry.

Families (--family of recognize, route, schedule and predict; build makes all but tree):
{}
Exit codes: 0 success (or the check passed), 1 a check found defects,
2 bad input (the message names the field and the valid range), 3 I/O or tool failure.",
        ibfat::families::help_list()
    )
}

/// `--family`: `auto` or a family name of the registry. Clap checks the value and lists
/// the choices in the help and the completions.
fn family_choice() -> clap::builder::PossibleValuesParser {
    let names = std::iter::once("auto").chain(ibfat::FAMILIES.iter().map(|e| e.name));
    clap::builder::PossibleValuesParser::new(names.map(clap::builder::PossibleValue::new))
}

/// `-h`: a few examples, so that it fits a screen; `--help` has them all.
const AFTER_SHORT_HELP: &str = "\
Examples (more with --help):
  ibfat demo                                   build two example plans and report
  ibfat build lsft --order 7 --out lsft7/      plan an order-7 Latin-square fat-tree
  ibfat route fabric.txt -o lfts/              LFTs for what ibnetdiscover printed
  ibfat check fabric.txt --pattern shift       link conflicts of a shift, phase by phase";

const AFTER_HELP: &str = "\
Examples:
  ibfat demo                                   build two example plans and report
  ibfat build lsft --order 7 --out lsft7/      plan an order-7 Latin-square fat-tree
  ibfat build kary --arity 4 --levels 3 --out ft/
  ibfat build mols --arity 7 --out mols7/      MOLS proximity 3-level tree
  ibfat build --spec lsft7/fabric.yaml --out again/   rebuild the identical fabric
  ibfat metrics hops --json                    latency figures of the 3-level wirings
  ibfat schedule lsft7/ --pattern lsft --out a2a.json   conflict-free all-to-all
  ibfat plan-paths mesh8/ --direct-share 3 --out plan.json   multipath plan of a full mesh
  ibfat check merge shard*.json --json         combine the shards of a cluster array job
  ibfat completions bash > /usr/share/bash-completion/completions/ibfat
  ibfat export slurm-topology fabric.txt -o topology.conf   Slurm's view of the fabric
  ibfat predict ricc/ --job ranks:0-3,20-23 --msg-size 16K,1M   all-to-all algorithm shortlist
  ibfat man | man -l -                         this manual as a man page";

#[derive(Parser, Debug)]
#[command(name = "ibfat", version, about = "Plan, route and verify InfiniBand fat-tree fabrics built from finite geometry",
          long_about = long_about(), after_help = AFTER_SHORT_HELP, after_long_help = AFTER_HELP, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// No notes, warnings or progress bars on stderr (errors still print)
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Say on stderr what was read and recognised, and the time taken
    #[arg(short, long, global = true)]
    verbose: bool,
    /// Name nodes in every report and output as this map does
    ///
    /// The map is in the infiniband-diags format: `0xGUID "name"` per line.
    #[arg(long, global = true, value_name = "FILE")]
    node_name_map: Option<std::path::PathBuf>,
    /// Read TOPOLOGY files as this format instead of detecting it: auto, ibnetdiscover,
    /// ports, ibdiagnet, ibsim, iblinkinfo, iblinkinfo-l, subnet-lst, ibdiagnet-lst
    #[arg(long, global = true, value_name = "FMT", default_value = "auto", value_parser = parse_format, help_heading = "Reading", hide_short_help = true)]
    input_format: FormatArg,
    /// Keep a dump whose cables lead outside it (a trimmed dump): those ports count as
    /// uncabled and are listed as leading outside
    #[arg(long, global = true, help_heading = "Reading", hide_short_help = true)]
    partial: bool,
    /// Host roles: the compute hosts, one GUID per line
    ///
    /// As OpenSM ftree's cn_guid_file; every other host is non-compute (routed, left out
    /// of the rank order).
    #[arg(
        long,
        global = true,
        value_name = "FILE",
        help_heading = "Host roles",
        hide_short_help = true
    )]
    compute_guids: Option<std::path::PathBuf>,
    /// Host roles: non-compute hosts (storage, login), one GUID per line
    ///
    /// As ftree's io_guid_file.
    #[arg(
        long,
        global = true,
        value_name = "FILE",
        help_heading = "Host roles",
        hide_short_help = true
    )]
    io_guids: Option<std::path::PathBuf>,
    /// Host roles: non-compute hosts by name pattern (`stor*`); repeatable
    ///
    /// A pattern (`stor*`, `login?`) matches the node name, its description or the
    /// description's first word.
    #[arg(
        long,
        global = true,
        value_name = "PATTERN",
        help_heading = "Host roles",
        hide_short_help = true
    )]
    io_hosts: Vec<String>,
    /// Print the report as JSON (also accepted after the subcommand)
    #[arg(long = "json", id = "json_first")]
    json_first: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Build a fabric and write its wiring plan (ibsim net file, cable list, spec, picture)
    Build(build::BuildArgs),
    /// Cost and latency figures: hosts/switches/cables per family, hops per wiring
    Metrics(metrics::MetricsArgs),
    /// Build an order-7 Latin-square fat-tree and a 7-ary MOLS 3-tree and report
    Demo(demo::DemoArgs),
    /// Write an all-to-all schedule (lsft, lsft-partial, shift, ...) for a fabric's hosts
    Schedule(schedule::ScheduleArgs),
    /// Compute deterministic LFTs; write opensm-lfts.dump and guid2lid
    Route(route::RouteArgs),
    /// A full mesh's multipath plan: per host pair, the DLID offsets to use round robin
    PlanPaths(plan_paths::PlanPathsArgs),
    /// Work with LFT dumps (validate, diff)
    Lfts(lfts::LftsArgs),
    /// Count link conflicts of an all-to-all pattern, phase by phase, on the LFTs
    Check(check::CheckArgs),
    /// Recognise the family of a discovered fabric and map it to canonical coordinates
    Recognize(recognize::RecognizeArgs),
    /// Check a discovered fabric against its wiring plan, with a fix for every fault
    Cabling(cabling::CablingArgs),
    /// This host's InfiniBand ports and their ranks in a schedule
    Whoami(whoami::WhoamiArgs),
    /// Write the fabric in another tool's format (Slurm topology.conf)
    Export(export::ExportArgs),
    /// Write a degraded copy of a fabric (cut cables, dead switches) and its ibsim commands
    Faults(faults::FaultsArgs),
    /// Predict every all-to-all algorithm's time for a job's placement, and the shortlist
    Predict(predict::PredictArgs),
    /// Print a shell completion script (bash, zsh, fish)
    Completions(shell::CompletionsArgs),
    /// Print the man page, or write every page (one per subcommand) into a folder
    Man(shell::ManArgs),
}

impl Command {
    /// `ibfat --json CMD ...` means `ibfat CMD ... --json`; false for commands without a
    /// JSON form (completions, man pages).
    fn set_json(&mut self) -> bool {
        match self {
            Command::Build(a) => a.json_first = true,
            Command::Metrics(a) => a.json = true,
            Command::Demo(a) => a.json = true,
            Command::Schedule(a) => a.json = true,
            Command::Route(a) => a.json = true,
            Command::PlanPaths(a) => a.json = true,
            Command::Lfts(a) => a.set_json(),
            Command::Check(a) => a.set_json(),
            Command::Recognize(a) => a.json = true,
            Command::Cabling(a) => a.json = true,
            Command::Whoami(a) => a.json = true,
            Command::Faults(a) => a.json = true,
            Command::Predict(a) => a.json = true,
            Command::Completions(_) | Command::Man(_) | Command::Export(_) => return false,
        }
        true
    }
}

/// A number option that prices or scales something (a size, a latency, a bandwidth): a
/// finite number above 0. NaN, infinities, 0 and negatives are refused at parse time
/// (exit 2), so no model ever divides by them or prints "NaN ms".
pub(crate) fn positive_number(s: &str) -> std::result::Result<f64, String> {
    let v: f64 = s.trim().parse().map_err(|_| format!("`{s}` is not a number"))?;
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(format!("`{s}`: valid: a finite number above 0"))
    }
}

/// `--input-format` value: a dump format, or `auto` (detect).
#[derive(Clone, Copy, Debug)]
struct FormatArg(Option<ibfat::formats::dump::DumpFormat>);

fn parse_format(s: &str) -> std::result::Result<FormatArg, String> {
    ibfat::formats::dump::DumpFormat::parse_name(s).map(FormatArg)
}

/// Print clap's verdict on the command line and exit with its code (2 for a usage error,
/// 0 for help and version), every line of it at most [`ibfat::error::MAX_QUOTED`] bytes:
/// clap quotes the offending value, which may be a 120 KB argument.
fn exit_usage(e: clap::Error) -> ! {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) || !e.use_stderr() {
        e.exit()
    }
    let text = e.render().to_string();
    let shown: Vec<String> = text
        .lines()
        .map(|l| ibfat::error::elide(l, ibfat::error::MAX_QUOTED).into_owned())
        .collect();
    eprintln!("{}", shown.join("\n"));
    std::process::exit(e.exit_code())
}

/// Parse the command line, run, and turn errors into messages and exit codes.
pub fn main() -> i32 {
    let mut cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => exit_usage(e),
    };
    signals::install();
    output::set_verbosity(cli.quiet, cli.verbose);
    if let Some(path) = &cli.node_name_map {
        if let Err(e) = topo::set_node_name_map(path) {
            eprintln!("ibfat: error: {e}");
            return exit_code(&e);
        }
    }
    topo::set_read_options(ibfat::formats::dump::ParseOptions {
        lenient: false,
        format: cli.input_format.0,
        partial: cli.partial,
    });
    topo::set_roles(ibfat::formats::roles::RoleSources {
        compute_guids: cli.compute_guids.take(),
        io_guids: cli.io_guids.take(),
        io_names: std::mem::take(&mut cli.io_hosts),
    });
    if cli.json_first && !cli.command.set_json() {
        eprintln!("ibfat: error: this command has no JSON form; drop --json");
        return 2;
    }
    let t0 = std::time::Instant::now();
    let res = match cli.command {
        Command::Build(a) => build::run(a),
        Command::Metrics(a) => metrics::run(a),
        Command::Demo(a) => demo::run(a),
        Command::Schedule(a) => schedule::run(a),
        Command::Route(a) => route::run(a),
        Command::PlanPaths(a) => plan_paths::run(a),
        Command::Lfts(a) => lfts::run(a),
        Command::Check(a) => check::run(a),
        Command::Recognize(a) => recognize::run(a),
        Command::Cabling(a) => cabling::run(a),
        Command::Whoami(a) => whoami::run(a),
        Command::Export(a) => export::run(a),
        Command::Faults(a) => faults::run(a),
        Command::Predict(a) => predict::run(a),
        Command::Completions(a) => shell::run_completions(a, &mut Cli::command()),
        Command::Man(a) => shell::run_man(a, &Cli::command()),
    };
    output::detail(format_args!("done in {:.3} s", t0.elapsed().as_secs_f64()));
    match res {
        Ok(code) => code,
        Err(e) if output::is_closed_pipe(&e) => output::CLOSED_PIPE,
        Err(e) => {
            eprintln!("ibfat: error: {e}");
            exit_code(&e)
        }
    }
}

/// The exit code scripts can trust for an error: 2 bad input, 3 the environment failed
/// (I/O, a missing or failing external tool).
pub(crate) fn exit_code(e: &ibfat::Error) -> i32 {
    if e.is_input() {
        2
    } else {
        3
    }
}
