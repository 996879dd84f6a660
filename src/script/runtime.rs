//! Runtime: conditions and animation selection.
