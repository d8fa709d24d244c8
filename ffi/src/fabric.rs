//! Fabric handles: describe a fabric node by node, build it from a spec or load a topology
//! file, and recognise its family.

use crate::status::{arg, cstr, free, give, guard, handle, handle_mut, out, Fail, IbfatStatus};
use ibfat::families::Family;
use ibfat::recognize::{recognize_to_route, Degraded, Recognition};
use ibfat::routing::Shape;
use ibfat::topology::{Fabric, Layout, Model, NodeKind, Spec, Topology, Wiring};
use std::ffi::{c_char, c_int};
use std::path::Path;

/// Node kinds for [`ibfat_fabric_add_node`] (passed as an `int`: a value outside the
/// enum is refused with `IBFAT_E_ARG` instead of being undefined behaviour).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IbfatNodeKind {
    /// A switch (its port 0 is the management port and carries the LID).
    IbfatSwitch = 1,
    /// A channel adapter: a host port.
    IbfatCa = 2,
    /// A router.
    IbfatRouter = 3,
}

/// Fabric families (as a hint to [`ibfat_fabric_recognize`] passed as an `int`: a value
/// outside the enum is refused with `IBFAT_E_ARG`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IbfatFamily {
    /// Recognise automatically (as a hint) / not recognised (as a result).
    IbfatFamilyAuto = 0,
    /// Latin-square fat-tree (from a projective plane).
    IbfatFamilyLsft = 1,
    /// k-ary n-tree.
    IbfatFamilyKary = 2,
    /// MOLS proximity 3-level fat-tree.
    IbfatFamilyMols = 3,
    /// Parallel-ports generalised fat-tree (`levels` set), also a two-level fat-tree and a
    /// rail-optimised cluster.
    IbfatFamilyPgft = 4,
    /// Full mesh of switches (every pair of switches cabled, hosts on every switch).
    IbfatFamilyFullmesh = 5,
    /// A fat-tree as it is found (switches in levels, any irregularity; `levels` set). A
    /// hint, it skips the families; IBFAT_FAMILY_AUTO finds it when no other family fits.
    IbfatFamilyTree = 6,
}

/// Wiring of a MOLS 3-level tree (see `ibfat build mols --help`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IbfatWiring {
    /// Not a MOLS tree.
    IbfatWiringNone = 0,
    /// The standard n-ary 3-tree (every plane cabled like plane 0).
    IbfatWiringStandard = 1,
    /// Cyclic Latin squares r + u·c mod n (the basic method; optimal for prime n).
    IbfatWiringBasic = 2,
    /// Complete orthogonal Latin squares over GF(n) (prime powers).
    IbfatWiringMols = 3,
    /// A discovered wiring with the MOLS properties that is none of the above.
    IbfatWiringCustom = 4,
}

/// What [`ibfat_fabric_recognize`] found. Fields that do not apply to the family are 0.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct IbfatRecognition {
    /// The family found.
    pub family: IbfatFamily,
    /// LSFT: order q of the projective plane.
    pub order: u32,
    /// LSFT: 1 or 2 sides.
    pub sides: u32,
    /// Trees: arity k (n for MOLS trees).
    pub arity: u32,
    /// Trees: number of levels (3 for MOLS trees).
    pub levels: u32,
    /// MOLS trees: the wiring of the middle stage.
    pub wiring: IbfatWiring,
    /// Hosts in rank order.
    pub hosts: u32,
    /// 0 for a fabric as its family is built; for a degraded one (the family with cables
    /// or switches missing, routed around them by `ibfat_routes_compute`) the number of
    /// faults found.
    pub faults: u32,
}

/// A fabric: nodes, ports, cables, and (once known) its family layout and LIDs.
pub struct IbfatFabric {
    pub(crate) model: Model,
    /// What recognition found when the fabric is a known family with holes (the model
    /// then has no layout).
    pub(crate) degraded: Option<Degraded>,
}

