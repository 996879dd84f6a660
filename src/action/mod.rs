//! The Torque-style action-animation selector.
