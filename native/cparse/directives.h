/* A C file's text with its preprocessor directives alone: every directive
 * byte for byte, of every other line only its line break (directives.c says
 * how clang's lexer is followed). */
#ifndef PK_DIRECTIVES_H
#define PK_DIRECTIVES_H

#include <stdbool.h>
#include <stddef.h>

/* text's directives written to out, which holds size bytes (what is written
 * is never longer than text), and their length to *written; false (out
 * undefined) where the language standard decides how the text lexes (a raw
 * string, a digit separator, a trigraph) or code may save a macro (push_macro). */
bool pk_directives_only(const char *text, size_t size, char *out, size_t *written);

#endif
