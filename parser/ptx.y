/* ptx.y — pure bison grammar for PTX as nvcc emits it.
 *
 * Every action is one call to a builder function of ast_build.h (plus the
 * odd `yyerrok` in the recovery rules).  All semantic values (strings,
 * operands, lists, declarators) are carved from the module's arena, so
 * symbols discarded during error recovery leak nothing: no %destructor is
 * needed, the arena is released as a whole by ast_module_free (ast_parse
 * does it itself when an error occurred).
 *
 * Function bodies are flat: the scanner tracks brace depth and returns
 * BODY_OPEN/BODY_CLOSE for a body's own braces and SCOPE_OPEN/SCOPE_CLOSE
 * for the inner ones, which are plain statements here, so any nesting depth
 * costs no parser stack.
 */
%define api.pure full
%define api.prefix {ptx}
%locations
%define parse.error custom
%define parse.lac full
%expect 0
%param {ptx_builder *b}

%code requires {
#include "ast_build.h"
}

%union {
    int64_t i;
    b_cval cv;
    uint64_t u;
    const char *s;
    int n;
    ast_operand *opd;
    b_list *list;
    ast_init *init;
    b_spec *spec;
    b_dims *dims;
    b_declarator *dcl;
    b_decl *decl;
    ast_var *var;
    b_perf *perf;
    ast_func *fn;
}

%code {
#include <limits.h>
#include <string.h>
#define YYSTYPE PTXSTYPE
#define YYLTYPE PTXLTYPE
#undef yylex                 /* bison's yylex -> ptxlex; flex's is ptxrawlex */
#include "ptx.lex.h"
#undef yylex
#define yylex ptxlex

#define L(x) ((ast_loc){ (x).first_line, (x).first_column })

static int ptxlex(PTXSTYPE *lv, PTXLTYPE *ll, ptx_builder *b)
{
    if (b->stop) {
        ll->first_line = ll->last_line = b->line;
        ll->first_column = ll->last_column = b->col;
        return 0;
    }
    return ptxrawlex(lv, ll, b->scanner);
}

static void ptxerror(PTXLTYPE *l, ptx_builder *b, const char *msg)
{
    /* bison's only other message: its stack (YYMAXDEPTH) ran out, which only
     * a very deep constant expression (`- - - ... 1`, `a ? b : c ? ...`) does */
    if (strcmp(msg, "memory exhausted") == 0)
        msg = "expression nested too deeply (parser stack exhausted)";
    b_error(b, l->first_line, l->first_column, "%s", msg);
}
}

%token END 0 "end of file"
%token <s> INSN IDENT REG FLOAT STRING GUARD PERF
%token <cv> INT
%token <u> F32 F64
%token <n> TYPE VEC SPACE LINKAGE
%token ALIGN PTR ENTRY FUNC VERSION TARGET ADDRSIZE FILE_ LOC PRAGMA
%token BRANCHTARGETS CALLPROTOTYPE CALLTARGETS ALIAS
%token BODY_OPEN BODY_CLOSE SCOPE_OPEN SCOPE_CLOSE SINK ERRTOK
%token SHL "<<" SHR ">>" LE "<=" GE ">=" EQ "==" NE "!=" LAND "&&" LOR "||"

/* constant expressions, C precedence; `( expr )` right after `(` is an
 * expression rather than a one-item call list (b_opd_expr keeps the list
 * for `call`) */
%precedence VITEM
%precedence ')'
%right '?' ':'
%left LOR
%left LAND
%left '|'
%left '^'
%left '&'
%left EQ NE
%left '<' '>' LE GE
%left SHL SHR
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%type <n> linkage_opt
%type <decl> decl
%type <spec> specs
%type <list> declarators init_items rets params_opt params perfs ints
%type <list> opds_opt opds vitems names strings
%type <dcl> declarator
%type <s> dname
%type <dims> dims
%type <init> init_opt init
%type <var> param
%type <perf> perf
%type <fn> func_head
%type <opd> opd value name vitem
%type <i> offset
%type <cv> iexpr
%type <opd> tcoord

