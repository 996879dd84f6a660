//! Action-animation selector exports (game and cgame units).
