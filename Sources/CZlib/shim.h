#ifndef QUAKETUI_CZLIB_SHIM_H
#define QUAKETUI_CZLIB_SHIM_H
#include <zlib.h>

// inflateInit2 is a function-like macro (it passes ZLIB_VERSION and the stream size),
// which Swift cannot import.
static inline int quaketui_inflateInit2(z_streamp strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}
#endif
