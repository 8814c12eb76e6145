//! Around the views: the header (or an embedded view's bar), the first-visit introduction, set-aside work, the examples gallery.

pub mod embed_bar;
pub mod gallery;
pub mod header;
pub mod intro;
pub mod set_aside;
