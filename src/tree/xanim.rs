//! The compact XAnim tree: building, sync setup and queries.