impl IbfatNodeKind {
    /// The kind a C caller passed, or `IBFAT_E_ARG` naming the value and the valid ones.
    pub(crate) fn from_c(v: c_int) -> Result<IbfatNodeKind, Fail> {
        match v {
            1 => Ok(IbfatNodeKind::IbfatSwitch),
            2 => Ok(IbfatNodeKind::IbfatCa),
            3 => Ok(IbfatNodeKind::IbfatRouter),
            _ => Err(arg(&format!(
                "kind: {v} is not a node kind; valid: IBFAT_SWITCH (1), IBFAT_CA (2), IBFAT_ROUTER (3)"
            ))),
        }
    }
}

impl IbfatFamily {
    /// Every value, for the lookups below (one line per value of the enum).
    const ALL: [IbfatFamily; 7] = [
        IbfatFamily::IbfatFamilyAuto,
        IbfatFamily::IbfatFamilyLsft,
        IbfatFamily::IbfatFamilyKary,
        IbfatFamily::IbfatFamilyMols,
        IbfatFamily::IbfatFamilyPgft,
        IbfatFamily::IbfatFamilyFullmesh,
        IbfatFamily::IbfatFamilyTree,
    ];

    /// The C value of a family, from the registry ([`ibfat::FAMILIES`]).
    pub(crate) fn of(family: Family) -> IbfatFamily {
        let v = family.entry().c_value;
        Self::ALL
            .into_iter()
            .find(|&f| f as c_int == v)
            .unwrap_or(IbfatFamily::IbfatFamilyAuto)
    }

    /// The family hint a C caller passed (none: recognise automatically), or `IBFAT_E_ARG`
    /// naming the value and the valid ones. A value several families share (PGFT: also
    /// two-level and rail-optimised) is the first of them in the registry.
    pub(crate) fn hint(v: c_int) -> Result<Option<Family>, Fail> {
        if v == IbfatFamily::IbfatFamilyAuto as c_int {
            return Ok(None);
        }
        match ibfat::FAMILIES.iter().find(|e| e.c_value == v) {
            Some(e) => Ok(Some(e.family)),
            None => {
                let valid: Vec<String> = Self::ALL
                    .iter()
                    .map(|&f| format!("{} ({})", f.c_name(), f as c_int))
                    .collect();
                Err(arg(&format!("hint: {v} is not a family; valid: {}", valid.join(", "))))
            }
        }
    }

    /// The name C code spells (`IBFAT_FAMILY_LSFT`).
    fn c_name(self) -> String {
        let rust = format!("{self:?}");
        format!("IBFAT_FAMILY_{}", rust.trim_start_matches("IbfatFamily").to_uppercase())
    }
}

/// A count for a C out-parameter of type `u32`: refused (`IBFAT_E_INPUT`, naming it) when
/// wider, never truncated.
pub(crate) fn count_u32(what: &str, n: usize) -> Result<u32, Fail> {
    u32::try_from(n).map_err(|_| {
        Fail(
            IbfatStatus::IbfatEInput,
            format!(
                "{what}: {n} does not fit the API's 32-bit count (valid 0..={})",
                u32::MAX
            ),
        )
    })
}

impl IbfatFabric {
    /// The fabric, whatever is known about its family.
    pub(crate) fn fabric(&self) -> &Fabric {
        self.model.fabric()
    }

    /// What routing needs: the family layout, or the family with its holes.
    pub(crate) fn shape(&self) -> Result<Shape<'_>, Fail> {
        match &self.degraded {
            Some(d) => Ok(Shape::Degraded {
                holes: &d.holes,
                description: &d.description,
            }),
            None => Ok(Shape::Intact(&self.known()?.layout)),
        }
    }

    /// The fabric with its family layout, which routing and schedules need.
    pub(crate) fn known(&self) -> Result<&Topology, Fail> {
        self.model.topology().ok_or_else(|| {
            Fail(
                IbfatStatus::IbfatEUnrecognized,
                "the fabric's family is not known: recognise it first".into(),
            )
        })
    }
}

