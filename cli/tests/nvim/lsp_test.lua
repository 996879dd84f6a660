-- Neovim's built-in LSP client against `uoanim lsp` (headless), started by
-- README.md's init.lua snippet for Neovim 0.7 or later (run.sh):
--   MOD=path/to/mod-copy nvim --headless --clean -u init.lua -c 'luafile cli/tests/nvim/lsp_test.lua'
-- with `uoanim` on the PATH. MOD is a scratch copy of a mod directory (the
-- buffer is edited, not saved).
local mod = os.getenv('MOD')
local passed, failed = 0, 0
local function check(name, ok, detail)
  if ok then passed = passed + 1; print('nvim: ' .. name .. ': ok')
  else failed = failed + 1; print('nvim: ' .. name .. ': FAILED ' .. (detail or '')) end
end
local function finish()
  print(string.format('%d passed, %d failed', passed, failed))
  vim.cmd((failed == 0 and passed > 0) and 'qall!' or 'cquit! 1')
end

-- The snippet: the file type, and a client on the mod directory, attached.
local function attached(buf)
  local clients = vim.tbl_values(vim.lsp.buf_get_clients(buf))
  return #clients == 1 and clients[1] or nil, clients
end
vim.cmd('edit ' .. mod .. '/mp/playeranim.script')
local buf = vim.api.nvim_get_current_buf()
check('the script has the file type uoanim', vim.bo.filetype == 'uoanim', vim.bo.filetype)
-- (a client is listed once it is initialised)
vim.wait(5000, function() return attached(buf) ~= nil end, 20)
local client, all = attached(buf)
check('one client attached to the script', client ~= nil and client.name == 'uoanim'
  and client.config.root_dir == vim.fn.fnamemodify(mod, ':p:h'),
  vim.inspect(vim.tbl_map(function(c) return { c.name, c.config.root_dir } end, all)))
if not client then finish() end
vim.wait(5000, function() return client.initialized end, 20)
check('server starts', client.initialized)

local function errors()
  return vim.tbl_filter(function(d) return d.severity == vim.diagnostic.severity.ERROR end, vim.diagnostic.get(buf))