%%

module
    : %empty
    | module item
    ;

item
    : VERSION FLOAT                 { b_version(b, L(@2), $2); }
    | TARGET target_words
    | ADDRSIZE INT                  { b_address_size(b, L(@2), $2.v); }
    | FILE_ INT STRING file_extra   { b_file(b, L(@1), $2.v, $3); }
    | ALIAS IDENT ',' IDENT ';'     { b_alias(b, L(@2), $2, $4, L(@4)); }
    | decl ';'                      { b_item_decl(b, $1); }
    | func_head ';'                 { b_func_end(b, $1, 0); }
    | func_head body                { b_func_end(b, $1, 1); }
    | PRAGMA strings ';'            { b_module_pragma(b, L(@1), $2); }
    | error ';'                     { yyerrok; }
    | error body                    { yyerrok; }
    ;

target_words
    : IDENT                         { b_target(b, L(@1), $1); }
    | target_words ',' IDENT        { b_target(b, L(@3), $3); }
    ;

file_extra
    : %empty
    | ',' INT ',' INT
    ;

/* ---- declarations ---------------------------------------------------- */

linkage_opt
    : %empty                        { $$ = 0; }
    | linkage_opt LINKAGE           { $$ = $1 | $2; }
    ;

decl
    : linkage_opt SPACE specs declarators   { $$ = b_decl_new(b, L(@2), $1, $2, $3, $4); }
    ;

specs
    : ALIGN INT                     { $$ = b_spec_add(b, NULL, B_SPEC_ALIGN, $2.v, L(@2)); }
    | TYPE                          { $$ = b_spec_add(b, NULL, B_SPEC_TYPE, $1, L(@1)); }
    | VEC                           { $$ = b_spec_add(b, NULL, B_SPEC_VEC, $1, L(@1)); }
    | PTR                           { $$ = b_spec_add(b, NULL, B_SPEC_PTR, 0, L(@1)); }
    | specs ALIGN INT               { $$ = b_spec_add(b, $1, B_SPEC_ALIGN, $3.v, L(@3)); }
    | specs TYPE                    { $$ = b_spec_add(b, $1, B_SPEC_TYPE, $2, L(@2)); }
    | specs VEC                     { $$ = b_spec_add(b, $1, B_SPEC_VEC, $2, L(@2)); }
    | specs PTR                     { $$ = b_spec_add(b, $1, B_SPEC_PTR, 0, L(@2)); }
    | specs SPACE                   { $$ = b_spec_add(b, $1, B_SPEC_SPACE, $2, L(@2)); }
    ;

declarators
    : declarator                    { $$ = b_list_add(b, NULL, $1, L(@1)); }
    | declarators ',' declarator    { $$ = b_list_add(b, $1, $3, L(@3)); }
    ;

declarator
    : dname dims init_opt           { $$ = b_declarator_new(b, L(@1), $1, $2, $3); }
    | REG '<' INT '>'               { $$ = b_declarator_range(b, L(@1), $1, $3.v, L(@3)); }
    ;

dname
    : IDENT
    | REG
    ;

dims
    : %empty                        { $$ = NULL; }
    | dims '[' iexpr ']'            { $$ = b_dim_expr(b, $1, $3, L(@3)); }
    | dims '[' ']'                  { $$ = b_dim(b, $1, -1, L(@2)); }
    ;

init_opt
    : %empty                        { $$ = NULL; }
    | '=' init                      { $$ = $2; }
    ;

