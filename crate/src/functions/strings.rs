//! (to be filled)

use super::FuncDef;

pub(super) const FUNCS: &[FuncDef] = &[];
