//! `ibfat completions SHELL` and `ibfat man`: shell completions and man pages generated
//! from the same clap definition the parser uses, so they can never describe options the
//! binary does not have. Copies are kept in `dist/` for packagers; a test fails when
//! they are stale (regenerate with `IBFAT_BLESS_DIST=1 cargo test --test cli dist::`).

use clap::{Args, Command, ValueEnum};
use ibfat::{Error, Result};
use std::path::PathBuf;

/// A shell `ibfat completions` writes a script for.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Shell {
    /// bash (source it, or install into /usr/share/bash-completion/completions/ibfat)
    Bash,
    /// zsh (install as `_ibfat` in a folder of $fpath)
    Zsh,
    /// fish (install into ~/.config/fish/completions/ibfat.fish)
    Fish,
}

#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  ibfat completions bash > /usr/share/bash-completion/completions/ibfat
  ibfat completions zsh > \"${fpath[1]}/_ibfat\"
  ibfat completions fish > ~/.config/fish/completions/ibfat.fish")]
pub struct CompletionsArgs {
    /// The shell to write the completion script for
    #[arg(value_enum)]
    shell: Shell,
}

const MAN_EXAMPLES: &str = "\
Examples:
  ibfat man | man -l -
  ibfat man --out /usr/local/share/man/man1 && mandb";

const MAN_AFTER: &str = "\
Without --out the page of `ibfat` itself goes to stdout (`ibfat man | man -l -`).
With --out DIR every page is written there: ibfat.1 and one per subcommand
(ibfat-build.1, ibfat-check.1, ibfat-check-merge.1 ...).

Examples:
  ibfat man | man -l -
  ibfat man --out /usr/local/share/man/man1 && mandb";

#[derive(Args, Debug)]
#[command(after_help = MAN_EXAMPLES, after_long_help = MAN_AFTER)]
pub struct ManArgs {
    /// Write every page (ibfat.1, ibfat-SUBCOMMAND.1 ...) into this folder
    #[arg(short = 'o', long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// The completion script for `shell`, from the command definition `cmd`.
pub fn completion(cmd: &mut Command, shell: Shell) -> Vec<u8> {
    let mut buf = Vec::new();
    let name = cmd.get_name().to_string();
    match shell {
        Shell::Bash => clap_complete::generate(clap_complete::Shell::Bash, cmd, name, &mut buf),
        Shell::Zsh => clap_complete::generate(clap_complete::Shell::Zsh, cmd, name, &mut buf),
        Shell::Fish => clap_complete::generate(clap_complete::Shell::Fish, cmd, name, &mut buf),
    }
    buf
}

/// Every man page, as (file name, roff text): the command's own and one per subcommand,
/// nested ones included (`ibfat-check-merge.1`).
pub fn man_pages(cmd: &Command) -> Result<Vec<(String, Vec<u8>)>> {
    let mut pages = Vec::new();
    collect(cmd.clone(), cmd.get_name().to_string(), &mut pages)?;
    Ok(pages)
}

fn collect(cmd: Command, name: String, pages: &mut Vec<(String, Vec<u8>)>) -> Result<()> {
    let cmd = cmd.name(name.clone()).bin_name(name.replace('-', " "));
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .render(&mut buf)
        .map_err(|e| Error::Tool(format!("cannot render the man page of {name}: {e}")))?;
    pages.push((format!("{name}.1"), buf));
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        collect(sub.clone(), format!("{name}-{}", sub.get_name()), pages)?;
    }
    Ok(())
}

/// `ibfat completions SHELL`.
pub fn run_completions(a: CompletionsArgs, cmd: &mut Command) -> Result<i32> {
    let text = completion(cmd, a.shell);
    super::output::write_report(format_args!("{}", String::from_utf8_lossy(&text)));
    Ok(0)
}

/// `ibfat man [--out DIR]`.
pub fn run_man(a: ManArgs, cmd: &Command) -> Result<i32> {
    let pages = man_pages(cmd)?;
    match a.out {
        None => super::output::write_report(format_args!("{}", String::from_utf8_lossy(&pages[0].1))),
        Some(dir) => {
            let files: Vec<(&str, Vec<u8>)> = pages.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
            ibfat::formats::atomic::write_files(&dir, &files)?;
            outln!("wrote {} man pages to {}", pages.len(), dir.display());
        }
    }
    Ok(0)
}