end
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local target
for i, l in ipairs(lines) do if l == '\t\tweapons rifles' then target = i - 1; break end end
check('the line to edit is there', target ~= nil)
-- Open with an error: the diagnostic arrives.
vim.api.nvim_buf_set_lines(buf, target, target + 1, false, { '\t\tweapons nope_mp' })
vim.wait(5000, function() return #errors() > 0 end, 20)
local e = errors()[1]
check('an error is published', e ~= nil and e.message:find("unknown weapon 'nope_mp'", 1, true) ~= nil and e.lnum == target and e.col == 10,
  vim.inspect(e))
-- Edited away: it clears.
vim.api.nvim_buf_set_lines(buf, target, target + 1, false, { '\t\tweapons rifles' })
vim.wait(5000, function() return #errors() == 0 and #vim.diagnostic.get(buf) > 0 end, 20)
check('the error clears', #errors() == 0, vim.inspect(errors()))

local function req(method, line, col)
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line, character = col } }
  local r = client.request_sync(method, params, 5000, buf)
  return r and r.result
end
local h = req('textDocument/hover', target, 3)
check('hover on a condition key', h ~= nil and h.contents.value:find('condition `weapons`', 1, true) ~= nil, vim.inspect(h))
local d = req('textDocument/definition', target, 12)
check('definition of a define', d ~= nil and d.range.start.line == 3 and d.uri == vim.uri_from_bufnr(buf), vim.inspect(d))
local pline
for i, l in ipairs(lines) do if l:find('both pb_pistol_idle', 1, true) then pline = i - 1; break end end
d = req('textDocument/definition', pline, 8)
check('definition of an animation in its tree', d ~= nil and d.uri:find('animtrees/multiplayer.atr', 1, true) ~= nil and d.range.start.line == 15, vim.inspect(d))
local function labels_at(line, col)
  local c = req('textDocument/completion', line, col)
  local labels = {}
  for _, it in ipairs(c or {}) do labels[it.label] = true end
  return labels
end
local function line_of(text)
  for i, l in ipairs(lines) do if l == text then return i - 1 end end
end
-- In a 'weapons' condition: the weapons and the weapons defines.
local labels = labels_at(target, 10)
check('completion of weapons and defines after weapons', labels['kar98k_mp'] and labels['rifles'] and labels['pistols']
  and not labels['moving'] and not labels['combat'], vim.inspect(vim.tbl_keys(labels)))
-- Elsewhere: states, move types, sections.
local empty = line_of('')
labels = labels_at(empty, 0)
check('completion has states, move types, sections', labels['combat'] and labels['walk'] and labels['animations'], vim.inspect(empty))
-- After 'both': the tree's animation names.
local run = line_of('\t\t\tboth pb_rifle_run blendtime 150')
labels = labels_at(run, 10)
check('completion of a tree animation name', labels['pb_rifle_run'] and labels['pb_pistol_idle'] and not labels['kar98k_mp'],
  vim.inspect(vim.tbl_keys(labels)))
-- Hover on a condition value.
local strafe = line_of('\t\tweapons rifles, strafing left')
h = req('textDocument/hover', strafe, 27)
check('hover on a condition value', h ~= nil and h.contents.value:find('`left`: a value of condition `strafing`', 1, true) ~= nil,
  vim.inspect(h))
-- Hover on a quirk warning: its explanation from docs/CHECK.md.
local none = line_of('\t\tmovetype none')
h = req('textDocument/hover', none, 12)
check('hover on a quirk warning', h ~= nil and h.contents.value:find('`none-bit0`', 1, true) ~= nil
  and h.contents.value:find('it does not mean "no value"', 1, true) ~= nil, vim.inspect(h))
-- The outline, references and rename (vim.lsp.buf_request_sync).
local uri = vim.uri_from_bufnr(buf)
local function sync(method, params)
  local r = vim.lsp.buf_request_sync(buf, method, params, 5000)
  return r and r[client.id] and r[client.id].result
end
local syms = sync('textDocument/documentSymbol', { textDocument = { uri = uri } })
check('a nested outline', syms ~= nil and syms[2].name == 'ANIMATIONS' and syms[2].children[1].name == 'COMBAT'
  and syms[2].children[1].children[1].name == 'idle' and syms[2].children[1].children[1].children[1].name == 'weapons rifles',
  vim.inspect(syms))
local at = { textDocument = { uri = uri }, position = { line = target, character = 12 } }
local refs = sync('textDocument/references', vim.tbl_extend('force', at, { context = { includeDeclaration = true } }))
check('references of a define', refs ~= nil and #refs == 5, vim.inspect(refs))
local edit = sync('textDocument/rename', vim.tbl_extend('force', at, { newName = 'long_guns' }))
check('rename of a define', edit ~= nil and edit.changes ~= nil and #edit.changes[uri] == 5
  and edit.changes[uri][1].newText == 'long_guns', vim.inspect(edit))
-- Workspace symbols, inlay hints and semantic tokens, asked for by method.
local found = sync('workspace/symbol', { query = 'pist' })
local names = {}
for _, x in ipairs(found or {}) do names[x.name] = x.location.uri end
check('workspace symbols of the script and its tree', names['pistols'] == uri and names['pb_pistol_idle'] ~= nil
  and names['pb_pistol_idle']:find('animtrees/multiplayer.atr', 1, true) ~= nil, vim.inspect(found))
local hints = sync('textDocument/inlayHint', { textDocument = { uri = uri },
  range = { start = { line = target, character = 0 }, ['end'] = { line = target + 1, character = 0 } } })
check('an inlay hint of a define', hints ~= nil and #hints == 1 and hints[1].label == ': kar98k_mp | enfield_mp'
  and hints[1].position.character == 16, vim.inspect(hints))
local tokens = sync('textDocument/semanticTokens/full', { textDocument = { uri = uri } })
check('semantic tokens', tokens ~= nil and tokens.data ~= nil and #tokens.data > 0 and #tokens.data % 5 == 0
  and tokens.data[1] == 0 and tokens.data[2] == 0 and tokens.data[3] == #lines[1], vim.inspect(tokens and tokens.data))

-- The mod's tree: the same file type, the same client.
vim.cmd('edit ' .. mod .. '/animtrees/multiplayer.atr')
local tree = vim.api.nvim_get_current_buf()
vim.wait(5000, function() return attached(tree) ~= nil end, 20)
local tree_client = attached(tree)
check('the tree has the file type uoanim and the same client', vim.bo.filetype == 'uoanim'
  and tree_client ~= nil and tree_client.id == client.id, vim.bo.filetype)
-- An animation the tree does not have: an error in the script.
local stand = line_of('\t\t\tboth pb_stand_idle')
vim.api.nvim_buf_set_lines(buf, stand, stand + 1, false, { '\t\t\tboth pb_crouch_idle' })
local function missing()
  for _, x in ipairs(errors()) do
    if x.message:find("'pb_crouch_idle' not defined", 1, true) then return true end
  end
  return false
end
vim.wait(5000, missing, 20)
check('an animation missing from the tree', missing(), vim.inspect(errors()))
-- The animation added in the tree's buffer, not saved: the script is
-- checked again, its error clears.
local tbuf = tree
local never
for i, l in ipairs(vim.api.nvim_buf_get_lines(tbuf, 0, -1, false)) do if l == '\tpb_never' then never = i; break end end
check('the tree line to edit is there', never ~= nil)
vim.api.nvim_buf_set_lines(tbuf, never, never, false, { '\tpb_crouch_idle' })
vim.wait(5000, function() return not missing() end, 20)
check('an edit of the open tree checks the script again', not missing(), vim.inspect(errors()))
finish()
