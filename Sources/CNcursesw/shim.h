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
// Mouse masks are built by function-like macros (NCURSES_MOUSE_MASK).
static inline mmask_t quaketui_BUTTON1_PRESSED(void) { return BUTTON1_PRESSED; }
static inline mmask_t quaketui_BUTTON1_CLICKED(void) { return BUTTON1_CLICKED; }
static inline mmask_t quaketui_BUTTON4_PRESSED(void) { return BUTTON4_PRESSED; }
static inline mmask_t quaketui_BUTTON5_PRESSED(void) { return BUTTON5_PRESSED; }
// KEY_F(n) is a function-like macro.
static inline int quaketui_KEY_F(int n) { return KEY_F(n); }
// COLOR_PAIR(n) is a function-like macro; used only to check the pair limit.
static inline WINDOW *quaketui_curscr(void) { return curscr; }
// Whether the terminal has an alternate screen to leave (terminfo `rmcup`): a vt100 has none,
// and what was drawn stays on the screen after `endwin`. (-1: not a string capability.)
static inline int quaketui_has_rmcup(void) {
    char *value = tigetstr("rmcup");
    return value != NULL && value != (char *)-1 && value[0] != 0;
}
#endif