/// Create an empty fabric to describe node by node. Free with [`ibfat_fabric_free`].
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_new(out_fabric: *mut *mut IbfatFabric) -> IbfatStatus {
    guard(|| {
        // SAFETY: out_fabric is NULL or writable (pointer contract, crate docs)
        let o = unsafe { out(out_fabric, "out_fabric") }?;
        give(
            o,
            IbfatFabric {
                model: Model::Bare(Fabric::new()),
                degraded: None,
            },
        );
        Ok(())
    })
}

/// Load a topology: an ibfat plan folder, a fabric.yaml, an ibsim net file or
/// `ibnetdiscover` output (which carries LIDs when the subnet was swept).
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_load(path: *const c_char, out_fabric: *mut *mut IbfatFabric) -> IbfatStatus {
    guard(|| {
        // SAFETY: path is NULL or a C string, out_fabric NULL or writable (pointer contract)
        let (path, o) = unsafe { (cstr(path, "path")?, out(out_fabric, "out_fabric")?) };
        // the library's one loader; recognition is the caller's choice (ibfat_recognize)
        let lf = ibfat::load::load(Path::new(path), Default::default(), ibfat::load::Recognize::No)?;
        give(
            o,
            IbfatFabric {
                model: lf.model,
                degraded: None,
            },
        );
        Ok(())
    })
}

/// Build a fabric from the text of a fabric.yaml spec (e.g. "family: lsft\norder: 7\n").
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_build(
    spec_yaml: *const c_char,
    out_fabric: *mut *mut IbfatFabric,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: spec_yaml is NULL or a C string, out_fabric NULL or writable (pointer contract)
        let (text, o) = unsafe { (cstr(spec_yaml, "spec_yaml")?, out(out_fabric, "out_fabric")?) };
        let plan = Spec::from_yaml(text, Path::new("<spec>"))?.build()?;
        give(
            o,
            IbfatFabric {
                model: Model::Known(plan),
                degraded: None,
            },
        );
        Ok(())
    })
}

/// Add a node with `nports` external ports; its id (0, 1, 2 ... in call order) goes to
/// `out_id`. `kind` is an [`IbfatNodeKind`] value. CA port GUIDs default to node GUID + port number (set others with
/// [`ibfat_fabric_set_port_guid`]). `name` must be unique; `desc` is the NodeDescription.
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_add_node(
    fabric: *mut IbfatFabric,
    kind: c_int,
    nports: u32,
    guid: u64,
    name: *const c_char,
    desc: *const c_char,
    out_id: *mut u32,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: fabric is NULL or a live handle, name and desc NULL or C strings, out_id
        // NULL or writable (pointer contract)
        let (f, name, desc, o) = unsafe {
            let f = handle_mut(fabric, "fabric")?;
            let name = cstr(name, "name")?;
            let desc = if desc.is_null() { name } else { cstr(desc, "desc")? };
            (f, name, desc, out(out_id, "out_id")?)
        };
        let kind = match IbfatNodeKind::from_c(kind)? {
            IbfatNodeKind::IbfatSwitch => NodeKind::Switch,
            IbfatNodeKind::IbfatCa => NodeKind::Ca,
            IbfatNodeKind::IbfatRouter => NodeKind::Router,
        };
        // a new node changes the cabling: the family must be recognised again
        f.degraded = None;
        *o = f.model.fabric_mut().add_node(kind, nports, guid, name, desc)?;
        Ok(())
    })
}

/// Cable port `port_a` of node `a` to port `port_b` of node `b`.
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_connect(
    fabric: *mut IbfatFabric,
    a: u32,
    port_a: u32,
    b: u32,
    port_b: u32,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: fabric is NULL or a live handle (pointer contract)
        let f = unsafe { handle_mut(fabric, "fabric") }?;
        if a as usize >= f.fabric().len() || b as usize >= f.fabric().len() {
            return Err(Fail(
                IbfatStatus::IbfatENotFound,
                format!("node {} does not exist", a.max(b)),
            ));
        }
        f.degraded = None;
        f.model.fabric_mut().connect(a, port_a, b, port_b)?;
        Ok(())
    })
}

