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
# It then
#   * removes the C files the unit replaces from the source lists named in
#     UOANIM_SOURCE_VARS (defaults below, after the engine's variables), and
#   * appends the unit's archive to the link variables named in
#     UOANIM_LINK_VARS (default SHARED_LIBS, the library list of the module
#     links); a unit needs nothing else (no -lpthread, -ldl, -lm).
#
# The engine and client units also define three functions of
# src/scripting/script_compile_load.c and six data symbols of the binary's
# script-state storage: those definitions must leave the engine's sources
# first (README.md, "Linking into the engine").

UOANIM_UNIT ?= game
UOANIM_ARCH ?= x86_64
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
else ifeq ($(UOANIM_UNIT),cgame)
UOANIM_REPLACED := $(UOANIM_PLAYERANIM_REPLACED)
UOANIM_SOURCE_VARS ?= LAYOUT_BG_C_SOURCES CLIENT_SHARED_BG_C_SOURCES
else ifneq ($(filter engine client,$(UOANIM_UNIT)),)
UOANIM_REPLACED := $(UOANIM_ANIMTREE_REPLACED)
UOANIM_SOURCE_VARS ?= LAYOUT_ANIMATION_C_SOURCES LAYOUT_SCRIPT_C_SOURCES
else
$(error uoanim.mk: UOANIM_UNIT must be game, game_windows, cgame, engine or client, not '$(UOANIM_UNIT)')
endif
UOANIM_LINK_VARS ?= SHARED_LIBS

$(foreach v,$(UOANIM_SOURCE_VARS),$(eval $(v) := $(filter-out $(UOANIM_REPLACED),$($(v)))))
$(foreach v,$(UOANIM_LINK_VARS),$(eval $(v) += $(UOANIM_LIB)))
