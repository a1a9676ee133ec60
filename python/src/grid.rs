//! Dense worlds: `golab.grid(width, height=None, strategy="scalar", rule="b3s23",
//! topology="torus")` is a grid universe ([`GridUniverse`]) stepped by any of golab's
//! strategies — the CPU ones and the GPU ones (a GPU strategy without an adapter raises
//! golab's message, which says how to install lavapipe). Cells are read and written as numpy
//! arrays indexed `[y, x]`: `states` (uint8) and `ages` (uint32, generations survived).

use std::sync::Mutex;

use golab::gpu::GpuOptions;
use golab::rule::Rule;
use golab::sim::Simulation;
use golab::step::{StepperFactory, Strategy};
use golab::universe::{GridUniverse, Universe, UniverseError};
use golab::world::{Topology, World};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::errors::{to_py, value_error};
use crate::interrupt;
use crate::session::{parse_rule, rule_name};

/// A dense world (see the module docs).
#[pyclass(module = "golab", name = "Grid")]
pub struct Grid {
    universe: Mutex<GridUniverse>,
    width: u32,
    height: u32,
}

/// `golab.grid(...)`: a `width × height` world (square when `height` is omitted), empty,
/// at generation 0.
#[pyfunction]
#[pyo3(signature = (width, height=None, strategy="scalar", rule="b3s23", topology="torus"))]
pub fn grid(
    width: u32,
    height: Option<u32>,
    strategy: &str,
    rule: &str,
    topology: &str,
) -> PyResult<Grid> {
    let height = height.unwrap_or(width);
    let strategy: Strategy = strategy
        .parse()
        .map_err(|e: golab::step::UnknownStrategy| value_error(e.to_string()))?;
    if strategy == Strategy::Hashlife {
        return Err(value_error(
            "hashlife is the unbounded hashed universe: use load_rules(rule).lifetree().pattern(...)",
        ));
    }
    let rule: Rule = parse_rule(rule)?;
    let topology: Topology = topology.parse().map_err(|e| value_error(format!("{e}")))?;
    let world =
        World::new(width, height, topology, rule).map_err(|e| value_error(e.to_string()))?;
    let factory = if strategy.is_gpu() {
        StepperFactory::with_gpu(GpuOptions::default())
    } else {
        StepperFactory::cpu_only()
    };
    let sim = Simulation::new(factory, world, strategy)
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let mut universe = GridUniverse::new(sim);
    universe.set_interrupt(interrupt::FLAG.clone());
    Ok(Grid {
        universe: Mutex::new(universe),
        width,
        height,
    })
}

impl Grid {
    /// Run `f` on the universe with the GIL released and Ctrl-C watched.
    fn with<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut GridUniverse) -> Result<T, UniverseError> + Send,
    ) -> PyResult<T> {
        interrupt::run(py, || {
            let mut u = self.universe.lock().unwrap_or_else(|e| e.into_inner());
            f(&mut u)
        })?
        .map_err(to_py)
    }

    /// A copy of the world's cells (read back from the strategy).
    fn world(&self, py: Python<'_>) -> PyResult<World> {
        self.with(py, |u| Ok(u.simulation().world()?.clone()))
    }

    /// The grid cell `(x, y)` checked against the size.
    fn check(&self, x: i64, y: i64) -> PyResult<(u32, u32)> {
        match (u32::try_from(x), u32::try_from(y)) {
            (Ok(gx), Ok(gy)) if gx < self.width && gy < self.height => Ok((gx, gy)),
            _ => Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "cell ({x}, {y}) is outside the {}×{} grid",
                self.width, self.height
            ))),
        }
    }
}

#[pymethods]
impl Grid {
    /// Step `generations` (the GIL released; Ctrl-C stops at a generation boundary, the
    /// world whole at the generation it reached, and raises `KeyboardInterrupt`).
    #[pyo3(signature = (generations=1))]
    fn step(&self, py: Python<'_>, generations: u64) -> PyResult<()> {
        let n = u128::from(generations);
        self.with(py, |u| u.step(n, &interrupt::raised).map(|_| ()))
    }

