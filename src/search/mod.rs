//! `golab search`: apgsearch's soup search, soup for soup and object for object.
pub mod hashsoup;
