//! What the crate's tests share: the core's seeded generator.

pub(crate) use uoanim_core::testing::Rng;
