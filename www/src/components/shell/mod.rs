//! Around the views: the header, the first-visit introduction, set-aside work, the examples gallery.

pub mod gallery;
pub mod header;
pub mod intro;
pub mod set_aside;
