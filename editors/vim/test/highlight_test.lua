-- The Vim files of editors/vim in headless Neovim (run.sh starts it with
-- -u NONE, editors/vim first on the runtimepath, `filetype on` and
-- `syntax on`): the file type of each kind of file, and the syntax group
-- and the standard group it links to at given places of the samples
-- under mod/. One line per check, then "N passed, M failed".
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local passed, failed = 0, 0
local function check(name, ok, detail)
  if ok then
    passed = passed + 1
    print('vim: ' .. name .. ': ok')
  else
    failed = failed + 1
    print('vim: ' .. name .. ': FAILED ' .. (detail or ''))
  end
end

-- The group a syntax group links to ('' when it links to none).
local function link_of(group)
  return vim.fn.execute('highlight ' .. group):match('links to (%w+)') or ''
end

-- At line `lnum`, the `nth` occurrence (default 1) of `text`: every
-- character of it is in syntax group `item` (linked to `link`), or, with
-- item '', in none.
local function at(lnum, text, item, link, nth)
  local line = vim.fn.getline(lnum)
  local col = 0
  for _ = 1, nth or 1 do
    col = line:find(text, col + 1, true)
    if not col then break end
  end
  local name = string.format('%s:%d: %q', vim.fn.expand('%:t'), lnum, text)
  if not col then
    check(name, false, 'not on the line: ' .. line)
    return
  end
  for c = col, col + #text - 1 do
    local got = vim.fn.synIDattr(vim.fn.synID(lnum, c, 1), 'name')
    if got ~= item then
      check(name .. ' is ' .. (item == '' and 'plain' or item), false, string.format('column %d is %q', c, got))
      return
    end
  end
  if item == '' then
    check(name .. ' is plain', true)
  else
    local l = link_of(item)
    check(name .. ' is ' .. item .. ' -> ' .. link, l == link, 'links to ' .. l)
  end
end

local function open(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  return vim.bo.filetype
end

-- File types: the script under mp/, any .atr; nothing else.
local ft = open(here .. '/mod/animtrees/sample.atr')
check('animtrees/sample.atr has the file type uoanim', ft == 'uoanim', 'filetype ' .. ft)
at(1, '// The tree of the highlighting test.', 'uoanimComment', 'Comment')
at(2, 'main', 'uoanimAnimation', 'Function')
at(3, '{', 'uoanimBrace', 'Delimiter')
at(4, 'pb_stand_idle', 'uoanimAnimation', 'Function')
at(5, 'idles', 'uoanimAnimation', 'Function')
at(5, ':', 'uoanimColon', 'Delimiter')
at(5, 'loopsync', 'uoanimProperty', 'StorageClass')
at(5, 'complete', 'uoanimProperty', 'StorageClass')
at(7, 'pb_idle_1', 'uoanimAnimation', 'Function')
at(8, '/* a block comment */', 'uoanimComment', 'Comment')
at(9, 'pb_idle_2', 'uoanimAnimation', 'Function')
at(11, 'NonLoopSync', 'uoanimProperty', 'StorageClass')
at(14, '}', 'uoanimBrace', 'Delimiter')

ft = open(here .. '/mod/mp/playeranim.script')
check('mp/playeranim.script has the file type uoanim', ft == 'uoanim', 'filetype ' .. ft)
at(1, '// Every class of the highlighting', 'uoanimComment', 'Comment')
at(2, 'DEFINES', 'uoanimSection', 'Statement')
at(4, 'set', 'uoanimSet', 'Keyword')
at(4, 'weapons', 'uoanimSetCondition', 'Type')
at(4, 'rifles', 'uoanimDefineName', 'Constant')
at(4, '=', 'uoanimSeparator', 'Delimiter')
at(4, 'kar98k_mp', '', '')
at(4, 'AND', 'uoanimOperator', 'Operator')
at(5, 'movetype', 'uoanimSetCondition', 'Type')
at(5, 'moving', 'uoanimDefineName', 'Constant')
at(5, 'and', 'uoanimOperator', 'Operator')
at(5, 'MINUS', 'uoanimOperator', 'Operator')
at(5, 'NOT', 'uoanimOperator', 'Operator')
at(7, '/* a block comment', 'uoanimComment', 'Comment')
at(8, 'over two lines: both pb_never */', 'uoanimComment', 'Comment')
at(9, 'animations', 'uoanimSection', 'Statement')
at(11, 'state', 'uoanimState', 'Keyword')
at(11, 'COMBAT', 'uoanimStateName', 'Structure')
at(12, '{', 'uoanimBrace', 'Delimiter')
at(13, 'idle', '', '')
at(15, 'weapons', 'uoanimCondition', 'Type')
at(15, 'rifles', '', '')
at(15, ',', 'uoanimSeparator', 'Delimiter')
at(15, 'strafing', 'uoanimCondition', 'Type')
at(17, 'legs', 'uoanimBodyPart', 'Keyword')
at(17, 'pl_run_left', 'uoanimAnimation', 'Function')
at(17, 'duration', '', '')
at(17, '700', 'uoanimNumber', 'Number')
at(17, 'torso', 'uoanimBodyPart', 'Keyword')
at(17, 'pt_rifle_run', 'uoanimAnimation', 'Function')
at(19, 'default', 'uoanimDefault', 'Keyword')
at(21, 'both', 'uoanimBodyPart', 'Keyword')
at(21, 'pb_stand_idle', 'uoanimAnimation', 'Function')
at(21, '150', 'uoanimNumber', 'Number')
at(26, 'Events', 'uoanimSection', 'Statement')
at(28, 'fireweapon', '', '')
at(30, 'weaponclass', 'uoanimCondition', 'Type')
at(32, 'sound', 'uoanimSound', 'Keyword')
at(32, 'rifle_fire.WAV', 'uoanimSoundName', 'String')
at(34, 'movetype', 'uoanimCondition', 'Type')
at(34, '"quoted word"', 'uoanimString', 'String')
at(36, 'pb_never', 'uoanimAnimation', 'Function')
at(36, '// after a name', 'uoanimComment', 'Comment')

-- Not the tool's files: a .script elsewhere, playeranim.script outside mp/.
ft = open(here .. '/mod/mp/other.script')
check('mp/other.script has no uoanim file type', ft ~= 'uoanim', 'filetype ' .. ft)
ft = open(here .. '/mod/playeranim.script')
check('playeranim.script outside mp/ has no uoanim file type', ft ~= 'uoanim', 'filetype ' .. ft)

print(string.format('%d passed, %d failed', passed, failed))
vim.cmd((failed == 0 and passed > 0) and 'qall!' or 'cquit! 1')
