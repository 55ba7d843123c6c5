#ifndef SC_SHELLWORDS_H
#define SC_SHELLWORDS_H

/*
 * A POSIX shell lexer for judging command lines, not for running them.
 *
 * sc_sw_parse() cuts a shell line into simple commands (the parts between
 * ; && || | & newlines, parentheses and braces), each with its leading
 * assignments, its words with quotes removed, and its redirections.  It
 * never expands anything: a word whose value depends on the shell's state
 * ($VAR, globs, ~, brace expansion) carries a flag saying so, and the text
 * of every command substitution, process substitution, backtick and
 * expanding heredoc is collected in `subs` so the caller judges it as well.
 *
 * The lexer errs towards showing more: reserved words are dropped, so the
 * commands inside if/while/for bodies become parts of their own; constructs
 * it does not model (case, [[ ]], (( )), functions, {fd}> redirections) set
 * SC_SWL_OPAQUE and their words still become parts.  A line a shell would
 * reject (an unterminated quote, a missing heredoc delimiter, unbalanced
 * parentheses) is a syntax error.
 */

#include <stddef.h>

enum sc_sw_word_flag {
	SC_SW_QUOTED = 1 << 0,   /* part of the word was quoted or escaped */
	SC_SW_EXPAND = 1 << 1,   /* $name, ${...}, $((...)): value unknown */
	SC_SW_SUBST = 1 << 2,    /* $(...), `...`, <(...), >(...) */
	SC_SW_GLOB = 1 << 3,     /* unquoted * ? [ or braces: may expand */
	SC_SW_TILDE = 1 << 4,    /* unquoted leading ~ */
	SC_SW_CTRL = 1 << 5,     /* a control other than tab and newline */
	SC_SW_NONASCII = 1 << 6, /* a byte >= 0x80 (lookalikes, zero width) */
};

/* Flags that make a word's value unknown before the shell runs. */
#define SC_SW_UNRESOLVED (SC_SW_EXPAND | SC_SW_SUBST | SC_SW_GLOB | SC_SW_TILDE)

struct sc_sw_word {
	char *s;          /* the word with quotes removed; NUL-terminated */
	size_t len;       /* may be less than strlen when $'\0' was used */
	unsigned flags;
};

enum sc_sw_redir_op {
	SC_RD_IN,         /* <   */
	SC_RD_OUT,        /* >   */
	SC_RD_APPEND,     /* >>  */
	SC_RD_CLOBBER,    /* >|  */
	SC_RD_RDWR,       /* <>  */
	SC_RD_DUP_IN,     /* <&  */
	SC_RD_DUP_OUT,    /* >&  (a word that is not a number: a file) */
	SC_RD_OUT_ERR,    /* &>  */
	SC_RD_APPEND_ERR, /* &>> */
	SC_RD_HEREDOC,    /* << and <<- */
	SC_RD_HERESTR,    /* <<< */
};

struct sc_sw_redir {
	enum sc_sw_redir_op op;
	int fd;           /* the explicit descriptor, or -1 */
	struct sc_sw_word target; /* file, descriptor or heredoc delimiter */
};

enum sc_sw_cmd_flag {
	SC_SWC_BACKGROUND = 1 << 0,   /* ended by & */
	SC_SWC_HEREDOC = 1 << 1,      /* has a heredoc (body in `heredoc`) */
	SC_SWC_HEREDOC_EXPAND = 1 << 2, /* a heredoc with an unquoted delimiter */
	SC_SWC_PIPE = 1 << 3,         /* ended by | or |&: feeds the next */
};

struct sc_sw_cmd {
	struct sc_sw_word *assigns;   /* NAME=VALUE before the command */
	size_t nr_assigns, alloc_assigns;
	struct sc_sw_word *words;     /* the command and its arguments */
	size_t nr_words, alloc_words;
	struct sc_sw_redir *redirs;
	size_t nr_redirs, alloc_redirs;
	char *heredoc;                /* heredoc bodies, concatenated */
	unsigned flags;
};

enum sc_sw_line_flag {
	SC_SWL_OPAQUE = 1 << 0,  /* a construct the lexer does not model */
	SC_SWL_SUBST = 1 << 1,   /* some substitution exists */
};

struct sc_sw_line {
	struct sc_sw_cmd *cmds;
	size_t nr_cmds, alloc_cmds;
	char **subs;             /* texts to judge as shell lines of their own */
	size_t nr_subs, alloc_subs;
	unsigned flags;
	const char *error;       /* a fixed text when parsing failed */
	size_t error_at;         /* byte offset of the fault */
};

void sc_sw_line_init(struct sc_sw_line *line);
void sc_sw_line_release(struct sc_sw_line *line);

/*
 * Parse LEN bytes of S (a NUL inside is a syntax error).  0 on success, -1
 * on a syntax error (line->error says which).  LINE holds what was parsed
 * before the error as well, so a caller can still look for denials.
 */
int sc_sw_parse(const char *s, size_t len, struct sc_sw_line *line);

/*
 * Split S into words the way a shell splits them with nothing expanded:
 * quotes and backslashes are honoured, $ * ? ~ are plain characters.  For
 * configuration values.  Unquoted operators (; & | < > ( ) and newlines)
 * and unterminated quotes are errors: -1, *ERROR set.  The words go to
 * *WORDS (a NULL-terminated array of malloc'd strings) and *NR.
 */
int sc_sw_split(const char *s, char ***words, size_t *nr, const char **error);
void sc_sw_split_free(char **words);

/* 1 when S is a valid shell variable name ([A-Za-z_][A-Za-z0-9_]*). */
int sc_sw_is_name(const char *s, size_t len);

/* Append WORD to OUT quoted so that sc_sw_split gives it back. */
struct sc_buf;
void sc_sw_quote(struct sc_buf *out, const char *word, size_t len);

#endif
