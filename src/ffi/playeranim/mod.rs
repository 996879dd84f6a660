//! Player animation-script exports (game and cgame units).

mod runtime;
