//! The families ibfat knows: one folder each, and the one list that names them.
//!
//! A family's folder holds everything that is that family's: its model and builder, its
//! `fabric.yaml` keys and `ibfat build` arguments (`model*`), its recognition (`recognize*`, `report*`), its routing, degraded router and
//! lane rule (`route*`, `lanes*`) and its own schedules (`schedule*`). Each part sits in
//! the layer its name says (`tests/library/layers.rs` checks it); the generic modules reach a
//! family only through the traits its parts implement (`topology::FamilyLayout`,
//! `routing::hosts::RoutedLayout`, `recognize::report::ReportSection`, …), dispatched from
//! the registry (docs/families.md §0.1).
//!
//! [`FAMILIES`] is the registry: the CLI's family names, choices, help lists and `build`
//! subcommands, the keys of `fabric.yaml`, the recogniser's automatic order, the library's names in messages and JSON, and the C ABI's
//! `IbfatFamily` values are all read from it (docs/families.md §0 lists what a new family
//! touches).

use crate::error::{Error, Result};
use std::fmt;
use std::str::FromStr;

pub mod fullmesh;
pub mod kary;
pub mod lsft;
pub mod mols;
pub mod pgft;
pub mod railopt;
pub mod tree;
pub mod twolevel;

/// One registered family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Which family.
    pub family: Family,
    /// Its name on the command line, in `fabric.yaml`, in JSON and in log lines.
    pub name: &'static str,
    /// Its name in prose (reports, messages).
    pub long_name: &'static str,
    /// One line for the help texts.
    pub summary: &'static str,
    /// Tried, in registry order, when a fabric is recognised without a hint.
    pub auto: bool,
    /// `ibfat build` makes it (and `fabric.yaml` names it); the others are found only.
    pub builds: bool,
    /// Its value in the C ABI's `IbfatFamily`: a family the C ABI reports as another
    /// (a two-level tree is a PGFT there) has that one's value.
    pub c_value: i32,
}

/// Keeps the registry entries that have a part, and calls macro `m` with them: `layout`
/// (a layout of its own, the second flag) or `holes` (a degraded structure, the third) or
/// `spec` (a `FamilySpec` of its own, the fourth) as `part Variant: folder,`; `build` keeps
/// the families `ibfat build` makes (`builds true`) as `build Variant: folder,`. (A token
/// muncher: entries come as `[Variant folder layout holes spec builds]`, a flag being its
/// part's name or `-`.)
macro_rules! pick {
    ($part:ident $m:ident [$($acc:tt)*]) => { $m! { $($acc)* } };
    (layout $m:ident [$($acc:tt)*] [$v:ident $f:ident layout $h:tt $s:tt $b:tt] $($rest:tt)*) => {
        $crate::families::pick! { layout $m [$($acc)* layout $v: $f,] $($rest)* }
    };
    (holes $m:ident [$($acc:tt)*] [$v:ident $f:ident $o:tt holes $s:tt $b:tt] $($rest:tt)*) => {
        $crate::families::pick! { holes $m [$($acc)* holes $v: $f,] $($rest)* }
    };
    (spec $m:ident [$($acc:tt)*] [$v:ident $f:ident $o:tt $h:tt spec $b:tt] $($rest:tt)*) => {
        $crate::families::pick! { spec $m [$($acc)* spec $v: $f,] $($rest)* }
    };
    (build $m:ident [$($acc:tt)*] [$v:ident $f:ident $o:tt $h:tt $s:tt true] $($rest:tt)*) => {
        $crate::families::pick! { build $m [$($acc)* build $v: $f,] $($rest)* }
    };
    ($part:ident $m:ident [$($acc:tt)*] [$($skip:tt)*] $($rest:tt)*) => {
        $crate::families::pick! { $part $m [$($acc)*] $($rest)* }
    };
}
pub(crate) use pick;

