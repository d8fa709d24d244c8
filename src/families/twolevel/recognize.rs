//! Recognising a two-level fat-tree: a PGFT of two levels, named so.

use crate::recognize::graph::SwitchGraph;
use crate::recognize::Fail;
use crate::topology::Layout;

/// The fabric as a two-level fat-tree: a PGFT whose layout [`super::model::mark`] names.
pub(crate) fn recognize(g: &SwitchGraph<'_>) -> Result<Layout, Fail> {
    let mut layout = crate::families::pgft::recognize::recognize(g)?;
    super::model::mark(&mut layout).map_err(Fail::layout)?;
    Ok(layout)
}
