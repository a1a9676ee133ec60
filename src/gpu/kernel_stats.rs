//! What the driver compiled each kernel into — registers per thread, spills, shared memory,
//! instruction counts, whatever it reports — read through Vulkan's
//! `VK_KHR_pipeline_executable_properties`, so occupancy questions ("does B16 lose to B8 for
//! its registers?") are answered by the driver instead of guessed.
//!
//! wgpu exposes no such statistics, so golab compiles the same WGSL itself: naga to SPIR-V
//! with the options wgpu uses for golab's kernels (loop bounding and integer-division checks
//! off as in [`GpuContext::kernel_module`], array indices restricted, buffer accesses
//! unchecked as on devices with robust buffer access 2, workgroup memory not zeroed), built on
//! a second, private Vulkan device of the same physical GPU with statistics capture on (and a
//! varying subgroup size allowed, as wgpu allows it). That device runs nothing; wgpu's is only
//! read (its instance and physical-device handles). Kernels that would exceed the device's
//! workgroup-memory or invocation limits are reported as skipped, not built.
//!
//! Where the figures can differ from wgpu's own pipelines: buffer accesses are compiled
//! unchecked as wgpu does with robust buffer access 2, which the private device does not
//! enable; workgroup memory is never zeroed, as in the Lab's kernels (the Life kernels have
//! wgpu zero theirs); uniform buffers are bound without dynamic offsets.

use std::ffi::CStr;

use ash::vk;
use naga::back::spv;

use super::GpuContext;

/// The driver's statistics for one compute entry point of one module.
#[derive(Debug, Clone)]
pub struct KernelStats {
    /// The module's label ([`crate::gpu::shader::Shader::label`]).
    pub module: String,
    /// The entry point.
    pub entry: String,
    /// What the driver reports for each executable it built (usually one for a kernel).
    pub executables: Vec<Executable>,
    /// Why it was not built, where it was not (over this device's limits).
    pub skipped: Option<String>,
}

/// One executable the driver built: its name and its statistics as (name, value), the
/// subgroup size first.
pub type Executable = (String, Vec<(String, String)>);

/// A private Vulkan device of a [`GpuContext`]'s GPU that compiles kernels with statistics
/// capture on (see the module documentation).
pub struct KernelStatistics {
    device: PrivateDevice,
    /// Most workgroup memory and invocations a workgroup may have on this device.
    limits: (u32, u32),
    /// Keeps wgpu's Vulkan instance alive until the private device is gone (fields drop in
    /// order: the device first).
    _adapter: wgpu::Adapter,
}

impl KernelStatistics {
    /// Open it for `ctx`'s GPU, or say why not (not Vulkan, the driver lacks the extension).
    pub fn open(ctx: &GpuContext) -> Result<KernelStatistics, String> {
        // SAFETY: only the instance and physical-device handles are read; nothing of wgpu's
        // is destroyed, the private device is wholly ours, and the adapter kept in the result
        // holds wgpu's instance alive until the private device is destroyed.
        let adapter =
            unsafe { ctx.adapter.as_hal::<wgpu::hal::api::Vulkan>() }.ok_or_else(|| {
                format!(
                    "kernel statistics need the Vulkan backend; this adapter runs {:?}",
                    ctx.info.backend
                )
            })?;
        let instance = adapter.shared_instance().raw_instance().clone();
        let device = PrivateDevice::open(&instance, adapter.raw_physical_device())?;
        Ok(KernelStatistics {
            device,
            limits: (
                ctx.limits.max_compute_workgroup_storage_size,
                ctx.limits.max_compute_invocations_per_workgroup,
            ),
            _adapter: ctx.adapter.clone(),
        })
    }

    /// Compile every compute entry point of the WGSL `source` (labelled `label`) and return
    /// what the driver reports for each.
    pub fn module(&self, label: &str, source: &str) -> Result<Vec<KernelStats>, String> {
        let compiled = compute_spirv(source, self.device.spirv_version)
            .map_err(|e| format!("{label}: {e}"))?;
        let (most_bytes, most_invocations) = self.limits;
        let sets = descriptor_sets(&compiled.module);
        let mut out = Vec::new();
        for kernel in compiled.kernels {
            let mut stats = KernelStats {
                module: label.to_string(),
                entry: kernel.entry.clone(),
                executables: Vec::new(),
                skipped: None,
            };
            if kernel.workgroup_bytes > most_bytes || kernel.invocations > most_invocations {
                stats.skipped = Some(format!(
                    "not built: {} bytes of workgroup memory and {} invocations a workgroup, \
                     this device allows {most_bytes} and {most_invocations}",
                    kernel.workgroup_bytes, kernel.invocations
                ));
            } else {
                stats.executables = self
                    .device
                    .statistics(&sets, &kernel.words, &kernel.entry)
                    .map_err(|e| format!("{label} {}: {e}", kernel.entry))?;
            }
            out.push(stats);
        }
        Ok(out)
    }
}

