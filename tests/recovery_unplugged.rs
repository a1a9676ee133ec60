//! A GPU that disappears mid-run (GOLAB_FAULT=device-unplug: the device is destroyed and no
//! adapter can be opened again): the world continues on the CPU from the last recovery copy,
//! bit-identical to the reference, and GPU strategies are reported unavailable.

mod common;

use golab::step::Strategy;

#[test]
fn an_unplugged_gpu_continues_on_the_cpu_from_the_recovery_copy() {
    let snap = common::recovery::run_through_loss("device-unplug@gen:40", Strategy::GpuResident);
    let message = &snap.error.as_ref().unwrap().1;
    assert!(
        message.contains("no new device could be opened"),
        "{message}"
    );
    assert_eq!(snap.strategy, Strategy::Rayon);
    let lost = snap.gpu_lost.expect("the loss is reported to the window");
    assert!(lost.contains("no GPU adapter"), "{lost}");
}
