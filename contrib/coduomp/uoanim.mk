# uoanim.mk -- puts a uoanim link unit into one of the engine's build-mk files.
#
# In the build-mk file of an engine binary, set the unit and include this file
# after the lines that copy the source lists (e.g. `BG_SRCS :=
# $(LAYOUT_BG_C_SOURCES)` in build-mk/game.mk) and before the object lists
# are computed from them:
#
#   UOANIM_UNIT := game                  # game | game_windows | cgame | engine | client
#
# game is the game module with the Linux behaviour (the server rules);
# game_windows the game module the client packages build with
# CODUO_BEHAVIOR=windows, and every x86_64 Windows game module (game.mk's
# windows-x86_64 rule passes -DWINDOWS_BEHAVIOR).
#   UOANIM_LIBDIR := /path/to/uoanim/dist/x86_64   # or an install's lib dir
#   include /path/to/uoanim/contrib/coduomp/uoanim.mk
#
# (UOANIM_ARCH, which names the directory of dist/ when UOANIM_LIBDIR is not
# set, defaults to darwin-arm64 on an arm64 Mac, else x86_64.) A build file
# that links two units (build-mk/client-targets.mk: the client-game module
# and, on macOS, the native client) includes this file twice, each time
# after setting UOANIM_UNIT: the file forgets UOANIM_UNIT,
# UOANIM_SOURCE_VARS and UOANIM_LINK_VARS at its end.
#
# It then
#   * removes the C files the unit replaces from the source lists named in
#     UOANIM_SOURCE_VARS (defaults below, after the engine's variables), and
#   * appends the unit's archive to the variables named in UOANIM_LINK_VARS,
#     by default those each build file links with:
#       game    SHARED_LIBS (build-mk/game.mk's shared-library links) and
#               WINDOWS_LIBS (its Windows rules)
#       cgame   CLIENT_SHARED_BG_C_SOURCES: build-mk/client-targets.mk's cgame
#               rules compile and link in one command with no library
#               variable, so the archive goes into that command with the
#               sources, after them
#       engine  ENGINE_IMPORT_LIBS, EXE_I386_LIBS, WINDOWS_COMMON_LIBS
#               (build-mk/server.mk; ENGINE_IMPORT_LIBS is also the
#               native-macos-exe link's)
#       client  MINGW32_LIBS, LDLIBS (build-mk/client-engine-mingw.mk) and
#               CODUOMP_NATIVE_PLATFORM_LIBS (build-mk/client-targets.mk's
#               native client link, coduomp-native-link: include this file
#               there after that variable and before CODUOMP_NATIVE_C_OBJECTS;
#               its sources are SHARED_ANIMATION_C_SOURCES and
#               SHARED_SCRIPT_C_SOURCES)
#     macOS arm64 (dist/darwin-arm64, Mach-O): the game module's
#     native64-shared link takes SHARED_LIBS (unit game_windows: the
#     top-level client-game target builds it with CODUO_BEHAVIOR=windows),
#     client-native-link the cgame's one-command sources, native-macos-exe
#     ENGINE_IMPORT_LIBS, coduomp-native-link CODUOMP_NATIVE_PLATFORM_LIBS.
#     Include this file after those variables are set (a `?=` after it would
#     no longer apply). A unit needs nothing else (no -lpthread, -ldl, -lm).
#
# Nothing else of the engine's sources changes: the engine and client units
# import the engine's script-state storage and call into the engine's
# Scr_BeginLoadAnimTrees / Scr_PrecacheAnimTrees / Scr_EndLoadAnimTrees,
# which stay (docs/LINKING.md, "What the kept files do").

UOANIM_UNIT ?= game
uoanim_host := $(shell uname -s)-$(shell uname -m)
UOANIM_ARCH ?= $(if $(filter Darwin-arm64,$(uoanim_host)),darwin-arm64,x86_64)
uoanim_mk_dir := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
UOANIM_DIR ?= $(abspath $(uoanim_mk_dir)/../..)
UOANIM_LIBDIR ?= $(UOANIM_DIR)/dist/$(UOANIM_ARCH)
UOANIM_LIB := $(UOANIM_LIBDIR)/libuoanim_$(UOANIM_UNIT).a

# The files each unit replaces (README.md has the files that stay).
UOANIM_PLAYERANIM_REPLACED := $(addprefix src/bg/, \
	bg_animation_conditions.c bg_animation_errors.c bg_animation_execution.c \
	bg_animation_finalize.c bg_animation_lookup.c bg_animation_script_data.c \
	bg_animation_script_parser.c bg_animation_tree_lookup.c \
	bg_parse_commands.c bg_parse_condition_bits.c bg_parse_conditions.c \
	bg_init_weapon_strings.c bg_setup_anim_note_types.c bg_load_anim_for_index.c \
	bg_animation_stance.c bg_animation_player_conditions.c \
	bg_animation_controller_lerp.c bg_animation_slots.c)
UOANIM_ANIMTREE_REPLACED := src/scripting/script_anim_runtime.c \
	src/animation/xanim_tree.c src/animation/xanim_tree_queries.c

ifneq ($(filter game game_windows,$(UOANIM_UNIT)),)
UOANIM_REPLACED := $(UOANIM_PLAYERANIM_REPLACED)
UOANIM_SOURCE_VARS ?= LAYOUT_BG_C_SOURCES BG_SRCS
UOANIM_LINK_VARS ?= SHARED_LIBS WINDOWS_LIBS
else ifeq ($(UOANIM_UNIT),cgame)
UOANIM_REPLACED := $(UOANIM_PLAYERANIM_REPLACED)
UOANIM_SOURCE_VARS ?= LAYOUT_BG_C_SOURCES CLIENT_SHARED_BG_C_SOURCES
UOANIM_LINK_VARS ?= CLIENT_SHARED_BG_C_SOURCES
else ifeq ($(UOANIM_UNIT),engine)
UOANIM_REPLACED := $(UOANIM_ANIMTREE_REPLACED)
UOANIM_SOURCE_VARS ?= LAYOUT_ANIMATION_C_SOURCES LAYOUT_SCRIPT_C_SOURCES
UOANIM_LINK_VARS ?= ENGINE_IMPORT_LIBS EXE_I386_LIBS WINDOWS_COMMON_LIBS
else ifeq ($(UOANIM_UNIT),client)
UOANIM_REPLACED := $(UOANIM_ANIMTREE_REPLACED)
UOANIM_SOURCE_VARS ?= LAYOUT_ANIMATION_C_SOURCES LAYOUT_SCRIPT_C_SOURCES SHARED_ANIMATION_C_SOURCES SHARED_SCRIPT_C_SOURCES
UOANIM_LINK_VARS ?= MINGW32_LIBS LDLIBS CODUOMP_NATIVE_PLATFORM_LIBS
else
$(error uoanim.mk: UOANIM_UNIT must be game, game_windows, cgame, engine or client, not '$(UOANIM_UNIT)')
endif

$(foreach v,$(UOANIM_SOURCE_VARS),$(eval $(v) := $(filter-out $(UOANIM_REPLACED),$($(v)))))
$(foreach v,$(UOANIM_LINK_VARS),$(eval $(v) += $(UOANIM_LIB)))
# forgotten, for a second inclusion with another unit
undefine UOANIM_UNIT
undefine UOANIM_SOURCE_VARS
undefine UOANIM_LINK_VARS