/// A module's compute kernels translated to SPIR-V.
pub struct CompiledModule {
    /// The parsed module (its resources make the pipeline layout).
    pub module: naga::Module,
    /// Each compute entry point.
    pub kernels: Vec<CompiledKernel>,
}

/// One compute entry point in SPIR-V, with what it asks of a device.
pub struct CompiledKernel {
    /// Entry point name.
    pub entry: String,
    /// Its SPIR-V words.
    pub words: Vec<u32>,
    /// Bytes of workgroup memory it uses (the variables it refers to).
    pub workgroup_bytes: u32,
    /// Invocations a workgroup.
    pub invocations: u32,
}

/// Every compute entry point of the WGSL `source` with its SPIR-V (version `version`), written
/// as wgpu writes golab's kernels; `Err` says what failed (parse, validation, translation).
pub fn compute_spirv(source: &str, version: (u8, u8)) -> Result<CompiledModule, String> {
    let module = naga::front::wgsl::parse_str(source).map_err(|e| e.emit_to_string(source))?;
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .map_err(|e| e.emit_to_string(source))?;
    let mut layouter = naga::proc::Layouter::default();
    layouter
        .update(module.to_ctx())
        .map_err(|e| e.to_string())?;
    let mut kernels = Vec::new();
    for (index, e) in module.entry_points.iter().enumerate() {
        if e.stage != naga::ShaderStage::Compute {
            continue;
        }
        let uses = info.get_entry_point(index);
        let workgroup_bytes = module
            .global_variables
            .iter()
            .filter(|(h, v)| v.space == naga::AddressSpace::WorkGroup && !uses[*h].is_empty())
            .map(|(_, v)| layouter[v.ty].size)
            .sum();
        let words =
            spirv(&module, &info, &e.name, version).map_err(|err| format!("{}: {err}", e.name))?;
        kernels.push(CompiledKernel {
            entry: e.name.clone(),
            words,
            workgroup_bytes,
            invocations: e.workgroup_size.iter().product(),
        });
    }
    Ok(CompiledModule { module, kernels })
}

/// SPIR-V of one entry point, written as wgpu writes golab's kernels.
fn spirv(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    entry: &str,
    version: (u8, u8),
) -> Result<Vec<u32>, spv::Error> {
    let options = spv::Options {
        lang_version: version,
        flags: spv::WriterFlags::empty(),
        capabilities: None,
        bounds_check_policies: naga::proc::BoundsCheckPolicies {
            index: naga::proc::BoundsCheckPolicy::Restrict,
            buffer: naga::proc::BoundsCheckPolicy::Unchecked,
            image_load: naga::proc::BoundsCheckPolicy::Unchecked,
            binding_array: naga::proc::BoundsCheckPolicy::Unchecked,
        },
        zero_initialize_workgroup_memory: spv::ZeroInitializeWorkgroupMemoryMode::None,
        force_loop_bounding: false,
        emit_int_div_checks: false,
        ..spv::Options::default()
    };
    let pipeline = spv::PipelineOptions {
        shader_stage: naga::ShaderStage::Compute,
        entry_point: entry.to_string(),
    };
    spv::write_vec(module, info, &options, Some(&pipeline))
}

/// A Vulkan device with pipeline statistics enabled, destroyed on drop.
struct PrivateDevice {
    device: ash::Device,
    stats: ash::khr::pipeline_executable_properties::Device,
    spirv_version: (u8, u8),
    /// Pipelines may run at any subgroup size the driver picks (wgpu allows it wherever the
    /// device can).
    varying_subgroup: bool,
}