/// The index of port `port` of node `node` in `fabric.ports`; no such port is
/// `IBFAT_E_NOT_FOUND`.
fn port_of(f: &IbfatFabric, node: u32, port: u32) -> Result<usize, Fail> {
    f.fabric()
        .try_port_index(node, port)
        .map(|i| i as usize)
        .map_err(|e| Fail(IbfatStatus::IbfatENotFound, e.to_string()))
}

/// Set the GUID of a CA or router port.
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_set_port_guid(
    fabric: *mut IbfatFabric,
    node: u32,
    port: u32,
    guid: u64,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: fabric is NULL or a live handle (pointer contract)
        let f = unsafe { handle_mut(fabric, "fabric") }?;
        let i = port_of(f, node, port)?;
        f.model.fabric_same_cabling_mut().ports[i].guid = guid;
        Ok(())
    })
}

/// Record the LID (and LMC) a subnet manager gave a CA port or a switch (port 0).
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_set_lid(
    fabric: *mut IbfatFabric,
    node: u32,
    port: u32,
    lid: u16,
    lmc: u8,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: fabric is NULL or a live handle (pointer contract)
        let f = unsafe { handle_mut(fabric, "fabric") }?;
        let i = port_of(f, node, port)?;
        if lmc > ibfat::routing::lids::MAX_LMC {
            return Err(arg(&format!(
                "lmc: {lmc} is out of range: valid 0..={}",
                ibfat::routing::lids::MAX_LMC
            )));
        }
        let port = &mut f.model.fabric_same_cabling_mut().ports[i];
        port.lid = lid;
        port.lmc = lmc;
        Ok(())
    })
}

/// Numbers of switches, channel adapters and cables.
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_counts(
    fabric: *const IbfatFabric,
    switches: *mut u32,
    cas: *mut u32,
    cables: *mut u32,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: fabric is NULL or a live handle (pointer contract)
        let f = unsafe { handle(fabric, "fabric") }?;
        // SAFETY: the out-pointers are NULL or writable (pointer contract)
        unsafe {
            *out(switches, "switches")? = count_u32("switches", f.fabric().switches().count())?;
            *out(cas, "cas")? = count_u32("cas", f.fabric().cas().count())?;
            *out(cables, "cables")? = count_u32("cables", f.fabric().link_count())?;
        }
        Ok(())
    })
}

/// The family the fabric is known to be (from a plan, or after recognition; a degraded
/// fabric's intact family).
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_family(fabric: *const IbfatFabric, out_family: *mut IbfatFamily) -> IbfatStatus {
    guard(|| {
        // SAFETY: fabric is NULL or a live handle, out_family NULL or writable (pointer contract)
        let (f, o) = unsafe { (handle(fabric, "fabric")?, out(out_family, "out_family")?) };
        *o = match f.model.layout() {
            None => f
                .degraded
                .as_ref()
                .map_or(IbfatFamily::IbfatFamilyAuto, |d| IbfatFamily::of(d.family)),
            Some(layout) => IbfatFamily::of(layout.family()),
        };
        Ok(())
    })
}

/// The family of a degraded fabric, its order and its fault count.
fn describe_degraded(d: &Degraded) -> IbfatRecognition {
    let family = IbfatFamily::of(d.family);
    IbfatRecognition {
        family,
        order: if family == IbfatFamily::IbfatFamilyLsft {
            d.order
        } else {
            0
        },
        sides: d.holes.parameters().sides,
        arity: if family == IbfatFamily::IbfatFamilyKary {
            d.order
        } else {
            0
        },
        levels: if family == IbfatFamily::IbfatFamilyPgft {
            d.order
        } else {
            0
        },
        wiring: IbfatWiring::IbfatWiringNone,
        hosts: 0,
        faults: u32::try_from(d.faults.len()).unwrap_or(u32::MAX),
    }
}

