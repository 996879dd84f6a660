//! The `.atr` parser of the animation trees' module: from text to the
//! pruned tree of names.
//!
//! The grammar is line oriented (tokens as the crate's tokenizer,
//! [`crate::lexis`], cuts them): a name token starts a node; the rest of
//! *its* line decides what it is — nothing (a leaf, or a block whose `{`
//! comes on a later line), a `:` token followed by properties up to
//! the end of the line (then the next token must be `{`), or anything else (an
//! error).  `{` and `}` must be alone on the rest of their line.
//!
//! The text is first cut into [`Token`]s (once per file content: the result
//! does not depend on the reference set, so a load that meets the same file
//! again reuses it), each remembering whether a line break precedes it — all
//! `Com_ParseOnLine` needs.  The parse proper then runs over the tokens.
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

use crate::names::{NameId, Names};
use alloc::vec::Vec;
use crate::lexis::{classes, scan_quoted, skip_gap, token_end, Stop, MAX_TOKEN_LEN, NOT_IDENT, UPPER};

/// A parse error of a `.atr` text: the engine's `CompileError(source_pos,
/// message)` (the units raise it as such).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompileError {
    /// Where the error is (the offset the engine's compiler is given).
    pub source_pos: u32,
    /// The engine's text.
    pub message: &'static [u8],
}

/// A step of the parse.
pub type Outcome<T> = Result<T, CompileError>;

/// `loopsync` property.
pub const PROPERTY_LOOPSYNC: u32 = 1;
/// `nonloopsync` property.
pub const PROPERTY_NONLOOPSYNC: u32 = 2;
/// `complete` property.
pub const PROPERTY_COMPLETE: u32 = 8;

/// "No node" marker of the child lists.
pub const NONE: u32 = u32::MAX;

/// What a token is, as far as the parser looks at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A script identifier (ASCII letters, digits, `_`), possibly empty (a
    /// quoted `""`: a name at the start of a line, "nothing" elsewhere).
    Name,
    /// Exactly `{`.
    Open,
    /// Exactly `}`.
    Close,
    /// Starts with `{` or `}` and has more bytes.
    GluedBrace,
    /// Exactly `:`.
    Colon,
    /// Anything else.
    Other,
    /// End of the text.
    End,
}

/// One token of a `.atr` text.
#[derive(Clone, Copy, Debug)]
pub struct Token {
    /// Offset of its first byte.
    pub start: u32,
    /// What the token is.
    pub class: Class,
    /// Lowercased name (for [`Class::Name`]).
    pub name: NameId,
    /// Property bit of a name (`loopsync`, `nonloopsync`, `complete`, any case).
    pub property: u8,
    /// Empty token (a quoted `""`).
    pub empty: bool,
    /// A line break precedes it (`Com_ParseOnLine` stops before it).
    pub newline_before: bool,
}

pub use crate::lexis::is_identifier;

/// Cuts `text` (up to its first NUL) into tokens, ending with a
/// [`Class::End`] token.
///
/// One pass over the text with the steps of the crate's tokenizer
/// ([`crate::lexis`]): [`skip_gap`] before each token (never stopping
/// at a line break: the token records it, and a line break inside a block
/// comment does not count, as for `Com_ParseOnLine`), then a quoted token
/// ([`scan_quoted`]) or a run up to whitespace ([`token_end`]), at most
/// [`MAX_TOKEN_LEN`] bytes kept. Its bytes' classes make the token's class.
pub fn tokenize(text: &[u8], names: &mut Names, out: &mut Vec<Token>) {
    let t = match core::ffi::CStr::from_bytes_until_nul(text) {
        Ok(c) => c.to_bytes(),
        Err(_) => text,
    };
    tokenize_c_text(t, names, out);
}

