//! A GPU device really destroyed mid-run (GOLAB_FAULT=device-destroy) in the app's simulation
//! thread: a new device is opened, the pipelines rebuilt, and the same GPU strategy continues
//! from the last recovery copy, bit-identical to the reference.

mod common;

use golab::step::Strategy;

#[test]
fn a_destroyed_device_is_replaced_and_the_gpu_strategy_continues() {
    let snap = common::recovery::run_through_loss("device-destroy@gen:40", Strategy::GpuBitpacked);
    let message = &snap.error.as_ref().unwrap().1;
    assert!(message.contains("opened a new device"), "{message}");
    assert_eq!(snap.strategy, Strategy::GpuBitpacked);
    assert!(snap.gpu_lost.is_none(), "{:?}", snap.gpu_lost);
}
