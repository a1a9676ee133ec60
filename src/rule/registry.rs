//! Interning for rules too large to copy: a process-wide list of shared values, each named
//! by its index, so [`super::Rule`] can hold a small `Copy` handle to a rule table or a
//! Larger than Life rule. Values are never removed (a session loads a handful of rules).

use std::sync::{Arc, RwLock, RwLockReadGuard};

/// A list of interned values of one kind.
pub struct Registry<T>(RwLock<Vec<Arc<T>>>);

impl<T: PartialEq> Registry<T> {
    /// An empty registry (for a `static`).
    pub const fn new() -> Registry<T> {
        Registry(RwLock::new(Vec::new()))
    }

    /// The index of `value`: an equal value already registered keeps its index.
    pub fn intern(&self, value: T) -> u32 {
        let mut list = self.0.write().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = list.iter().position(|t| **t == value) {
            return i as u32;
        }
        list.push(Arc::new(value));
        list.len() as u32 - 1
    }

    /// The value at `index` (an index [`Registry::intern`] returned).
    pub fn get(&self, index: u32) -> Arc<T> {
        self.read()[index as usize].clone()
    }

    /// Every value, in registration order (for searches by content).
    pub fn read(&self) -> RwLockReadGuard<'_, Vec<Arc<T>>> {
        self.0.read().unwrap_or_else(|e| e.into_inner())
    }
}

impl<T: PartialEq> Default for Registry<T> {
    fn default() -> Self {
        Registry::new()
    }
}
