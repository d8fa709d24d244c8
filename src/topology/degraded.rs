//! Degraded fabrics: what each family's recognition hands its degraded router, as one
//! type ([`Holes`]); the structures themselves live in the families' folders
//! (`model_holes`), and what the generic layers ask of them is [`FamilyHoles`].

use super::{Endpoint, Parameters};
use crate::topology::NodeId;

/// No node: the switch is dead.
pub const DEAD: NodeId = u32::MAX;

/// What every family's degraded structure answers; each family with a degraded router
/// implements it in its folder (`model_holes`).
pub(crate) trait FamilyHoles {
    /// The largest LMC its degraded routes use.
    fn max_lmc(&self) -> u8 {
        0
    }

    /// The name of the all-to-all its schedule repair repairs (`lsft`, `kary-shift`, …).
    fn native_pattern(&self) -> &'static str;

    /// The hosts in the intact family's rank order that are there.
    fn hosts(&self) -> Vec<Endpoint>;

    /// Its parameters for the C ABI, as far as the holes tell them.
    fn parameters(&self) -> Parameters {
        Parameters::default()
    }
}

macro_rules! make_holes {
    ($(holes $variant:ident: $folder:ident,)*) => {
        /// The structure of a degraded fabric, per family with a degraded router (made from
        /// the registry): what routing needs to find its way around the holes. (Made once
        /// per recognition; the size difference does not matter.)
        #[derive(Clone, Debug)]
        #[allow(clippy::large_enum_variant)]
        pub enum Holes {
            $(
                #[doc = concat!("The `", stringify!($folder), "` family's degraded structure.")]
                $variant(crate::families::$folder::Holes),
            )*
        }

        impl Holes {
            /// What every family's degraded structure answers, for this one.
            pub(crate) fn ops(&self) -> &dyn FamilyHoles {
                match self {
                    $(Holes::$variant(h) => h,)*
                }
            }
        }
    };
}
crate::families::for_each_holes!(make_holes);

impl Holes {
    /// The family's parameters as far as the holes tell them (the C ABI's description).
    pub fn parameters(&self) -> Parameters {
        self.ops().parameters()
    }
}