fn describe(layout: &Layout) -> IbfatRecognition {
    let p = layout.parameters();
    IbfatRecognition {
        family: IbfatFamily::of(layout.family()),
        order: p.order,
        sides: p.sides,
        arity: p.arity,
        levels: p.levels,
        wiring: match p.wiring {
            None => IbfatWiring::IbfatWiringNone,
            Some(Wiring::Standard) => IbfatWiring::IbfatWiringStandard,
            Some(Wiring::Basic) => IbfatWiring::IbfatWiringBasic,
            Some(Wiring::Mols) => IbfatWiring::IbfatWiringMols,
            Some(Wiring::Custom) => IbfatWiring::IbfatWiringCustom,
        },
        hosts: u32::try_from(layout.hosts().len()).unwrap_or(u32::MAX),
        faults: 0,
    }
}

/// Recognise the family of the fabric from its cabling alone (port order, GUIDs and names
/// do not matter) and remember it for routing and schedules. `hint` restricts the search
/// (`IBFAT_FAMILY_AUTO` tries all; an [`IbfatFamily`] value). A known family with cables or
/// switches missing is recognised as degraded (`faults` > 0): `ibfat_routes_compute`
/// routes around the holes. A fabric of no known family returns `IBFAT_E_UNRECOGNIZED` and
/// `ibfat_last_error()` says why.
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_recognize(
    fabric: *mut IbfatFabric,
    hint: c_int,
    out_result: *mut IbfatRecognition,
) -> IbfatStatus {
    guard(|| {
        // SAFETY: fabric is NULL or a live handle, out_result NULL or writable (pointer contract)
        let (f, o) = unsafe { (handle_mut(fabric, "fabric")?, out(out_result, "out_result")?) };
        let hint = IbfatFamily::hint(hint)?;
        match recognize_to_route(f.fabric(), hint) {
            Recognition::Recognized { layout, .. } => {
                *o = describe(&layout);
                f.degraded = None;
                f.model.set_layout(layout, "fabric");
                Ok(())
            }
            Recognition::Unrecognized { degraded: Some(d), .. } => {
                *o = describe_degraded(&d);
                f.degraded = Some(d);
                Ok(())
            }
            Recognition::Unrecognized { reason, .. } => Err(Fail(IbfatStatus::IbfatEUnrecognized, reason)),
        }
    })
}

/// Free a fabric (NULL is ignored).
#[no_mangle]
pub unsafe extern "C" fn ibfat_fabric_free(fabric: *mut IbfatFabric) {
    // SAFETY: fabric is NULL or a handle from ibfat_fabric_new/load/build, freed once
    // (pointer contract)
    unsafe { free(fabric) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The C enum follows the registry: every family has its registry value, every value
    /// but AUTO is the value of the family its name spells, and a hint maps back.
    #[test]
    fn the_c_enum_follows_the_registry() {
        for e in ibfat::FAMILIES {
            let c = IbfatFamily::of(e.family);
            assert_eq!(c as c_int, e.c_value, "{}", e.name);
            assert_ne!(c, IbfatFamily::IbfatFamilyAuto, "{} has no C value", e.name);
            let back = IbfatFamily::hint(e.c_value).ok().flatten().expect("a hint");
            assert_eq!(back.entry().c_value, e.c_value);
        }
        for f in &IbfatFamily::ALL[1..] {
            let name = f.c_name().trim_start_matches("IBFAT_FAMILY_").to_lowercase();
            let e = ibfat::FAMILIES
                .iter()
                .find(|e| e.name == name)
                .expect("a registry name");
            assert_eq!(e.c_value, *f as c_int, "{name}");
        }
        assert!(matches!(IbfatFamily::hint(0), Ok(None)));
        assert!(IbfatFamily::hint(99).is_err());
    }
}