init
    : '{' init_items '}'            { $$ = b_init_list(b, L(@1), $2); }
    | '{' '}'                       { $$ = b_init_list(b, L(@1), NULL); }
    | iexpr                         { $$ = b_init_expr(b, L(@1), $1); }
    | F32                           { $$ = b_init_bits(b, L(@1), 0, $1, 0); }
    | '-' F32                       { $$ = b_init_bits(b, L(@1), 0, $2, 1); }
    | F64                           { $$ = b_init_bits(b, L(@1), 1, $1, 0); }
    | '-' F64                       { $$ = b_init_bits(b, L(@1), 1, $2, 1); }
    | FLOAT                         { $$ = b_init_float(b, L(@1), $1, 0); }
    | '-' FLOAT                     { $$ = b_init_float(b, L(@1), $2, 1); }
    | IDENT                         { $$ = b_init_sym(b, L(@1), NULL, $1, 0); }
    | IDENT offset                  { $$ = b_init_sym(b, L(@1), NULL, $1, $2); }
    | IDENT '(' IDENT ')'           { $$ = b_init_sym(b, L(@1), $1, $3, 0); }
    | IDENT '(' IDENT ')' offset    { $$ = b_init_sym(b, L(@1), $1, $3, $5); }
    ;

init_items
    : init                          { $$ = b_list_add(b, NULL, $1, L(@1)); }
    | init_items ',' init           { $$ = b_list_add(b, $1, $3, L(@3)); }
    ;

/* ---- functions ------------------------------------------------------- */

func_head
    : linkage_opt ENTRY IDENT params_opt perfs
                                    { $$ = b_func_head(b, L(@3), $1, 1, NULL, $3, $4, $5); }
    | linkage_opt FUNC rets IDENT params_opt perfs
                                    { $$ = b_func_head(b, L(@4), $1, 0, $3, $4, $5, $6); }
    ;

rets
    : %empty                        { $$ = NULL; }
    | '(' ')'                       { $$ = NULL; }
    | '(' params ')'                { $$ = $2; }
    ;

params_opt
    : %empty                        { $$ = NULL; }
    | '(' ')'                       { $$ = NULL; }
    | '(' params ')'                { $$ = $2; }
    ;

params
    : param                         { $$ = b_list_add(b, NULL, $1, L(@1)); }
    | params ',' param              { $$ = b_list_add(b, $1, $3, L(@3)); }
    ;

param
    : SPACE specs IDENT dims        { $$ = b_param(b, L(@3), $1, $2, $3, $4); }
    ;

perfs
    : %empty                        { $$ = NULL; }
    | perfs perf                    { $$ = b_list_add(b, $1, $2, L(@2)); }
    ;

perf
    : PERF                          { $$ = b_perf_new(b, L(@1), $1, NULL); }
    | PERF ints                     { $$ = b_perf_new(b, L(@1), $1, $2); }
    ;

ints
    : INT                           { $$ = b_int_list(b, NULL, $1.v, L(@1)); }
    | ints ',' INT                  { $$ = b_int_list(b, $1, $3.v, L(@3)); }
    ;

body
    : BODY_OPEN stmts BODY_CLOSE            { b_body_end(b, L(@3)); }
    | BODY_OPEN stmts error BODY_CLOSE      { yyerrok; b_body_end(b, L(@4)); }
    ;

/* ---- statements --------------------------------------------------------- */

stmts
    : %empty
    | stmts stmt
    ;

