#ifndef QUAKETUI_CNCURSESW_SHIM_H
#define QUAKETUI_CNCURSESW_SHIM_H
// Wide-character ncurses: these two must be defined before the header so that get_wch,
// cchar_t, setcchar and add_wch are declared.
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

// Attribute and colour macros expand to bit arithmetic Swift cannot import.
static inline attr_t quaketui_A_NORMAL(void) { return A_NORMAL; }
static inline attr_t quaketui_A_BOLD(void) { return A_BOLD; }
static inline attr_t quaketui_A_DIM(void) { return A_DIM; }
static inline attr_t quaketui_A_REVERSE(void) { return A_REVERSE; }
static inline attr_t quaketui_A_UNDERLINE(void) { return A_UNDERLINE; }
static inline int quaketui_COLOR_PAIRS(void) { return COLOR_PAIRS; }
static inline int quaketui_COLORS(void) { return COLORS; }
static inline int quaketui_LINES(void) { return LINES; }
static inline int quaketui_COLS(void) { return COLS; }
static inline WINDOW *quaketui_stdscr(void) { return stdscr; }
// getmaxyx is a function-like macro that assigns to its arguments.
static inline void quaketui_getmaxyx(WINDOW *win, int *y, int *x) { getmaxyx(win, *y, *x); }
#endif
