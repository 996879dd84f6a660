//! The `.atr` parser: from text to the pruned tree of names.
//!
//! The grammar is line oriented (see `lexer`): a name token starts a node;
//! the rest of *its* line decides what it is — nothing (a leaf, or a block
//! whose `{` comes on a later line), a `:` token followed by properties up to
//! the end of the line (then the next token must be `{`), or anything else (an
//! error).  `{` and `}` must be alone on the rest of their line.
//!
//! The parsed tree mirrors the script arrays of the C original closely enough
//! to reproduce everything they make observable:
//!
//! * a parent's children form a list with the newest child at the head, so
//!   every later walk sees them in reverse source order (Quirk);
//! * a node is only ever removed while it is the newest child of its parent
//!   (a pruned leaf when the next name comes or the block ends; a block that
//!   kept nothing), so removal pops the head.
//!
//! The parser keeps its block stack in the state it is given (no recursion),
//! so nesting depth is bounded by memory only.

use super::hash::FxHashSet;
use super::lexer::Lexer;
use super::names::{NameId, Names};
use crate::error::{Failure, Outcome, Text};

/// `loopsync` property.
pub const PROPERTY_LOOPSYNC: u32 = 1;
/// `nonloopsync` property.
pub const PROPERTY_NONLOOPSYNC: u32 = 2;
/// `complete` property.
pub const PROPERTY_COMPLETE: u32 = 8;

/// "No node" marker of the child lists.
pub const NONE: u32 = u32::MAX;

/// One node of the parsed tree.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    pub name: NameId,
    /// Newest child (`NONE` for a leaf or an empty block).
    pub first_child: u32,
    /// Next older sibling.
    pub next_sibling: u32,
    /// Became a block (`{` seen).
    pub is_block: bool,
    /// The block's property word (written when the block is kept).
    pub flags: u32,
}

/// The parsed tree of one `.atr` file; node 0 is the root.
#[derive(Default)]
pub struct ParseTree {
    pub nodes: Vec<Node>,
    /// (parent, name) of every live child, for the duplicate check.
    children: FxHashSet<u64>,
}

#[inline]
fn child_key(parent: u32, name: NameId) -> u64 {
    (u64::from(parent) << 32) | u64::from(name)
}

impl ParseTree {
    /// An empty tree.
    pub const fn new() -> Self {
        Self { nodes: Vec::new(), children: FxHashSet::with_hasher(core::hash::BuildHasherDefault::new()) }
    }

    /// Starts a new tree: just the root block.
    pub fn reset(&mut self, root_name: NameId) {
        self.nodes.clear();
        self.children.clear();
        self.nodes.push(Node { name: root_name, first_child: NONE, next_sibling: NONE, is_block: true, flags: 0 });
    }

    /// Frees the memory of a large tree.
    pub fn release(&mut self) {
        self.nodes.clear();
        self.children.clear();
        if self.nodes.capacity() > 1 << 16 {
            self.nodes.shrink_to(1 << 16);
        }
    }

    fn node(&self, id: u32) -> Option<&Node> {
        self.nodes.get(id as usize)
    }

    /// True when `parent` has a child named `name`.
    pub fn has_child(&self, parent: u32, name: NameId) -> bool {
        self.children.contains(&child_key(parent, name))
    }

    /// True when `parent` has no child.
    pub fn is_empty(&self, parent: u32) -> bool {
        self.node(parent).is_none_or(|n| n.first_child == NONE)
    }

    /// Adds a leaf named `name` as the newest child of `parent`.
    pub fn add_child(&mut self, parent: u32, name: NameId) -> u32 {
        let id = self.nodes.len() as u32;
        let next = self.node(parent).map_or(NONE, |n| n.first_child);
        self.nodes.push(Node { name, first_child: NONE, next_sibling: next, is_block: false, flags: 0 });
        if let Some(p) = self.nodes.get_mut(parent as usize) {
            p.first_child = id;
        }
        self.children.insert(child_key(parent, name));
        id
    }

    /// Removes the newest child of `parent` (the only child ever removed).
    pub fn remove_newest(&mut self, parent: u32) {
        let Some(head) = self.node(parent).map(|n| n.first_child) else { return };
        let Some(&child) = self.node(head) else { return };
        self.children.remove(&child_key(parent, child.name));
        if let Some(p) = self.nodes.get_mut(parent as usize) {
            p.first_child = child.next_sibling;
        }
    }

    /// Children of `parent`, newest first.
    pub fn children(&self, parent: u32) -> Children<'_> {
        Children { tree: self, next: self.node(parent).map_or(NONE, |n| n.first_child) }
    }
}

/// Iterator over a node's children, newest first.
pub struct Children<'a> {
    tree: &'a ParseTree,
    next: u32,
}

impl Iterator for Children<'_> {
    type Item = (u32, Node);
    fn next(&mut self) -> Option<(u32, Node)> {
        let id = self.next;
        let node = *self.tree.node(id)?;
        self.next = node.next_sibling;
        Some((id, node))
    }
}

/// One open block of the parse (the locals of one level of the C recursion).
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    parent: u32,
    add_empty_void: bool,
    add_looping_void: bool,
    force_loaded: bool,
    /// Newest name of this block and its node (`NONE` after a block closed).
    anim_node: u32,
    property_flags: u32,
    missing: bool,
}

/// What the parser needs to know besides the text.
pub struct ParseContext<'a> {
    /// Is the name referenced (in the tree's reference set)?
    pub referenced: &'a dyn Fn(NameId) -> bool,
    /// `com_animCheck`: keep everything.
    pub anim_check: bool,
    /// Interned `void` and `void_loop`.
    pub void_name: NameId,
    pub void_loop_name: NameId,
}