impl PrivateDevice {
    fn open(instance: &ash::Instance, physical: vk::PhysicalDevice) -> Result<Self, String> {
        let name = ash::khr::pipeline_executable_properties::NAME;
        // SAFETY: plain queries and creation on a valid instance and physical device; every
        // structure chained below lives until the call that reads it returns.
        unsafe {
            let extensions = instance
                .enumerate_device_extension_properties(physical)
                .map_err(|e| e.to_string())?;
            if !extensions
                .iter()
                .any(|e| e.extension_name_as_c_str() == Ok(name))
            {
                return Err(format!(
                    "this driver does not offer {} (kernel statistics)",
                    name.to_string_lossy()
                ));
            }
            let api = instance
                .get_physical_device_properties(physical)
                .api_version;
            if api < vk::API_VERSION_1_2 {
                return Err("kernel statistics need a Vulkan 1.2 device".into());
            }
            let mut probe = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default();
            let mut probe13 = vk::PhysicalDeviceVulkan13Features::default();
            let mut query = vk::PhysicalDeviceFeatures2::default().push_next(&mut probe);
            if api >= vk::API_VERSION_1_3 {
                query = query.push_next(&mut probe13);
            }
            instance.get_physical_device_features2(physical, &mut query);
            if probe.pipeline_executable_info != vk::TRUE {
                return Err("the driver offers pipeline statistics but not for this GPU".into());
            }
            let varying_subgroup = probe13.subgroup_size_control == vk::TRUE;
            // Enable every feature the device has (the kernels may use any of them), plus
            // the statistics.
            let mut v11 = vk::PhysicalDeviceVulkan11Features::default();
            let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
            let mut v13 = vk::PhysicalDeviceVulkan13Features::default();
            let mut executable =
                vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default();
            let mut features = vk::PhysicalDeviceFeatures2::default()
                .push_next(&mut v11)
                .push_next(&mut v12)
                .push_next(&mut executable);
            if api >= vk::API_VERSION_1_3 {
                features = features.push_next(&mut v13);
            }
            instance.get_physical_device_features2(physical, &mut features);
            let priorities = [1.0f32];
            let queues = [vk::DeviceQueueCreateInfo::default()
                .queue_family_index(0)
                .queue_priorities(&priorities)];
            let names = [name.as_ptr()];
            let create = vk::DeviceCreateInfo::default()
                .queue_create_infos(&queues)
                .enabled_extension_names(&names)
                .push_next(&mut features);
            let device = instance
                .create_device(physical, &create, None)
                .map_err(|e| format!("opening a private Vulkan device: {e}"))?;
            let stats = ash::khr::pipeline_executable_properties::Device::new(instance, &device);
            let spirv_version = if api >= vk::API_VERSION_1_3 {
                (1, 6)
            } else {
                (1, 5)
            };
            Ok(PrivateDevice {
                device,
                stats,
                spirv_version,
                varying_subgroup,
            })
        }
    }

    /// Build `entry` of `words` (whose resources `sets` lays out) with statistics capture and
    /// read them.
    fn statistics(
        &self,
        sets: &[Vec<vk::DescriptorSetLayoutBinding>],
        words: &[u32],
        entry: &str,
    ) -> Result<Vec<Executable>, String> {
        let d = &self.device;
        let entry_name = std::ffi::CString::new(entry).map_err(|e| e.to_string())?;
        // SAFETY: every object is created on this device, used only here and destroyed
        // before returning (also on error); no pipeline is ever bound or dispatched.
        unsafe {
            let shader = d
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(words), None)
                .map_err(|e| e.to_string())?;
            let layouts: Vec<_> = sets
                .iter()
                .map(|bindings| {
                    let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(bindings);
                    d.create_descriptor_set_layout(&info, None)
                })
                .collect();
            let result = match layouts.iter().copied().collect::<Result<Vec<_>, _>>() {
                Ok(made) => self.pipeline_statistics(shader, &made, &entry_name),
                Err(e) => Err(e.to_string()),
            };
            for layout in layouts.iter().flatten() {
                d.destroy_descriptor_set_layout(*layout, None);
            }
            d.destroy_shader_module(shader, None);
            result
        }
    }

    /// # Safety
    /// `shader` and `layouts` are live objects of this device.
    unsafe fn pipeline_statistics(
        &self,
        shader: vk::ShaderModule,
        layouts: &[vk::DescriptorSetLayout],
        entry: &CStr,
    ) -> Result<Vec<Executable>, String> {
        let d = &self.device;
        // SAFETY: as the caller promises; the layout and pipeline are destroyed before
        // returning.
        unsafe {
            let layout = d
                .create_pipeline_layout(
                    &vk::PipelineLayoutCreateInfo::default().set_layouts(layouts),
                    None,
                )
                .map_err(|e| e.to_string())?;
            let flags = if self.varying_subgroup {
                vk::PipelineShaderStageCreateFlags::ALLOW_VARYING_SUBGROUP_SIZE
            } else {
                vk::PipelineShaderStageCreateFlags::empty()
            };
            let stage = vk::PipelineShaderStageCreateInfo::default()
                .flags(flags)
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(shader)
                .name(entry);
            let create = [vk::ComputePipelineCreateInfo::default()
                .flags(vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR)
                .stage(stage)
                .layout(layout)];
            let pipeline =
                match d.create_compute_pipelines(vk::PipelineCache::null(), &create, None) {
                    Ok(p) => p[0],
                    Err((_, e)) => {
                        d.destroy_pipeline_layout(layout, None);
                        return Err(format!("the driver did not build it: {e}"));
                    }
                };
            let result = self.read_statistics(pipeline);
            d.destroy_pipeline(pipeline, None);
            d.destroy_pipeline_layout(layout, None);
            result
        }
    }

    /// # Safety
    /// `pipeline` was created on this device with statistics capture.
    unsafe fn read_statistics(&self, pipeline: vk::Pipeline) -> Result<Vec<Executable>, String> {
        let info = vk::PipelineInfoKHR::default().pipeline(pipeline);
        // SAFETY: as the caller promises.
        let executables = unsafe { self.stats.get_pipeline_executable_properties(&info) }
            .map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        for (index, executable) in executables.iter().enumerate() {
            let which = vk::PipelineExecutableInfoKHR::default()
                .pipeline(pipeline)
                .executable_index(index as u32);
            // SAFETY: as the caller promises; `index` is one the driver listed.
            let statistics = unsafe { self.stats.get_pipeline_executable_statistics(&which) }
                .map_err(|e| e.to_string())?;
            let name = text(executable.name_as_c_str());
            let subgroup = executable.subgroup_size;
            let mut values = vec![("subgroup size".to_string(), subgroup.to_string())];
            values.extend(
                statistics
                    .iter()
                    .map(|s| (text(s.name_as_c_str()), value(s))),
            );
            out.push((name, values));
        }
        Ok(out)
    }
}

