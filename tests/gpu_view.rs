//! The world view drawn on the device equals its CPU definition (`view::render_host`) for
//! every device-resident strategy, zoomed in and out, partly outside the world, in chunks.

mod common;

use golab::rule::Rule;
use golab::step::view::{ViewRequest, render_host};
use golab::step::{GpuSettings, Strategy};
use golab::world::Topology;

fn requests() -> Vec<ViewRequest> {
    let r = |x0, y0, cells_per_pixel, width_px, height_px| ViewRequest {
        x0,
        y0,
        cells_per_pixel,
        width_px,
        height_px,
    };
    vec![
        r(0.0, 0.0, 1.0, 301, 157),     // one cell per pixel, whole world
        r(-20.5, -7.25, 0.125, 90, 70), // zoomed in, partly outside
        r(3.3, 1.7, 2.6, 130, 80),      // zoomed out, fractional spans
        r(-50.0, -30.0, 7.0, 61, 33),   // far out: many cells per pixel, margins
        r(280.0, 150.0, 0.5, 64, 64),   // bottom-right corner and beyond
    ]
}

#[test]
fn device_views_equal_the_host_definition() {
    let chunked = GpuSettings {
        chunk_limit: Some(64 * 1024),
        ..GpuSettings::default()
    };
    for settings in [GpuSettings::default(), chunked] {
        let factory = common::gpu_factory(settings);
        let ctx = factory.gpu().unwrap().clone();
        let star_wars: Rule = "345/2/4".parse().unwrap();
        for (strategy, rule) in [
            Strategy::GpuResident,
            Strategy::GpuReadbackSkip,
            Strategy::GpuBitpacked,
        ]
        .into_iter()
        .flat_map(|s| [(s, Rule::CONWAY), (s, star_wars)])
        {
            let start = common::soup(301, 157, Topology::Torus, rule, 40.0, 9);
            let mut stepper = factory.create(strategy, &start).unwrap();
            stepper.step(13).unwrap();
            let world = common::scalar_after(&start, 13);
            let mut drawn_on_device = 0;
            for request in requests() {
                let out = common::view_buffer(&ctx, request.pixels());
                if !stepper.render_view(&request, &out).unwrap() {
                    continue;
                }
                drawn_on_device += 1;
                let mut expected = vec![0; request.pixels()];
                render_host(&world, &request, &mut expected);
                assert_eq!(
                    common::read_back_u32(&ctx, &out),
                    expected,
                    "{} {rule} {request:?}",
                    strategy.name()
                );
            }
            assert_eq!(
                drawn_on_device,
                requests().len(),
                "{} drew on the host",
                strategy.name()
            );
        }
    }
}