/// Script identifier rule of the engine (`Scr_IsIdentifier`): every byte an
/// ASCII letter, digit or `_`; the empty string is one.
pub fn is_identifier(text: &[u8]) -> bool {
    text.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_')
}

fn compile_error(lexer: &Lexer, message: &[u8]) -> Failure {
    Failure::Compile { source_pos: lexer.last_token_pos() as u32, text: Text::from_bytes(message) }
}

/// `GetAnimTreeParseProperties`: property words to the end of the line.
fn parse_properties(lexer: &mut Lexer) -> Outcome<u32> {
    let mut flags = 0;
    loop {
        let token = lexer.parse_on_line();
        if token.is_empty() {
            return Ok(flags);
        }
        if token.eq_ignore_ascii_case(b"loopsync") {
            flags |= PROPERTY_LOOPSYNC;
        } else if token.eq_ignore_ascii_case(b"nonloopsync") {
            flags |= PROPERTY_NONLOOPSYNC;
        } else if token.eq_ignore_ascii_case(b"complete") {
            flags |= PROPERTY_COMPLETE;
        } else {
            return Err(compile_error(lexer, b"unknown anim property"));
        }
    }
}

/// Parses the whole text already loaded into `lexer` into `tree` (which must
/// have been reset to a lone root).  `frames` is scratch storage.
pub fn parse(
    lexer: &mut Lexer,
    tree: &mut ParseTree,
    frames: &mut Vec<Frame>,
    names: &mut Names,
    cx: &ParseContext<'_>,
) -> Outcome<()> {
    frames.clear();
    frames.push(Frame {
        parent: 0,
        add_empty_void: true,
        add_looping_void: false,
        force_loaded: false,
        anim_node: NONE,
        property_flags: 0,
        missing: false,
    });
    loop {
        let Some(frame) = frames.last_mut() else { return Ok(()) };
        lexer.parse();
        let mut hit_eof = true;
        let mut closed = false;
        if !lexer.at_end() {
            let mut token_is_name = is_identifier(lexer.token());
            if token_is_name {
                if frame.missing {
                    tree.remove_newest(frame.parent);
                }
                let name = names.intern_lowercase(lexer.token());
                if tree.has_child(frame.parent, name) {
                    return Err(compile_error(lexer, b"duplicate animation"));
                }
                frame.anim_node = tree.add_child(frame.parent, name);
                frame.missing = !frame.force_loaded && !cx.anim_check && !(cx.referenced)(name);
                frame.property_flags = 0;
                let token = lexer.parse_on_line();
                if token.is_empty() {
                    continue;
                }
                if is_identifier(token) {
                    return Err(compile_error(lexer, b"FIXME: aliases not yet implemented"));
                }
                if token != b":" {
                    return Err(compile_error(lexer, b"bad token"));
                }
                frame.property_flags = parse_properties(lexer)?;
                if lexer.parse() != b"{" {
                    return Err(compile_error(lexer, b"properties cannot be applied to primitive animations"));
                }
                token_is_name = false;
            }
            debug_assert!(!token_is_name);
            match lexer.token_byte(0) {
                b'{' => {
                    if lexer.token_byte(1) != 0 {
                        return Err(compile_error(lexer, b"bad token"));
                    }
                    if !lexer.parse_on_line().is_empty() {
                        return Err(compile_error(lexer, b"token not allowed after '{'"));
                    }
                    if frame.anim_node == NONE {
                        return Err(compile_error(lexer, b"no animation specified for this block"));
                    }
                    let node = frame.anim_node;
                    if let Some(n) = tree.nodes.get_mut(node as usize) {
                        n.is_block = true;
                    }
                    let flags = frame.property_flags;
                    let child = Frame {
                        parent: node,
                        add_empty_void: !frame.missing,
                        add_looping_void: flags & PROPERTY_LOOPSYNC != 0,
                        force_loaded: frame.force_loaded || (flags & PROPERTY_COMPLETE != 0 && !frame.missing),
                        anim_node: NONE,
                        property_flags: 0,
                        missing: false,
                    };
                    frames.push(child);
                    continue;
                }
                b'}' => {
                    if lexer.token_byte(1) != 0 {
                        return Err(compile_error(lexer, b"bad token"));
                    }
                    if !lexer.parse_on_line().is_empty() {
                        return Err(compile_error(lexer, b"token not allowed after '}'"));
                    }
                    hit_eof = false;
                    closed = true;
                }
                _ => return Err(compile_error(lexer, b"bad token")),
            }
        }
        debug_assert!(closed != hit_eof);
        // End of this block (EOF or `}`): the C function's epilogue.
        let frame = *frame;
        if frame.missing {
            tree.remove_newest(frame.parent);
        }
        if frame.add_empty_void && tree.is_empty(frame.parent) {
            let name = if frame.add_looping_void { cx.void_loop_name } else { cx.void_name };
            tree.add_child(frame.parent, name);
        }
        frames.pop();
        let Some(outer) = frames.last_mut() else {
            // The root block: a `}` closing it is a stray brace.
            if !hit_eof {
                return Err(compile_error(lexer, b"bad token"));
            }
            return Ok(());
        };
        if hit_eof {
            return Err(compile_error(lexer, b"unexpected end of file"));
        }
        if tree.is_empty(frame.parent) {
            tree.remove_newest(outer.parent);
        } else if let Some(n) = tree.nodes.get_mut(frame.parent as usize) {
            n.flags = outer.property_flags;
        }
        outer.anim_node = NONE;
        outer.missing = false;
    }
}