    /// Live cells (state 1).
    #[getter]
    fn population(&self, py: Python<'_>) -> PyResult<u128> {
        self.with(py, |u| u.population())
    }

    /// Generations stepped.
    #[getter]
    fn generation(&self, py: Python<'_>) -> PyResult<u128> {
        self.with(py, |u| Ok(u.generation()))
    }

    /// Width in cells.
    #[getter]
    fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    #[getter]
    fn height(&self) -> u32 {
        self.height
    }

    /// The strategy stepping the world.
    #[getter]
    fn strategy(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, |u| Ok(u.strategy().name().to_string()))
    }

    /// The rule, by lifelib's name.
    #[getter]
    fn rule(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, |u| Ok(rule_name(&u.rule())))
    }

    /// Every cell's state as a `(height, width)` uint8 array (0 dead, 1 alive, 2.. a
    /// Generations rule's dying states).
    #[getter]
    fn states<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let world = self.world(py)?;
        let shape = [world.height() as usize, world.width() as usize];
        PyArray1::from_vec(py, world.states()).reshape(shape)
    }

    /// Replace every cell's state from a `(height, width)` uint8 array (ages restart).
    #[setter]
    fn set_states(&self, py: Python<'_>, states: PyReadonlyArray2<'_, u8>) -> PyResult<()> {
        let a = states.as_array();
        if a.dim() != (self.height as usize, self.width as usize) {
            return Err(value_error(format!(
                "states must be a {}×{} (height × width) array, not {:?}",
                self.height,
                self.width,
                a.dim()
            )));
        }
        let wanted: Vec<(u32, u32, u8)> = a
            .indexed_iter()
            .map(|((y, x), &s)| (x as u32, y as u32, s))
            .collect();
        self.with(py, move |u| {
            u.simulation().modify(|w| {
                let mut next = w.clone();
                next.clear();
                for &(x, y, s) in &wanted {
                    if s != 0 {
                        next.set_state(x, y, s);
                    }
                }
                Ok(next)
            })?;
            Ok(())
        })
    }

    /// Every cell's age (generations a live cell has survived; 0 for dead cells) as a
    /// `(height, width)` uint32 array.
    #[getter]
    fn ages<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u32>>> {
        let world = self.world(py)?;
        let shape = [world.height() as usize, world.width() as usize];
        PyArray1::from_vec(py, world.ages().to_vec()).reshape(shape)
    }

    /// `g[x, y]`: one cell's state.
    fn __getitem__(&self, py: Python<'_>, key: (i64, i64)) -> PyResult<u8> {
        let (x, y) = self.check(key.0, key.1)?;
        let world = self.world(py)?;
        Ok(world.states()[y as usize * self.width as usize + x as usize])
    }

    /// `g[x, y] = state`.
    fn __setitem__(&self, py: Python<'_>, key: (i64, i64), state: u8) -> PyResult<()> {
        let (x, y) = self.check(key.0, key.1)?;
        self.with(py, move |u| {
            u.simulation().modify(|w| {
                let mut next = w.clone();
                next.set_state(x, y, state);
                Ok(next)
            })?;
            Ok(())
        })
    }

    /// Fill with a random soup: each cell alive with probability `density` (0..1), from
    /// `seed`.
    #[pyo3(signature = (density=0.5, seed=1))]
    fn fill_random(&self, py: Python<'_>, density: f64, seed: u64) -> PyResult<()> {
        if !(0.0..=1.0).contains(&density) {
            return Err(value_error("density is a probability between 0 and 1"));
        }
        self.with(py, move |u| {
            u.simulation().modify(|w| {
                let mut next = w.clone();
                next.fill_random(density * 100.0, seed)?;
                Ok(next)
            })?;
            Ok(())
        })
    }

    /// Switch to another strategy in place, every cell and age kept.
    fn switch(&self, py: Python<'_>, strategy: &str) -> PyResult<()> {
        let strategy: Strategy = strategy
            .parse()
            .map_err(|e: golab::step::UnknownStrategy| value_error(e.to_string()))?;
        self.with(py, move |u| u.switch_strategy(strategy))
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, |u| Ok(format!("<golab Grid: {}>", u.describe())))
    }
}