impl Drop for PrivateDevice {
    fn drop(&mut self) {
        // SAFETY: the device ran nothing and every object made on it is already destroyed.
        unsafe { self.device.destroy_device(None) };
    }
}

fn text(s: Result<&CStr, std::ffi::FromBytesUntilNulError>) -> String {
    s.map(|c| c.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn value(s: &vk::PipelineExecutableStatisticKHR) -> String {
    // SAFETY: the union member read is the one `format` names.
    unsafe {
        match s.format {
            vk::PipelineExecutableStatisticFormatKHR::BOOL32 => (s.value.b32 != 0).to_string(),
            vk::PipelineExecutableStatisticFormatKHR::INT64 => s.value.i64.to_string(),
            vk::PipelineExecutableStatisticFormatKHR::UINT64 => s.value.u64.to_string(),
            vk::PipelineExecutableStatisticFormatKHR::FLOAT64 => format!("{:.3}", s.value.f64),
            _ => "?".to_string(),
        }
    }
}

/// The descriptor-set layouts `module` binds (every resource of every group, for the compute
/// stage): storage and uniform buffers, storage and sampled textures, samplers.
fn descriptor_sets(module: &naga::Module) -> Vec<Vec<vk::DescriptorSetLayoutBinding<'static>>> {
    let mut sets: Vec<Vec<vk::DescriptorSetLayoutBinding>> = Vec::new();
    for (_, var) in module.global_variables.iter() {
        let Some(binding) = &var.binding else {
            continue;
        };
        let kind = match (&var.space, &module.types[var.ty].inner) {
            (naga::AddressSpace::Storage { .. }, _) => vk::DescriptorType::STORAGE_BUFFER,
            (naga::AddressSpace::Uniform, _) => vk::DescriptorType::UNIFORM_BUFFER,
            (_, naga::TypeInner::Image { class, .. }) => match class {
                naga::ImageClass::Storage { .. } => vk::DescriptorType::STORAGE_IMAGE,
                _ => vk::DescriptorType::SAMPLED_IMAGE,
            },
            (_, naga::TypeInner::Sampler { .. }) => vk::DescriptorType::SAMPLER,
            _ => continue,
        };
        let group = binding.group as usize;
        if sets.len() <= group {
            sets.resize_with(group + 1, Vec::new);
        }
        sets[group].push(
            vk::DescriptorSetLayoutBinding::default()
                .binding(binding.binding)
                .descriptor_type(kind)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::COMPUTE),
        );
    }
    sets
}
