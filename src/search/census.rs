//! The census of a search: every object counted, and for each object up to ten soups that
//! made it, kept as apgsearch keeps them when soups are taken in order (a soup is kept
//! while its object has been seen at most 1000 times, once per soup, while the list's text
//! stays short; records such as `megasized_` keep their first ten soups).

use std::collections::BTreeMap;

use super::soup::{Sampling, SoupCensus};

/// Counts and sample soups by apgcode.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Census {
    /// Objects seen, by apgcode.
    pub counts: BTreeMap<String, i64>,
    /// Up to ten soup indices (as their decimal suffix) that made each object.
    pub samples: BTreeMap<String, Vec<String>>,
}

impl Census {
    /// Add soup `suffix`'s census (soups must be added in index order for apgsearch's
    /// samples).
    pub fn add(&mut self, suffix: &str, soup: &SoupCensus) {
        for (code, n, sampling) in &soup.entries {
            let count = self.counts.entry(code.clone()).or_insert(0);
            let samples = self.samples.entry(code.clone()).or_default();
            match sampling {
                Sampling::Census => {
                    *count += n;
                    if *count > 1000 || samples.last().is_some_and(|s| s == suffix) {
                        continue;
                    }
                    let length: usize =
                        suffix.len() + samples.iter().map(|s| 4 * s.len()).sum::<usize>();
                    if samples.len() < 10 && length <= 5760 {
                        samples.push(suffix.to_string());
                    }
                }
                Sampling::Record => {
                    *count += n;
                    if samples.len() < 10 {
                        samples.push(suffix.to_string());
                    }
                }
            }
        }
    }

    /// The census by count, largest first (ties: the later apgcode in byte order first),
    /// without `xs0_0` and zero counts.
    pub fn by_count(&self) -> Vec<(String, i64)> {
        let mut list: Vec<(String, i64)> = self
            .counts
            .iter()
            .filter(|&(code, &n)| n != 0 && code.as_str() != "xs0_0")
            .map(|(code, &n)| (code.clone(), n))
            .collect();
        list.sort_by(|a, b| (b.1, b.0.as_bytes()).cmp(&(a.1, a.0.as_bytes())));
        list
    }

    /// Objects counted (the sum of [`Self::by_count`]).
    pub fn objects(&self) -> i64 {
        self.by_count().iter().map(|(_, n)| n).sum()
    }
}
