//! A reported GPU loss that the device survived (GOLAB_FAULT=device-lost: the device says it
//! was lost but still works): the stepper meets the loss through its own check, and the app's
//! simulation continues on the same device — the window's — with the same strategy, from the
//! last recovery copy, bit-identical to the reference.

mod common;

use golab::step::Strategy;

#[test]
fn a_survived_loss_continues_on_the_same_device() {
    let snap = common::recovery::run_through_loss("device-lost@gen:40", Strategy::GpuResident);
    let message = &snap.error.as_ref().unwrap().1;
    assert!(message.contains("same device"), "{message}");
    assert!(!message.contains("new device"), "{message}");
    assert_eq!(snap.strategy, Strategy::GpuResident);
    assert!(snap.gpu_lost.is_none(), "{:?}", snap.gpu_lost);
}
