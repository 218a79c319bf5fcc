#include <sqlite3.h>
// SQLITE_TRANSIENT is a macro over a cast Swift can't import.
static inline void (*csqlite_transient(void))(void *) { return SQLITE_TRANSIENT; }
