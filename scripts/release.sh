#!/usr/bin/env bash
# release.sh KIND ARCHIVE VERSION TOOL VSIX — one release archive of the
# uoanim tool (make release):
#   KIND windows: ARCHIVE is a .zip holding uoanim.exe (TOOL);
#   KIND linux:   ARCHIVE is a .tar.gz holding uoanim (TOOL);
# both also hold the VS Code extension (VSIX, as uoanim.vsix), the Vim and
# Neovim files (editors/vim's ftdetect/ and syntax/, as vim/) and a
# README.txt, under one directory named as the archive without its
# extension. The archive is the same bytes for the same inputs: names
# sorted, one time stamp (SOURCE_DATE_EPOCH, default: the last commit's
# time), owner 0, modes 755 and 644.
set -euo pipefail
kind=$1 archive=$2 version=$3 tool=$4 vsix=$5
root=$(cd "$(dirname "$0")/.." && pwd)
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]] || { echo "release: '$version' is not a version" >&2; exit 1; }
case "$kind" in
  windows) exe=uoanim.exe suffix=.zip system=Windows ;;
  linux) exe=uoanim suffix=.tar.gz system=Linux ;;
  *) echo "release: unknown kind '$kind' (windows, linux)" >&2; exit 1 ;;
esac
[[ $archive == *"$suffix" ]] || { echo "release: a $kind archive ends in $suffix: $archive" >&2; exit 1; }
for f in "$tool" "$vsix" "$root/editors/vim/ftdetect/uoanim.vim" "$root/editors/vim/syntax/uoanim.vim"; do
  [ -f "$f" ] || { echo "release: no $f" >&2; exit 1; }
done
# the newest GNU C library symbol version the Linux tool needs
if [ "$kind" = linux ]; then
  glibc=$(objdump -T "$tool" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
  glibc=${glibc#GLIBC_}
  [ -n "$glibc" ] || { echo "release: $tool needs no GNU C library version?" >&2; exit 1; }
fi
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 315532800)}

name=$(basename "$archive" "$suffix")
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
dir=$stage/$name
mkdir -p "$dir/vim/ftdetect" "$dir/vim/syntax"
cp "$tool" "$dir/$exe"
chmod 755 "$dir/$exe"
cp "$vsix" "$dir/uoanim.vsix"
cp "$root/editors/vim/ftdetect/uoanim.vim" "$dir/vim/ftdetect/"
cp "$root/editors/vim/syntax/uoanim.vim" "$dir/vim/syntax/"

