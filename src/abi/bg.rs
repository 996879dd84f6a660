//! Mirrors of `bg_animation_types.h`, `clientInfo_t` and `playerState_t`.
