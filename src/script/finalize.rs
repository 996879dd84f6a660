//! The move-speed rebuild of the static entries and pass 2 (`BG_FinalizePlayerAnims`).
