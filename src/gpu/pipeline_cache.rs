//! golab's compiled pipelines kept between runs: a wgpu pipeline cache (Vulkan's
//! `VkPipelineCache`) read from the user's cache directory when the device opens and written
//! back after a world's pipelines were built, so a second launch does not compile them again
//! even where the driver keeps no shader cache of its own (`__GL_SHADER_DISK_CACHE=0`, a
//! cleared cache, a fresh container).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Largest cache file read back (a larger one is ignored: not golab's, or damaged).
const MOST_BYTES: u64 = 512 << 20;

/// A device's pipeline cache and the file it persists to.
pub struct PersistedCache {
    cache: wgpu::PipelineCache,
    file: PathBuf,
    loaded: usize,
    /// Pipelines built with the cache, and how many of them the file holds.
    built: AtomicUsize,
    saved: AtomicUsize,
    /// One save at a time: the main thread (after a load) and the background compiler (when
    /// its job is done) both save, through the same temporary file.
    saving: std::sync::Mutex<()>,
}

impl PersistedCache {
    /// The cache for `device` (opened with [`wgpu::Features::PIPELINE_CACHE`]) on the adapter
    /// `info`, filled from its file in `dir` where one exists; `None` where the backend keeps
    /// no pipeline cache (wgpu has one for Vulkan only).
    pub fn open(device: &wgpu::Device, info: &wgpu::AdapterInfo, dir: &Path) -> Option<Self> {
        let key = wgpu::util::pipeline_cache_key(info)?;
        let file = dir.join(key);
        let data = std::fs::metadata(&file)
            .ok()
            .filter(|m| m.len() <= MOST_BYTES)
            .and_then(|_| std::fs::read(&file).ok());
        // SAFETY: the data is what `PipelineCache::get_data` wrote for this adapter's key;
        // wgpu checks its own header (adapter, driver) and, with `fallback`, starts empty
        // on a mismatch, and Vulkan drivers validate the cache's header again.
        let cache = unsafe {
            device.create_pipeline_cache(&wgpu::PipelineCacheDescriptor {
                label: Some("golab pipelines"),
                data: data.as_deref(),
                fallback: true,
            })
        };
        Some(PersistedCache {
            cache,
            file,
            loaded: data.map_or(0, |d| d.len()),
            built: AtomicUsize::new(0),
            saved: AtomicUsize::new(0),
            saving: std::sync::Mutex::new(()),
        })
    }

    /// The cache to build pipelines with.
    pub fn cache(&self) -> &wgpu::PipelineCache {
        &self.cache
    }

    /// Bytes read from the file when the device opened (0: none, or none usable).
    pub fn loaded_bytes(&self) -> usize {
        self.loaded
    }

    /// The file the cache persists to.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// A pipeline was built with the cache (counted once it is: a save on another thread
    /// then holds it).
    pub fn built_one(&self) {
        self.built.fetch_add(1, Ordering::Release);
    }

    /// Write the cache to its file (through a temporary file, so a reader never sees half of
    /// one) if pipelines were built since the last write; the bytes written, if any.
    pub fn save(&self) -> std::io::Result<Option<usize>> {
        let _one = self.saving.lock().unwrap_or_else(|e| e.into_inner());
        let built = self.built.load(Ordering::Acquire);
        if built == self.saved.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let Some(data) = self.cache.get_data() else {
            return Ok(None);
        };
        if let Some(dir) = self.file.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let temp = self
            .file
            .with_extension(format!("{}.tmp", std::process::id()));
        std::fs::write(&temp, &data)?;
        std::fs::rename(&temp, &self.file)?;
        self.saved.store(built, Ordering::Relaxed);
        Ok(Some(data.len()))
    }
}
