" Vim and Neovim highlighting for Call of Duty: United Offensive player
" animation scripts (mp/playeranim.script) and animation trees (*.atr),
" the file type `uoanim` (ftdetect/uoanim.vim). A file whose name ends in
" .atr is a tree, any other a script.
"
" The classes are those of the VS Code grammars
" (editors/vscode/syntaxes/*.tmLanguage.json), each a group linked to a
" standard one. Where a grammar and the engine's parsers differ, the
" parsers are followed: AND, MINUS and NOT are operators in any case, and
" a tree's property words (loopsync, nonloopsync, complete) are those
" after the ':' that follows a name.

if exists('b:current_syntax')
  finish
endif
let s:cpo_save = &cpo
set cpo&vim

syn case ignore
syn sync fromstart

" Both kinds: the engine's comments (Com_Parse), and braces.
syn match uoanimBrace "[{}]"

if expand('%:e') ==? 'atr'
  " The tree: a name at the start of a line (an animation, or a block's
  " name), then optionally ':' and property words to the end of the line.
  syn match uoanimAnimation "^\s*\zs[[:alnum:]_.-]\+" nextgroup=uoanimColon skipwhite
  syn match uoanimColon ":" contained nextgroup=uoanimProperty skipwhite
  syn match uoanimProperty "\<\%(nonloopsync\|loopsync\|complete\)\>" contained nextgroup=uoanimProperty skipwhite
else
  " The script. Later items win where two start at the same column.
  syn match uoanimNumber "\<\d\+\>"
  syn match uoanimSeparator "[,=]"
  syn region uoanimString start=+"+ end=+"+
  syn match uoanimDefault "\<default\>"
  syn match uoanimCondition "\<\%(weapons\|weaponclass\|mounted\|movetype\|underhand\|leaning\|firing\|crouching\|strafing\|vehicle\|vehicle_motion\|weapon_position\)\>"
  syn match uoanimOperator "\<\%(AND\|MINUS\|NOT\)\>"
  " both/torso/legs/turning and the animation it plays
  syn match uoanimBodyPart "\<\%(both\|torso\|legs\|turning\)\ze\s\+[[:alnum:]_.-]" nextgroup=uoanimAnimation skipwhite
  syn match uoanimAnimation "[[:alnum:]_.-]\+" contained
  " sound and the sound alias it plays
  syn match uoanimSound "\<sound\ze\s\+[[:alnum:]_.-]" nextgroup=uoanimSoundName skipwhite
  syn match uoanimSoundName "[[:alnum:]_.-]\+" contained
  " state NAME
  syn match uoanimState "^\s*\zsstate\ze\s\+\w" nextgroup=uoanimStateName skipwhite
  syn match uoanimStateName "\w\+" contained
  " set CONDITION DEFINE
  syn match uoanimSet "^\s*\zsset\ze\s\+\w\+\s\+\w" nextgroup=uoanimSetCondition skipwhite
  syn match uoanimSetCondition "\w\+" contained nextgroup=uoanimDefineName skipwhite
  syn match uoanimDefineName "\w\+" contained
  " the sections, at the start of a line
  syn match uoanimSection "^\s*\zs\%(DEFINES\|ANIMATIONS\|CANNED_ANIMATIONS\|STATECHANGES\|EVENTS\)\>"
endif

syn match uoanimComment "//.*$" contains=@Spell
syn region uoanimComment start="/\*" end="\*/" contains=@Spell

hi def link uoanimComment Comment
hi def link uoanimBrace Delimiter
hi def link uoanimSeparator Delimiter
hi def link uoanimColon Delimiter
hi def link uoanimSection Statement
hi def link uoanimSet Keyword
hi def link uoanimState Keyword
hi def link uoanimSound Keyword
hi def link uoanimDefault Keyword
hi def link uoanimBodyPart Keyword
hi def link uoanimOperator Operator
hi def link uoanimCondition Type
hi def link uoanimSetCondition Type
hi def link uoanimStateName Structure
hi def link uoanimDefineName Constant
hi def link uoanimAnimation Function
hi def link uoanimSoundName String
hi def link uoanimString String
hi def link uoanimNumber Number
hi def link uoanimProperty StorageClass

let b:current_syntax = 'uoanim'
let &cpo = s:cpo_save
unlet s:cpo_save