stmt
    : IDENT ':'                     { b_label(b, L(@1), $1); }
    | IDENT ':' BRANCHTARGETS names ';'
                                    { b_branchtargets(b, L(@1), $1, $4); }
    | IDENT ':' CALLTARGETS names ';'
                                    { b_calltargets(b, L(@1), $1, $4); }
    | IDENT ':' CALLPROTOTYPE rets IDENT params_opt perfs ';'
                                    { b_callprototype(b, L(@1), $1, $4, $5, $6, $7); }
    | INSN opds_opt ';'             { b_insn(b, L(@1), NULL, L(@1), $1, $2); }
    | GUARD INSN opds_opt ';'       { b_insn(b, L(@2), $1, L(@1), $2, $3); }
    | decl ';'                      { b_stmt_decl(b, $1); }
    | SCOPE_OPEN                    { b_scope_open(b, L(@1)); }
    | SCOPE_CLOSE                   { b_scope_close(b, L(@1)); }
    | LOC INT INT INT               { b_loc(b, L(@1), $2.v, $3.v, $4.v); }
    | LOC INT INT INT ',' IDENT IDENT ',' IDENT INT INT INT
                                    { b_loc_inlined(b, L(@6), $2.v, $3.v, $4.v, $6, $7, $9, L(@9), $10.v, $11.v, $12.v); }
    | LOC INT INT INT ',' IDENT IDENT '+' INT ',' IDENT INT INT INT
                                    { b_loc_inlined(b, L(@6), $2.v, $3.v, $4.v, $6, $7, $11, L(@11), $12.v, $13.v, $14.v);
                                      b_loc_fn_offset(b, L(@9), $9.v); }
    | PRAGMA strings ';'            { b_pragma(b, L(@1), $2); }
    | error ';'                     { yyerrok; }
    | error SCOPE_CLOSE             { yyerrok; b_scope_close(b, L(@2)); }
    ;

names
    : IDENT                         { $$ = b_list_add(b, NULL, (void *)$1, L(@1)); }
    | names ',' IDENT               { $$ = b_list_add(b, $1, (void *)$3, L(@3)); }
    ;

strings
    : STRING                        { $$ = b_list_add(b, NULL, (void *)$1, L(@1)); }
    | strings ',' STRING            { $$ = b_list_add(b, $1, (void *)$3, L(@3)); }
    ;

/* ---- operands ----------------------------------------------------------- */

opds_opt
    : %empty                        { $$ = NULL; }
    | opds
    ;

opds
    : opd                           { $$ = b_list_add(b, NULL, $1, L(@1)); }
    | opds ',' opd                  { $$ = b_list_add(b, $1, $3, L(@3)); }
    ;

opd
    : value
    | iexpr                         { $$ = b_opd_expr(b, L(@1), $1, 1); }
    | SINK                          { $$ = b_opd_sink(b, L(@1)); }
    | '!' name                      { $$ = b_opd_not(b, L(@1), $2); }
    | name '|' name                 { $$ = b_opd_pair(b, L(@1), $1, $3); }
    | '[' name ']'                  { $$ = b_opd_addr(b, L(@1), $2, 0); }
    | '[' name offset ']'           { $$ = b_opd_addr(b, L(@1), $2, $3); }
    | '[' iexpr ']'                 { $$ = b_opd_addr(b, L(@1), NULL, $2.v); }
    | '[' name ',' tcoord ']'       { $$ = b_opd_texaddr(b, L(@1), $2, NULL, $4); }
    | '[' name ',' name ',' tcoord ']'
                                    { $$ = b_opd_texaddr(b, L(@1), $2, $4, $6); }
    | '{' vitems '}'                { $$ = b_opd_group(b, L(@1), AST_OPD_VEC, $2); }
    | '{' vitems '}' '|' name       { $$ = b_opd_pair(b, L(@1), b_opd_group(b, L(@1), AST_OPD_VEC, $2), $5); }
    | '(' ')'                       { $$ = b_opd_group(b, L(@1), AST_OPD_LIST, NULL); }
    | '(' vitems ')'                { $$ = b_opd_group(b, L(@1), AST_OPD_LIST, $2); }
    ;

/* texture/surface coordinates: a vector, or (1d) a single value */
tcoord
    : '{' vitems '}'                { $$ = b_opd_group(b, L(@1), AST_OPD_VEC, $2); }
    | value
    | iexpr                         { $$ = b_opd_expr(b, L(@1), $1, 0); }
    ;

/* `sym+4`, `[%rd1-8]`, `sym + 2*8`: an expression with a leading sign */
offset
    : iexpr                         { $$ = b_offset(b, L(@1), $1); }
    ;