macro_rules! registry {
    ($d:tt $($variant:ident($folder:ident, $own:tt, $holes:tt, $spec:tt): $name:literal, $long:literal, auto $auto:literal,
        builds $builds:tt, C $c:literal, $summary:literal;)*) => {
        /// A family of fabrics (the registry's entries, [`FAMILIES`]):
        ///
        $(#[doc = concat!("- `", $name, "`: ", $summary)])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Family {
            $(#[doc = concat!($summary, " (`", $name, "`).")] $variant,)*
        }

        /// The registry: every family, in the order automatic recognition tries them.
        pub const FAMILIES: &[Entry] = &[$(Entry {
            family: Family::$variant,
            name: $name,
            long_name: $long,
            summary: $summary,
            auto: $auto,
            builds: $builds,
            c_value: $c,
        },)*];

        /// Calls macro `m` with every family as `Variant: folder,`: the generic layers make
        /// their per-family dispatch from it (the recognisers).
        macro_rules! for_each_family {
            ($d m:ident) => { $d m! { $($variant: $folder,)* } };
        }
        pub(crate) use for_each_family;

        /// Calls macro `m` with every family that has a layout of its own (`layout` in its
        /// registry line) as `layout Variant: folder,`; the others reuse one of these
        /// ([`crate::topology::Layout`] and what dispatches on it).
        macro_rules! for_each_layout {
            ($d m:ident) => { $crate::families::pick! { layout $d m [] $([$variant $folder $own $holes $spec $builds])* } };
        }
        pub(crate) use for_each_layout;

        /// Calls macro `m` with every family that has a degraded structure of its own
        /// (`holes` in its registry line) as `holes Variant: folder,`
        /// ([`crate::topology::degraded::Holes`] and what dispatches on it).
        macro_rules! for_each_holes {
            ($d m:ident) => { $crate::families::pick! { holes $d m [] $([$variant $folder $own $holes $spec $builds])* } };
        }
        pub(crate) use for_each_holes;

        /// Calls macro `m` with every family that has parameters of its own in a spec
        /// (`spec` in its registry line) as `spec Variant: folder,`
        /// ([`crate::topology::FamilySpec`] and what dispatches on it).
        macro_rules! for_each_spec {
            ($d m:ident) => { $crate::families::pick! { spec $d m [] $([$variant $folder $own $holes $spec $builds])* } };
        }
        pub(crate) use for_each_spec;

        /// Calls macro `m` with every family `ibfat build` makes (`builds true`) as
        /// `build Variant: folder,`: their `fabric.yaml` keys and readers.
        macro_rules! for_each_build {
            ($d m:ident) => { $crate::families::pick! { build $d m [] $([$variant $folder $own $holes $spec $builds])* } };
        }
        pub(crate) use for_each_build;
    };
}

registry! { $
    Lsft(lsft, layout, holes, spec): "lsft", "Latin-square fat-tree", auto true, builds true, C 1,
        "Latin-square fat-tree of order q: a conflict-free all-to-all";
    Kary(kary, layout, -, spec): "kary", "k-ary n-tree", auto true, builds true, C 2,
        "standard k-ary n-tree, routed with d-mod-k";
    Mols(mols, layout, holes, spec): "mols", "MOLS 3-level proximity tree", auto true, builds true, C 3,
        "3-level tree rewired by orthogonal Latin squares: fewer hops";
    Pgft(pgft, layout, holes, spec): "pgft", "parallel-ports generalised fat-tree", auto true, builds true, C 4,
        "parallel-ports generalised fat-tree: parallel cables, oversubscribed";
    Fullmesh(fullmesh, layout, -, spec): "fullmesh", "full mesh of switches", auto true, builds true, C 5,
        "every switch cabled to every other; one-relay detours with LMC";
    Twolevel(twolevel, -, -, -): "twolevel", "two-level fat-tree", auto false, builds true, C 4,
        "two-level PGFT: leaves, hosts per leaf, spines, cables per pair";
    Railopt(railopt, -, -, spec): "railopt", "rail-optimised cluster", auto false, builds true, C 4,
        "rail-optimised GPU cluster: one HCA per rail per server (a PGFT)";
    Tree(tree, layout, -, -): "tree", "fat-tree as found", auto false, builds false, C 6,
        "any fat-tree as it is found: uneven, grown (recognised only)";
}

impl Family {
    /// The family's registry entry.
    pub fn entry(self) -> &'static Entry {
        // the macro makes the variants and the entries from one list, in one order
        &FAMILIES[self as usize]
    }

    /// Its name on the command line and in files (`lsft`, `tree`, …).
    pub(crate) fn name(self) -> &'static str {
        self.entry().name
    }

    /// Its name in prose.
    pub(crate) fn long_name(self) -> &'static str {
        self.entry().long_name
    }

    /// Parse `auto` (none: recognise) or a family name.
    pub fn parse_opt(s: &str) -> Result<Option<Family>> {
        if s == "auto" {
            Ok(None)
        } else {
            s.parse().map(Some)
        }
    }
}

/// The family names, comma-separated, of the entries `keep` keeps (`lsft, kary, …`), for
/// help texts and hints.
pub(crate) fn names(keep: impl Fn(&Entry) -> bool) -> String {
    let v: Vec<&str> = FAMILIES.iter().filter(|e| keep(e)).map(|e| e.name).collect();
    v.join(", ")
}

/// The help text's family list: one line per family, names aligned.
pub fn help_list() -> String {
    let width = FAMILIES.iter().map(|e| e.name.len()).max().unwrap_or(0);
    FAMILIES
        .iter()
        .map(|e| format!("  {:width$}  {}\n", e.name, e.summary))
        .collect()
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Family {
    type Err = Error;
    fn from_str(s: &str) -> Result<Family> {
        FAMILIES.iter().find(|e| e.name == s).map(|e| e.family).ok_or_else(|| {
            Error::input(
                "family",
                format!("unknown family `{s}`"),
                Some(format!("one of {} (or auto)", names(|_| true))),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_has_one_entry_and_one_name() {
        for (i, e) in FAMILIES.iter().enumerate() {
            assert_eq!(e.family.entry(), e, "{}", e.name);
            assert_eq!(e.name.parse::<Family>().unwrap(), e.family);
            assert!(FAMILIES[..i].iter().all(|o| o.name != e.name && o.family != e.family));
            assert!(
                e.summary.len() <= 68,
                "{}: the summary is one help line of 80 columns",
                e.name
            );
        }
        assert_eq!(Family::parse_opt("auto").unwrap(), None);
        let err = "fattree".parse::<Family>().unwrap_err().to_string();
        assert!(
            err.contains("unknown family `fattree`") && err.contains("railopt"),
            "{err}"
        );
    }

    #[test]
    fn the_help_list_names_every_family_once() {
        let list = help_list();
        assert_eq!(list.lines().count(), FAMILIES.len());
        for e in FAMILIES {
            assert_eq!(list.matches(&format!("  {} ", e.name)).count(), 1, "{}", e.name);
        }
    }
}