# README.txt: what is here, what it needs, how to install it (with
# README.md's init.lua snippet for Neovim 0.7 or later), how to use it.
{
  echo "uoanim $version for $system, x86_64"
  cat <<'TEXT'

uoanim checks and explains the player animation scripts
(mp/playeranim.script) and animation trees (animtrees/*.atr) of
Call of Duty: United Offensive mods, and is their language server.

In this archive
TEXT
  printf '  %-13s %s\n' \
    "$exe" "the tool: uoanim check, uoanim explain, uoanim lsp" \
    uoanim.vsix "the VS Code extension: highlighting, and diagnostics," \
    "" "hover, go to definition and completion from uoanim lsp" \
    vim/ "Vim and Neovim files: file type detection, highlighting" \
    README.txt "this file"
  echo
  if [ "$kind" = windows ]; then
    cat <<'TEXT'
Requirements
  Windows 10 or later, 64-bit. uoanim.exe calls ProcessPrng of
  bcryptprimitives.dll, which came with Windows 10: on older Windows it
  does not start (Rust's standard library needs Windows 10 or later).

Install
  1. Copy uoanim.exe into a folder, e.g. C:\Tools\uoanim, and add that
     folder to the PATH: Start, "Edit environment variables for your
     account", Path, Edit, New. In a new terminal, uoanim --version
     answers with its version.
  2. VS Code: code --install-extension uoanim.vsix (or, in the
     Extensions view, "...", "Install from VSIX..."), then open the
     mod's folder. When uoanim.exe is not on the PATH, set the setting
     uoanim.path to its full path.
  3. Vim or Neovim: copy ftdetect\ and syntax\ of vim\ into
     %USERPROFILE%\vimfiles\ (Vim) or %LOCALAPPDATA%\nvim\ (Neovim).
TEXT
  else
    cat <<TEXT
Requirements
  Linux, x86_64, with the GNU C library $glibc or later.
TEXT
    cat <<'TEXT'

Install
  1. Copy uoanim into a directory on the PATH, e.g.
       install -m 755 uoanim ~/.local/bin/
     uoanim --version answers with its version.
  2. VS Code: code --install-extension uoanim.vsix, then open the mod's
     folder. When uoanim is not on the PATH, set the setting uoanim.path
     to its full path.
  3. Vim or Neovim: copy ftdetect/ and syntax/ of vim/ into ~/.vim/
     (Vim) or ~/.config/nvim/ (Neovim):
       cp -r vim/ftdetect vim/syntax ~/.config/nvim/
TEXT
  fi
  cat <<'TEXT'
  4. Neovim's language client, in init.lua (Neovim 0.7 or later, uoanim
     on the PATH):

TEXT
  "$root/scripts/readme-snippet.sh" 'for Neovim 0.7 or later' | sed 's/^/       /'
  cat <<'TEXT'

     Any other LSP client: the command "uoanim lsp" (stdio) for these
     files, the mod directory (the one holding mp/ and animtrees/) as
     the workspace.

Use
  uoanim check MOD      every error and warning of the mod directory MOD
  uoanim check MOD --game GAME
                        the same over the game's folder GAME (main/, uo/)
  uoanim explain MOD --state combat --movetype run --weapon kar98k_mp
  uoanim --help
TEXT
} >"$dir/README.txt"
if [ "$kind" = windows ]; then sed -i 's/$/\r/' "$dir/README.txt"; fi

mkdir -p "$(dirname "$archive")"
python3 - "$kind" "$stage" "$name" "$archive.tmp" "$epoch" <<'PYTHON'
import gzip, os, stat, sys, tarfile, time, zipfile
kind, stage, name, out, epoch = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
entries = []  # (name in the archive, path, is a directory), sorted by name
for top, dirs, files in os.walk(os.path.join(stage, name)):
    rel = os.path.relpath(top, stage).replace(os.sep, "/")
    entries.append((rel + "/", top, True))
    entries += [(rel + "/" + f, os.path.join(top, f), False) for f in files]
entries.sort()
def mode(path, is_dir):
    return 0o755 if is_dir or os.stat(path).st_mode & stat.S_IXUSR else 0o644
if kind == "windows":
    stamp = time.gmtime(max(epoch, 315532800))[:6]  # a zip's times start in 1980
    with zipfile.ZipFile(out, "w") as z:
        for arcname, path, is_dir in entries:
            info = zipfile.ZipInfo(arcname, stamp)
            info.create_system = 3  # the modes are Unix modes
            if is_dir:
                info.external_attr = (stat.S_IFDIR | 0o755) << 16 | 0x10
                z.writestr(info, b"")
            else:
                info.external_attr = (stat.S_IFREG | mode(path, False)) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                with open(path, "rb") as f:
                    z.writestr(info, f.read(), compresslevel=9)
else:
    with open(out, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=epoch) as gz, \
            tarfile.open(fileobj=gz, mode="w", format=tarfile.GNU_FORMAT) as t:
        for arcname, path, is_dir in entries:
            info = t.gettarinfo(path, arcname.rstrip("/"))
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mtime = epoch
            info.mode = mode(path, is_dir)
            if is_dir:
                t.addfile(info)
            else:
                with open(path, "rb") as f:
                    t.addfile(info, f)
PYTHON
mv "$archive.tmp" "$archive"
echo "release: $archive ($(wc -c <"$archive") bytes)"