iexpr
    : INT
    | '(' iexpr ')'                 { $$ = b_cv_paren($2); }
    | '-' iexpr %prec UNARY         { $$ = b_cv_unary(b, L(@1), '-', $2); }
    | '+' iexpr %prec UNARY         { $$ = b_cv_unary(b, L(@1), '+', $2); }
    | '~' iexpr %prec UNARY         { $$ = b_cv_unary(b, L(@1), '~', $2); }
    | '!' iexpr %prec UNARY         { $$ = b_cv_unary(b, L(@1), '!', $2); }
    | iexpr '*' iexpr               { $$ = b_cv_binary(b, L(@2), '*', $1, $3); }
    | iexpr '/' iexpr               { $$ = b_cv_binary(b, L(@2), '/', $1, $3); }
    | iexpr '%' iexpr               { $$ = b_cv_binary(b, L(@2), '%', $1, $3); }
    | iexpr '+' iexpr               { $$ = b_cv_binary(b, L(@2), '+', $1, $3); }
    | iexpr '-' iexpr               { $$ = b_cv_binary(b, L(@2), '-', $1, $3); }
    | iexpr SHL iexpr               { $$ = b_cv_binary(b, L(@2), B_OP_SHL, $1, $3); }
    | iexpr SHR iexpr               { $$ = b_cv_binary(b, L(@2), B_OP_SHR, $1, $3); }
    | iexpr '<' iexpr               { $$ = b_cv_binary(b, L(@2), '<', $1, $3); }
    | iexpr '>' iexpr               { $$ = b_cv_binary(b, L(@2), '>', $1, $3); }
    | iexpr LE iexpr                { $$ = b_cv_binary(b, L(@2), B_OP_LE, $1, $3); }
    | iexpr GE iexpr                { $$ = b_cv_binary(b, L(@2), B_OP_GE, $1, $3); }
    | iexpr EQ iexpr                { $$ = b_cv_binary(b, L(@2), B_OP_EQ, $1, $3); }
    | iexpr NE iexpr                { $$ = b_cv_binary(b, L(@2), B_OP_NE, $1, $3); }
    | iexpr '&' iexpr               { $$ = b_cv_binary(b, L(@2), '&', $1, $3); }
    | iexpr '^' iexpr               { $$ = b_cv_binary(b, L(@2), '^', $1, $3); }
    | iexpr '|' iexpr               { $$ = b_cv_binary(b, L(@2), '|', $1, $3); }
    | iexpr LAND iexpr              { $$ = b_cv_binary(b, L(@2), B_OP_LAND, $1, $3); }
    | iexpr LOR iexpr               { $$ = b_cv_binary(b, L(@2), B_OP_LOR, $1, $3); }
    | iexpr '?' iexpr ':' iexpr     { $$ = b_cv_cond($1, $3, $5); }
    ;

name
    : REG                           { $$ = b_opd_reg(b, L(@1), $1); }
    | IDENT                         { $$ = b_opd_ident(b, L(@1), $1); }
    ;

value
    : name
    | name offset                   { $$ = b_opd_offset(b, $1, $2, L(@2)); }
    | F32                           { $$ = b_opd_bits(b, L(@1), 0, $1, 0); }
    | '-' F32                       { $$ = b_opd_bits(b, L(@1), 0, $2, 1); }
    | F64                           { $$ = b_opd_bits(b, L(@1), 1, $1, 0); }
    | '-' F64                       { $$ = b_opd_bits(b, L(@1), 1, $2, 1); }
    | FLOAT                         { $$ = b_opd_float(b, L(@1), $1, 0); }
    | '-' FLOAT                     { $$ = b_opd_float(b, L(@1), $2, 1); }
    ;