/// [`tokenize`] of a text known to hold no NUL (the bytes of a C string).
/// (A NUL inside would end the text.)
pub fn tokenize_c_text(t: &[u8], names: &mut Names, out: &mut Vec<Token>) {
    out.clear();
    out.reserve(t.len() / 16 + 1);
    let mut quoted = [0u8; MAX_TOKEN_LEN];
    let mut p = 0usize;
    loop {
        // Com_Parse: whitespace and comments before the token (no line
        // numbers are kept, so comments need no look).
        let gap = skip_gap(t, p, false, |_| {});
        let newline_before = gap.line_breaks != 0;
        if gap.stop != Stop::Token {
            out.push(Token { start: 0, class: Class::End, name: 0, property: 0, empty: true, newline_before });
            return;
        }
        let start = gap.pos;
        let bytes: &[u8];
        if t.get(start) == Some(&b'"') {
            let q = scan_quoted(t, start, &mut quoted);
            bytes = quoted.get(..q.len).unwrap_or(&[]);
            p = q.end;
        } else {
            p = token_end(t, start);
            bytes = t.get(start..p.min(start + MAX_TOKEN_LEN)).unwrap_or(&[]);
        }
        let acc = classes(bytes);
        let mut token = Token {
            start: start as u32,
            class: Class::Other,
            name: 0,
            property: 0,
            empty: bytes.is_empty(),
            newline_before,
        };
        if acc & NOT_IDENT == 0 {
            token.class = Class::Name;
            token.name = names.intern_token(bytes, acc & UPPER != 0);
            token.property = property_of(bytes);
        } else {
            token.class = match bytes {
                b"{" => Class::Open,
                b"}" => Class::Close,
                b":" => Class::Colon,
                [b'{' | b'}', ..] => Class::GluedBrace,
                _ => Class::Other,
            };
        }
        out.push(token);
    }
}

/// Property bit of a name token (`loopsync`, `nonloopsync`, `complete`,
/// any case), 0 for other names.
#[inline]
fn property_of(name: &[u8]) -> u8 {
    match name.len() {
        8 if name.eq_ignore_ascii_case(b"loopsync") => PROPERTY_LOOPSYNC as u8,
        8 if name.eq_ignore_ascii_case(b"complete") => PROPERTY_COMPLETE as u8,
        11 if name.eq_ignore_ascii_case(b"nonloopsync") => PROPERTY_NONLOOPSYNC as u8,
        _ => 0,
    }
}

/// One node of the parsed tree.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// The node's name (lowercased).
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
    /// The nodes, the root first.
    pub nodes: Vec<Node>,
    /// Per name: the block it is currently a child of, if that block is
    /// open (the duplicate check only ever asks about the open block).
    owner: Vec<u32>,
    /// Undo log of `owner` writes: (name, previous owner).
    undo: Vec<(NameId, u32)>,
    /// Per name: the parse serial it is referenced in.
    referenced: Vec<u32>,
    serial: u32,
}

impl ParseTree {
    /// An empty tree.
    pub const fn new() -> Self {
        Self { nodes: Vec::new(), owner: Vec::new(), undo: Vec::new(), referenced: Vec::new(), serial: 0 }
    }

    /// Starts a new tree: just the root block; `names` is the size of the
    /// name table.
    pub fn reset(&mut self, root_name: NameId, names: usize) {
        self.nodes.clear();
        self.nodes.push(Node { name: root_name, first_child: NONE, next_sibling: NONE, is_block: true, flags: 0 });
        // A parse abandoned by an error leaves owners behind: wipe them.
        if !self.undo.is_empty() {
            self.owner.clear();
            self.undo.clear();
        }
        if self.owner.len() < names {
            self.owner.resize(names, NONE);
            self.referenced.resize(names, 0);
        }
        self.serial = self.serial.wrapping_add(1);
        if self.serial == 0 {
            self.referenced.iter_mut().for_each(|r| *r = 0);
            self.serial = 1;
        }
    }

    /// Marks `name` as referenced for the parse that was just reset.
    pub fn mark_referenced(&mut self, name: NameId) {
        if let Some(r) = self.referenced.get_mut(name as usize) {
            *r = self.serial;
        }
    }

    fn is_referenced(&self, name: NameId) -> bool {
        self.referenced.get(name as usize) == Some(&self.serial)
    }

    /// Frees the memory of a large tree (the per-name marks stay: the name
    /// table outlives a load).
    pub fn release(&mut self) {
        self.nodes.clear();
        if self.nodes.capacity() > 1 << 16 {
            self.nodes.shrink_to(1 << 16);
        }
    }

    /// Drops the per-name marks (when the name table is emptied).
    pub fn forget_names(&mut self) {
        self.owner = Vec::new();
        self.undo = Vec::new();
        self.referenced = Vec::new();
        self.serial = 0;
    }

    fn node(&self, id: u32) -> Option<&Node> {
        self.nodes.get(id as usize)
    }

    /// True when the open block `parent` has a child named `name`.
    fn has_child(&self, parent: u32, name: NameId) -> bool {
        self.owner.get(name as usize) == Some(&parent)
    }

