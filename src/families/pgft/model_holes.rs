//! The structure of a degraded PGFT (k-ary n-tree, two-level fat-tree): the intact
//! family's layout with holes.

use crate::topology::degraded::DEAD;

/// A PGFT (k-ary n-tree, two-level fat-tree) with cut cables or dead switches, in the
/// intact family's canonical coordinates ([`crate::families::pgft::recognize_degraded`]).
#[derive(Clone, Debug)]
pub struct PgftHoles {
    /// The intact family's layout with its holes: `switches[i]` is [`DEAD`] for a dead
    /// switch, and a canonical port of `up` / `down` is 0 where its cable is missing (a
    /// down port of a leaf is 0 at an empty host slot, as in the intact layout). Every
    /// other field is that of the intact family; it is not a layout to route intact.
    pub layout: crate::topology::PgftLayout,
}

impl PgftHoles {
    /// The port of canonical up port `u` of switch slot `s` (0: cut, dead, or none).
    pub(crate) fn up(&self, s: u32, u: u32) -> u8 {
        let l = &self.layout;
        if l.switches[s as usize] == DEAD {
            return 0;
        }
        l.up[(l.up_off[s as usize] + u) as usize]
    }

    /// The port of canonical down port `k` (child a, cable c: a·p_l + c) of switch slot `s`.
    pub(crate) fn down(&self, s: u32, k: u32) -> u8 {
        let l = &self.layout;
        if l.switches[s as usize] == DEAD {
            return 0;
        }
        l.down[(l.down_off[s as usize] + k) as usize]
    }

    /// Position of switch slot `s` for messages: `T2(3,1)` = level 2, subtree A 3, copy B 1.
    pub(crate) fn position(&self, s: u32) -> String {
        let (l, a, b) = self.layout.coords(s);
        format!("T{l}({a},{b})")
    }

    /// Global slot of the switch at level `l` (1..=h) with subtree `a` and copy `b`.
    pub(crate) fn slot(&self, l: u32, a: u32, b: u32) -> u32 {
        let w: u32 = (1..=l).map(|j| self.layout.params.w(j)).product();
        self.layout.offset[l as usize - 1] + a * w + b
    }
}

impl crate::topology::degraded::FamilyHoles for PgftHoles {
    fn native_pattern(&self) -> &'static str {
        "kary-shift"
    }

    fn hosts(&self) -> Vec<crate::topology::Endpoint> {
        self.layout.hosts.clone()
    }

    fn parameters(&self) -> crate::topology::Parameters {
        crate::topology::Parameters {
            levels: self.layout.params.levels,
            ..Default::default()
        }
    }
}
