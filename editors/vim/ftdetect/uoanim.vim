" Vim and Neovim file type detection for Call of Duty: United Offensive
" player animation scripts (mp/playeranim.script) and animation trees
" (*.atr): both are the file type `uoanim` (syntax/uoanim.vim tells them
" apart by the name). A '/' in the pattern also matches '\' on Windows.
autocmd BufRead,BufNewFile */mp/playeranim.script setfiletype uoanim
autocmd BufRead,BufNewFile *.atr setfiletype uoanim
