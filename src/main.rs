//! `ibfat` command line: a thin layer over the library (see `ibfat --help`).

mod cli;

fn main() {
    std::process::exit(cli::main());
}
