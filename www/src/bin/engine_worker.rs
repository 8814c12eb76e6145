//! The Web Worker: answers `classad::api` requests off the main thread.

fn main() {}