    /// True when `parent` has no child.
    pub fn is_empty(&self, parent: u32) -> bool {
        self.node(parent).is_none_or(|n| n.first_child == NONE)
    }

    /// Adds a leaf named `name` as the newest child of the open block `parent`.
    fn add_child(&mut self, parent: u32, name: NameId) -> u32 {
        let id = self.nodes.len() as u32;
        let next = self.node(parent).map_or(NONE, |n| n.first_child);
        self.nodes.push(Node { name, first_child: NONE, next_sibling: next, is_block: false, flags: 0 });
        if let Some(p) = self.nodes.get_mut(parent as usize) {
            p.first_child = id;
        }
        if self.owner.len() <= name as usize {
            self.owner.resize(name as usize + 1, NONE);
        }
        let previous = core::mem::replace(&mut self.owner[name as usize], parent);
        self.undo.push((name, previous));
        id
    }

    /// Removes the newest child of the open block `parent`.
    fn remove_newest(&mut self, parent: u32) {
        let Some(head) = self.node(parent).map(|n| n.first_child) else { return };
        let Some(&child) = self.node(head) else { return };
        if let Some(p) = self.nodes.get_mut(parent as usize) {
            p.first_child = child.next_sibling;
        }
        // Its name was the last owner change made in this block.
        if let Some((name, previous)) = self.undo.pop() {
            if let Some(o) = self.owner.get_mut(name as usize) {
                *o = previous;
            }
        }
    }

    /// Closes a block: its names stop being "in the open block".
    fn close(&mut self, undo_mark: usize) {
        while self.undo.len() > undo_mark {
            if let Some((name, previous)) = self.undo.pop() {
                if let Some(o) = self.owner.get_mut(name as usize) {
                    *o = previous;
                }
            }
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
    /// Node of the newest name of this block (`NONE` after a block closed,
    /// or while that name is `missing`).
    anim_node: u32,
    property_flags: u32,
    /// The newest name is not referenced (would be pruned): it is kept
    /// aside in `pending` and only becomes a node if a block follows.
    missing: bool,
    pending: NameId,
    undo_mark: usize,
}

/// What the parser needs to know besides the tokens.
pub struct ParseContext {
    /// `com_animCheck`: keep everything.
    pub anim_check: bool,
    /// Interned `void`.
    pub void_name: NameId,
    /// Interned `void_loop`.
    pub void_loop_name: NameId,
}

/// The token cursor: `Com_Parse` / `Com_ParseOnLine` over a token list.
struct Cursor<'a> {
    tokens: &'a [Token],
    next: usize,
    /// Start of the last token taken (`com_tokenStart`).
    last_pos: u32,
}

const END: Token = Token { start: 0, class: Class::End, name: 0, property: 0, empty: true, newline_before: false };

impl Cursor<'_> {
    /// `Com_Parse`: the next token (`End` at the end of the text).
    fn parse(&mut self) -> Token {
        let token = self.tokens.get(self.next).copied().unwrap_or(END);
        if token.class != Class::End {
            self.next += 1;
            self.last_pos = token.start;
        }
        token
    }

    /// `Com_ParseOnLine`: the next token if no line break comes first
    /// (None for "empty": a line break or the end).
    fn parse_on_line(&mut self) -> Option<Token> {
        let token = self.tokens.get(self.next).copied().unwrap_or(END);
        if token.class == Class::End || token.newline_before {
            return None;
        }
        self.parse();
        Some(token)
    }

    /// A `Com_ParseOnLine` whose result is only tested for emptiness.
    fn on_line_is_empty(&mut self) -> bool {
        self.parse_on_line().is_none_or(|t| t.empty)
    }

    fn error(&self, message: &'static [u8]) -> CompileError {
        CompileError { source_pos: self.last_pos, message }
    }
}

/// `GetAnimTreeParseProperties`: property words to the end of the line.
fn parse_properties(cursor: &mut Cursor<'_>) -> Outcome<u32> {
    let mut flags = 0;
    loop {
        let token = match cursor.parse_on_line() {
            Some(t) if !t.empty => t,
            _ => return Ok(flags),
        };
        if token.class == Class::Name && token.property != 0 {
            flags |= u32::from(token.property);
        } else {
            return Err(cursor.error(b"unknown anim property"));
        }
    }
}

