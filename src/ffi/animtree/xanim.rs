//! Exports of the compact XAnim tree (xanim_tree.c, xanim_tree_queries.c).
