//! golab: a Game of Life visualizer that is also a GPU-compute lab.
//!
//! The engine is split by concept: [`world`] (the host state), [`rule`] (rules: the B/S masks
//! the steppers run, and every family of issue #14 as tables and bitwise circuits),
//! [`pattern`] (file formats and the bundled library), [`step`] (one module per strategy
//! behind the [`step::Stepper`] trait), [`sim`] (live switching), [`stats`] and [`bench`].
#![warn(missing_docs)]

pub mod app;
pub mod bench;
pub mod cli;
pub mod config;
pub mod golly;
pub mod gpu;
pub mod hashlife;
pub mod lab;
pub mod memory;
pub mod pattern;
pub mod rule;
pub mod runner;
pub mod search;
pub mod sim;
pub mod stats;
pub mod step;
pub mod universe;
pub mod world;