/// Parses `tokens` into `tree` (which must have been reset, with the
/// referenced names marked).  `frames` is scratch storage.
pub fn parse(tokens: &[Token], tree: &mut ParseTree, frames: &mut Vec<Frame>, cx: &ParseContext) -> Outcome<()> {
    let mut cursor = Cursor { tokens, next: 0, last_pos: 0 };
    frames.clear();
    frames.push(Frame {
        parent: 0,
        add_empty_void: true,
        add_looping_void: false,
        force_loaded: false,
        anim_node: NONE,
        property_flags: 0,
        missing: false,
        pending: 0,
        undo_mark: tree.undo.len(),
    });
    loop {
        let Some(frame) = frames.last_mut() else { return Ok(()) };
        let mut token = cursor.parse();
        let mut hit_eof = true;
        if token.class != Class::End {
            if token.class == Class::Name {
                // A pruned name never reaches the tree: the original adds it
                // and removes it again before anything can see it (the next
                // name or the end of the block), unless a block follows.
                let name = token.name;
                // Quirk: an earlier unreferenced leaf of the same name is
                // already gone, so under pruning it is no duplicate.
                if tree.has_child(frame.parent, name) {
                    return Err(cursor.error(b"duplicate animation"));
                }
                frame.missing = !frame.force_loaded && !cx.anim_check && !tree.is_referenced(name);
                if frame.missing {
                    frame.anim_node = NONE;
                    frame.pending = name;
                } else {
                    frame.anim_node = tree.add_child(frame.parent, name);
                }
                frame.property_flags = 0;
                let rest = match cursor.parse_on_line() {
                    Some(t) if !t.empty => t,
                    _ => continue,
                };
                if rest.class == Class::Name {
                    return Err(cursor.error(b"FIXME: aliases not yet implemented"));
                }
                if rest.class != Class::Colon {
                    return Err(cursor.error(b"bad token"));
                }
                frame.property_flags = parse_properties(&mut cursor)?;
                token = cursor.parse();
                if token.class != Class::Open {
                    return Err(cursor.error(b"properties cannot be applied to primitive animations"));
                }
            }
            match token.class {
                Class::Open => {
                    if !cursor.on_line_is_empty() {
                        return Err(cursor.error(b"token not allowed after '{'"));
                    }
                    if frame.anim_node == NONE && !frame.missing {
                        return Err(cursor.error(b"no animation specified for this block"));
                    }
                    let node = if frame.missing { tree.add_child(frame.parent, frame.pending) } else { frame.anim_node };
                    if let Some(n) = tree.nodes.get_mut(node as usize) {
                        n.is_block = true;
                    }
                    let flags = frame.property_flags;
                    let child = Frame {
                        parent: node,
                        add_empty_void: !frame.missing,
                        add_looping_void: flags & PROPERTY_LOOPSYNC != 0,
                        // Quirk: `complete` forces the subtree only when its
                        // own name is referenced (or an ancestor forces it).
                        force_loaded: frame.force_loaded || (flags & PROPERTY_COMPLETE != 0 && !frame.missing),
                        anim_node: NONE,
                        property_flags: 0,
                        missing: false,
                        pending: 0,
                        undo_mark: tree.undo.len(),
                    };
                    frames.push(child);
                    continue;
                }
                Class::Close => {
                    if !cursor.on_line_is_empty() {
                        return Err(cursor.error(b"token not allowed after '}'"));
                    }
                    hit_eof = false;
                }
                _ => return Err(cursor.error(b"bad token")),
            }
        }
        // End of this block (end of text or `}`): the C function's epilogue.
        let frame = *frame;
        // Quirk: a kept block that lost every child (and the root, always)
        // gets one `void` leaf, `void_loop` under loopsync; both need real
        // xanim assets.
        if frame.add_empty_void && tree.is_empty(frame.parent) {
            let name = if frame.add_looping_void { cx.void_loop_name } else { cx.void_name };
            tree.add_child(frame.parent, name);
        }
        tree.close(frame.undo_mark);
        frames.pop();
        let Some(outer) = frames.last_mut() else {
            // The root block: a `}` closing it is a stray brace.
            if !hit_eof {
                return Err(cursor.error(b"bad token"));
            }
            return Ok(());
        };
        if hit_eof {
            return Err(cursor.error(b"unexpected end of file"));
        }
        // Quirk: a block that kept nothing goes; one that kept something
        // stays even when its own name is unreferenced.
        if tree.is_empty(frame.parent) {
            tree.remove_newest(outer.parent);
        } else if let Some(n) = tree.nodes.get_mut(frame.parent as usize) {
            n.flags = outer.property_flags;
        }
        outer.anim_node = NONE;
        outer.missing = false;
    }
}