vitems
    : vitem                         { $$ = b_list_add(b, NULL, $1, L(@1)); }
    | vitems ',' vitem              { $$ = b_list_add(b, $1, $3, L(@3)); }
    ;

vitem
    : value
    | iexpr %prec VITEM             { $$ = b_opd_expr(b, L(@1), $1, 0); }
    | SINK                          { $$ = b_opd_sink(b, L(@1)); }
    ;

%%

/* ---- syntax error messages ---------------------------------------------- */

/* binary operators of constant expressions (listed as "an operator") */
static int is_binary_op(yysymbol_kind_t k)
{
    switch (k) {
    case YYSYMBOL_SHL: case YYSYMBOL_SHR: case YYSYMBOL_LE: case YYSYMBOL_GE:
    case YYSYMBOL_EQ: case YYSYMBOL_NE: case YYSYMBOL_LAND: case YYSYMBOL_LOR:
        return 1;
    default: {
        const char *n = yysymbol_name(k);
        return n[0] == '\'' && n[1] && strchr("*/%&^?<>|+-", n[1]) && n[2] == '\'' && n[3] == 0;
    }
    }
}

static const char *tok_desc(yysymbol_kind_t k)
{
    switch (k) {
    case YYSYMBOL_YYEOF: return "end of file";
    case YYSYMBOL_INSN: return "instruction";
    case YYSYMBOL_IDENT: return "identifier";
    case YYSYMBOL_REG: return "register";
    case YYSYMBOL_INT: return "integer";
    case YYSYMBOL_F32: case YYSYMBOL_F64: case YYSYMBOL_FLOAT: return "number";
    case YYSYMBOL_STRING: return "string";
    case YYSYMBOL_GUARD: return "guard";
    case YYSYMBOL_PERF: return "performance directive";
    case YYSYMBOL_TYPE: return "type";
    case YYSYMBOL_VEC: return "vector width";
    case YYSYMBOL_SPACE: return "state space";
    case YYSYMBOL_LINKAGE: return "linkage directive";
    case YYSYMBOL_ALIGN: return "'.align'";
    case YYSYMBOL_PTR: return "'.ptr'";
    case YYSYMBOL_ENTRY: return "'.entry'";
    case YYSYMBOL_FUNC: return "'.func'";
    case YYSYMBOL_VERSION: return "'.version'";
    case YYSYMBOL_TARGET: return "'.target'";
    case YYSYMBOL_ADDRSIZE: return "'.address_size'";
    case YYSYMBOL_FILE_: return "'.file'";
    case YYSYMBOL_LOC: return "'.loc'";
    case YYSYMBOL_PRAGMA: return "'.pragma'";
    case YYSYMBOL_BRANCHTARGETS: return "'.branchtargets'";
    case YYSYMBOL_CALLPROTOTYPE: return "'.callprototype'";
    case YYSYMBOL_BODY_OPEN: case YYSYMBOL_SCOPE_OPEN: return "'{'";
    case YYSYMBOL_BODY_CLOSE: case YYSYMBOL_SCOPE_CLOSE: return "'}'";
    case YYSYMBOL_SINK: return "'_'";
    case YYSYMBOL_CALLTARGETS: return "'.calltargets'";
    case YYSYMBOL_ALIAS: return "'.alias'";
    default:
        if (is_binary_op(k))
            return "an operator";
        return yysymbol_name(k);
    }
}

/* tokens whose text is worth quoting after their kind */
static int tok_has_text(yysymbol_kind_t k)
{
    switch (k) {
    case YYSYMBOL_INSN: case YYSYMBOL_IDENT: case YYSYMBOL_REG: case YYSYMBOL_INT:
    case YYSYMBOL_F32: case YYSYMBOL_F64: case YYSYMBOL_FLOAT: case YYSYMBOL_STRING:
    case YYSYMBOL_GUARD: case YYSYMBOL_PERF: case YYSYMBOL_TYPE: case YYSYMBOL_VEC:
    case YYSYMBOL_SPACE: case YYSYMBOL_LINKAGE:
        return 1;
    default:
        return 0;
    }
}

