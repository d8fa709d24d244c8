//! The plugin's options: OpenSM's `event_plugin_options` text, parsed with the library's
//! `key=value` syntax ([`ibfat::formats::options`]); the keys are described in the crate
//! documentation.

use ibfat::families::Family;
use ibfat::formats::options::{self, Key};
use ibfat::formats::roles::RoleSources;
use ibfat::schedule::PatternKind;
use std::path::PathBuf;

/// Plugin options (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `family=`: the family the fabric must be (`None`: recognise any).
    pub family: Option<Family>,
    /// `schedule_out=`: where to write the schedule after every successful pass.
    pub schedule_out: Option<PathBuf>,
    /// `pattern=`: the schedule to write (`None`: the family's default).
    pub pattern: Option<PatternKind>,
    /// `validate=1`: validate the tables before handing them to OpenSM.
    pub validate: bool,
    /// `cn_guid_file=`, `io_guid_file=`, `io_names=`: host roles.
    pub roles: RoleSources,
    /// `degraded=route` (default) or `refuse`: route a degraded fabric with detours on two
    /// data VLs, or leave it to the next engine.
    pub route_degraded: bool,
    /// `objective=family` (default) or `spread`: on an LSFT, intact or degraded, spread
    /// each leaf's traffic over all its up links with one-turn detours on two data VLs
    /// (`ibfat route --objective spread`).
    pub spread: bool,
    /// `reuse=1` (default) or `0`: a re-sweep of a subnet one of the last passes routed
    /// programs that pass's tables again (src/reuse.rs), or every pass computes anew (to
    /// time the engine, or to rule the reuse out when a site suspects it).
    pub reuse: bool,
    /// `state_file=`: where the records of the last subnet programmed are kept for the
    /// next start of OpenSM, whose first pass then finds its tables computed when the
    /// plugin loaded (src/subnet/saved.rs); with `reuse=0` or host roles it is neither
    /// read nor written.
    pub state_file: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            family: None,
            schedule_out: None,
            pattern: None,
            validate: false,
            roles: RoleSources::default(),
            route_degraded: true,
            spread: false,
            reuse: true,
            state_file: None,
        }
    }
}

impl Options {
    /// The options as `key=value` pairs, for the log (defaults spelled out).
    pub fn describe(&self) -> String {
        format!(
            "family={} schedule_out={} pattern={} validate={} degraded={} objective={} reuse={} state_file={}{}",
            self.family.map_or("auto".to_string(), |f| f.to_string()),
            self.schedule_out
                .as_ref()
                .map_or("(none)".to_string(), |p| p.display().to_string()),
            self.pattern
                .map_or("(family default)".to_string(), |k| k.name().to_string()),
            self.validate as u8,
            if self.route_degraded { "route" } else { "refuse" },
            if self.spread { "spread" } else { "family" },
            self.reuse as u8,
            self.state_file
                .as_ref()
                .map_or("(none)".to_string(), |p| p.display().to_string()),
            self.describe_roles()
        )
    }

    fn describe_roles(&self) -> String {
        let r = &self.roles;
        let mut s = String::new();
        if let Some(p) = &r.compute_guids {
            s += &format!(" cn_guid_file={}", p.display());
        }
        if let Some(p) = &r.io_guids {
            s += &format!(" io_guid_file={}", p.display());
        }
        if !r.io_names.is_empty() {
            s += &format!(" io_names={}", r.io_names.join("|"));
        }
        s
    }
}

/// The keys of `event_plugin_options`.
#[derive(Clone, Copy, Debug)]
enum OptKey {
    Family,
    ScheduleOut,
    Pattern,
    Validate,
    CnGuidFile,
    IoGuidFile,
    IoNames,
    Degraded,
    Objective,
    Reuse,
    StateFile,
}

const OPTION_KEYS: &[Key<OptKey>] = &[
    Key {
        id: OptKey::Family,
        name: "family",
        expects: "auto or a family name of ibfat's registry (ibfat --help lists them)",
    },
    Key {
        id: OptKey::ScheduleOut,
        name: "schedule_out",
        expects: "the path of the schedule file to write",
    },
    Key {
        id: OptKey::Pattern,
        name: "pattern",
        expects: "a schedule pattern name",
    },
    Key {
        id: OptKey::Validate,
        name: "validate",
        expects: "0 or 1",
    },
    Key {
        id: OptKey::CnGuidFile,
        name: "cn_guid_file",
        expects: "the path of a file of compute-host GUIDs, one per line",
    },
    Key {
        id: OptKey::IoGuidFile,
        name: "io_guid_file",
        expects: "the path of a file of non-compute-host GUIDs, one per line",
    },
    Key {
        id: OptKey::IoNames,
        name: "io_names",
        expects: "host name patterns separated by | (stor*|login?)",
    },
    Key {
        id: OptKey::Degraded,
        name: "degraded",
        expects: "route or refuse",
    },
    Key {
        id: OptKey::Objective,
        name: "objective",
        expects: "family or spread",
    },
    Key {
        id: OptKey::Reuse,
        name: "reuse",
        expects: "0 or 1",
    },
    Key {
        id: OptKey::StateFile,
        name: "state_file",
        expects: "the path of the file that keeps the last subnet for the next start",
    },
];

/// A path the plugin reads or writes inside OpenSM's routing pass: a regular file (or a
/// symlink to one), or for `schedule_out` and `state_file` one not there yet. A FIFO, device, socket,
/// folder or `-` could make OpenSM wait forever (or write into its standard streams),
/// so it is refused when the options are read. The check looks without opening.
pub fn regular_path(key: &str, value: &str) -> ibfat::error::Result<PathBuf> {
    if value == "-" {
        return Err(ibfat::error::Error::input(
            key,
            "`-` is OpenSM's standard input/output, not a file: give a file's path",
            None,
        ));
    }
    let path = PathBuf::from(value);
    check_regular(key, &path)?;
    Ok(path)
}

/// `path` is a regular file or absent (see [`regular_path`]).
pub fn check_regular(key: &str, path: &std::path::Path) -> ibfat::error::Result<()> {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => Err(ibfat::error::Error::input(
            key,
            format!(
                "{} is {}, not a regular file: refused (OpenSM must never wait on it)",
                path.display(),
                ibfat::formats::input::file_kind(m.file_type())
            ),
            None,
        )),
        _ => Ok(()),
    }
}

/// Parse the `event_plugin_options` text (the library's `key=value` syntax, see
/// [`ibfat::formats::options`]); an error names the offending option.
pub fn parse_options(text: &str) -> ibfat::error::Result<Options> {
    let mut o = Options::default();
    for s in options::parse(text, OPTION_KEYS)? {
        match s.id {
            OptKey::Family => o.family = s.read(Family::parse_opt)?,
            OptKey::ScheduleOut => o.schedule_out = Some(s.read(|v| regular_path("schedule_out", v))?),
            OptKey::Pattern => o.pattern = Some(s.read(str::parse)?),
            OptKey::Validate => o.validate = s.flag()?,
            OptKey::Reuse => o.reuse = s.flag()?,
            OptKey::StateFile => o.state_file = Some(s.read(|v| regular_path("state_file", v))?),
            OptKey::CnGuidFile => o.roles.compute_guids = Some(s.read(|v| regular_path("cn_guid_file", v))?),
            OptKey::IoGuidFile => o.roles.io_guids = Some(s.read(|v| regular_path("io_guid_file", v))?),
            OptKey::Degraded => {
                o.route_degraded = s.read(|v| match v {
                    "route" => Ok(true),
                    "refuse" => Ok(false),
                    _ => Err(ibfat::error::Error::input("degraded", "expected route or refuse", None)),
                })?
            }
            OptKey::Objective => {
                o.spread = s.read(|v| match v {
                    "family" => Ok(false),
                    "spread" => Ok(true),
                    _ => Err(ibfat::error::Error::input(
                        "objective",
                        "expected family or spread",
                        None,
                    )),
                })?
            }
            OptKey::IoNames => {
                o.roles.io_names = s.value.split('|').filter(|p| !p.is_empty()).map(String::from).collect()
            }
        }
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_and_name_the_bad_one() {
        assert_eq!(parse_options("").unwrap(), Options::default());
        let o = parse_options("family=lsft, schedule_out=/tmp/s.json validate=1").unwrap();
        assert_eq!(o.family, Some(Family::Lsft));
        assert_eq!(o.schedule_out, Some(PathBuf::from("/tmp/s.json")));
        assert!(o.validate);
        assert!(parse_options("family=ring")
            .unwrap_err()
            .to_string()
            .contains("family=ring"));
        assert!(parse_options("colour=red")
            .unwrap_err()
            .to_string()
            .contains("unknown option `colour`"));
        assert!(parse_options("schedule_out")
            .unwrap_err()
            .to_string()
            .contains("not key=value"));
        assert!(parse_options("pattern=nope")
            .unwrap_err()
            .to_string()
            .contains("pattern=nope"));
        assert!(parse_options("").unwrap().route_degraded);
        assert!(!parse_options("degraded=refuse").unwrap().route_degraded);
        assert!(parse_options("degraded=maybe")
            .unwrap_err()
            .to_string()
            .contains("degraded=maybe"));
        let o = parse_options("io_names=stor*|login?, io_guid_file=/etc/io.guids").unwrap();
        assert_eq!(o.roles.io_names, vec!["stor*".to_string(), "login?".to_string()]);
        assert_eq!(o.roles.io_guids, Some(PathBuf::from("/etc/io.guids")));
        assert!(o
            .describe()
            .ends_with(" io_guid_file=/etc/io.guids io_names=stor*|login?"));
        let o = parse_options("state_file=/var/cache/opensm/ibfat.state").unwrap();
        assert_eq!(o.state_file, Some(PathBuf::from("/var/cache/opensm/ibfat.state")));
        assert!(o.describe().contains(" state_file=/var/cache/opensm/ibfat.state"));
        assert!(parse_options("state_file=-")
            .unwrap_err()
            .to_string()
            .contains("not a file"));
    }
}