static int is_operand_start(yysymbol_kind_t k)
{
    const char *n = yysymbol_name(k);
    switch (k) {
    case YYSYMBOL_REG: case YYSYMBOL_IDENT: case YYSYMBOL_INT: case YYSYMBOL_F32:
    case YYSYMBOL_F64: case YYSYMBOL_FLOAT: case YYSYMBOL_SINK:
        return 1;
    default:
        return !strcmp(n, "'-'") || !strcmp(n, "'!'") || !strcmp(n, "'['") ||
               !strcmp(n, "'{'") || !strcmp(n, "'('");
    }
}

static int yyreport_syntax_error(const yypcontext_t *ctx, ptx_builder *b)
{
    yysymbol_kind_t la = yypcontext_token(ctx);
    if (la == YYSYMBOL_ERRTOK || b->stop)
        return 0;                  /* the scanner already said what is wrong */
    const PTXLTYPE *loc = yypcontext_location(ctx);
    char msg[400], qb[100];
    size_t o = 0;
    if (la == YYSYMBOL_YYEOF)
        o += (size_t)snprintf(msg, sizeof msg, "unexpected end of file");
    else if (tok_has_text(la))
        o += (size_t)snprintf(msg, sizeof msg, "unexpected %s '%s'", tok_desc(la),
                              b_quote(qb, sizeof qb, b->last_text, strlen(b->last_text)));
    else
        o += (size_t)snprintf(msg, sizeof msg, "unexpected '%s'",
                              b_quote(qb, sizeof qb, b->last_text, strlen(b->last_text)));

    yysymbol_kind_t exp[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
    const char *d[YYNTOKENS];
    int nd = 0, operand = 0;
    int expr = 0;
    for (int i = 0; i < n; i++) {
        if (!strcmp(yysymbol_name(exp[i]), "'['"))
            operand = 1;
        if (exp[i] == YYSYMBOL_INT)
            expr = 1;
    }
    for (int i = 0; i < n; i++) {
        const char *nm = yysymbol_name(exp[i]);
        const char *s = operand && is_operand_start(exp[i]) ? "an operand"
                      : expr && (exp[i] == YYSYMBOL_INT || !strcmp(nm, "'('") || !strcmp(nm, "'!'") ||
                                 !strcmp(nm, "'~'") || !strcmp(nm, "'+'") || !strcmp(nm, "'-'"))
                      ? "an expression" : tok_desc(exp[i]);
        int dup = 0;
        for (int j = 0; j < nd; j++)
            dup |= !strcmp(d[j], s);
        if (!dup)
            d[nd++] = s;
    }
    if (nd > 0 && nd <= 5) {
        for (int i = 0; i < nd && o < sizeof msg; i++)
            o += (size_t)snprintf(msg + o, sizeof msg - o, "%s%s",
                                  i == 0 ? ", expecting " : i == nd - 1 ? " or " : ", ", d[i]);
    }
    b_error(b, loc->first_line, loc->first_column, "%s", msg);
    return 0;
}

void b_run_parser(ptx_builder *b)
{
    yyscan_t sc;
    if (b->len > (size_t)INT_MAX - 8) {
        b_error(b, 1, 1, "file too large");
        return;
    }
    if (ptxrawlex_init_extra(b, &sc) != 0) {
        b_error(b, 1, 1, "out of memory");
        return;
    }
    b->scanner = sc;
    YY_BUFFER_STATE bs = ptxraw_scan_bytes(b->src, (int)b->len, sc);
    int r = ptxparse(b);
    if (r != 0 && b->nerrors == 0)
        b_error(b, b->line, b->col, "syntax error");
    ptxraw_delete_buffer(bs, sc);
    ptxrawlex_destroy(sc);
    b->scanner = NULL;
}
