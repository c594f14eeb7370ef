/* profile_out.c — a prof_report as JSON, CSV, text for the terminal, and a
 * self-contained HTML page.  Only writes to the FILE it is given. */
#include <stdlib.h>
#include <string.h>
#include "profile.h"

/* ---- JSON ------------------------------------------------------------------------------ */

/* A JSON string; html_safe also escapes <, > and & (the page embeds it in a script). */
static void json_str(FILE *f, const char *s, int html_safe)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", f);
        else if (*p == '\t') fputs("\\t", f);
        else if (*p < 0x20 || (html_safe && (*p == '<' || *p == '>' || *p == '&'))) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

static void json_counters(FILE *f, const prof_counters *c)
{
    for (int i = 0; i < PROF_NCOUNTERS; i++)
        fprintf(f, "%s\"%s\": %llu", i ? ", " : "", prof_counter_name(i), (unsigned long long)prof_counter(c, i));
    fprintf(f, ", \"active_lanes\": %.2f", prof_active_lanes(c));
}

static void json_body(const prof_report *r, FILE *f, int html)
{
    fputs("{\"kernel\": ", f);
    json_str(f, r->kernel, html);
    fputs(", \"ptx\": ", f);
    json_str(f, r->ptx_path, html);
    fputs(",\n \"totals\": {", f);
    json_counters(f, &r->totals);
    fputs("},\n \"lines\": [", f);
    for (int i = 0; i < r->nlines; i++) {
        const prof_line *L = &r->lines[i];
        fprintf(f, "%s\n  {\"file\": ", i ? "," : "");
        json_str(f, L->file, html);
        fprintf(f, ", \"line\": %d, ", L->line);
        if (L->source) { fputs("\"source\": ", f); json_str(f, L->source, html); fputs(", ", f); }
        json_counters(f, &L->c);
        fputs(", \"ptx_lines\": [", f);
        for (int k = 0; k < L->nptx; k++) fprintf(f, "%s%d", k ? ", " : "", r->ptx_lines[L->ptx[k]].line);
        fputs("]}", f);
    }
    fputs("],\n \"ptx_lines\": [", f);
    for (int i = 0; i < r->nptx_lines; i++) {
        const prof_ptx_line *P = &r->ptx_lines[i];
        fprintf(f, "%s\n  {\"line\": %d, ", i ? "," : "", P->line);
        if (P->text) { fputs("\"text\": ", f); json_str(f, P->text, html); fputs(", ", f); }
        json_counters(f, &P->c);
        fputc('}', f);
    }
    fputs("]", f);
    if (html) {
        fputs(",\n \"files\": [", f);
        for (int i = 0; i < r->nfiles; i++) {
            const prof_file *F = &r->files[i];
            fprintf(f, "%s\n  {\"path\": ", i ? "," : "");
            json_str(f, F->path, 1);
            fprintf(f, ", \"found\": %s, \"lines\": [", F->found ? "true" : "false");
            for (int l = 0; l < F->nlines; l++) { if (l) fputs(", ", f); json_str(f, F->lines[l], 1); }
            fputs("]}", f);
        }
        fputs("],\n \"counters\": [", f);
        for (int i = 0; i < PROF_NCOUNTERS; i++) { if (i) fputs(", ", f); json_str(f, prof_counter_name(i), 1); }
        fputs("]", f);
    }
    fputs("}\n", f);
}

void prof_write_json(const prof_report *r, FILE *f)
{
    json_body(r, f, 0);
}

/* ---- CSV ------------------------------------------------------------------------------- */

static void csv_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) { if (*s == '"') fputc('"', f); fputc(*s, f); }
    fputc('"', f);
}

static void csv_row(FILE *f, const char *kind, const char *file, int line, const prof_counters *c, const char *text)
{
    fprintf(f, "%s,", kind);
    csv_str(f, file);
    fprintf(f, ",%d", line);
    for (int i = 0; i < PROF_NCOUNTERS; i++) fprintf(f, ",%llu", (unsigned long long)prof_counter(c, i));
    fprintf(f, ",%.2f,", prof_active_lanes(c));
    csv_str(f, text);
    fputc('\n', f);
}

void prof_write_csv(const prof_report *r, FILE *f)
{
    fputs("kind,file,line", f);
    for (int i = 0; i < PROF_NCOUNTERS; i++) fprintf(f, ",%s", prof_counter_name(i));
    fputs(",active_lanes,text\n", f);
    for (int i = 0; i < r->nlines; i++)
        csv_row(f, "cuda", r->lines[i].file, r->lines[i].line, &r->lines[i].c, r->lines[i].source);
    for (int i = 0; i < r->nptx_lines; i++)
        csv_row(f, "ptx", r->ptx_path, r->ptx_lines[i].line, &r->ptx_lines[i].c, r->ptx_lines[i].text);
}

/* ---- text ------------------------------------------------------------------------------ */

static uint64_t cost(const prof_counters *c)
{
    return c->warp_instructions + c->shared_wavefronts + c->global_sectors;
}

/* A line and its sort key (largest first, then in file order). */
typedef struct ranked { uint64_t key; int idx; } ranked;

static int cmp_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->key != y->key) return x->key > y->key ? -1 : 1;
    return x->idx - y->idx;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

void prof_write_text(const prof_report *r, FILE *f, int top, int sort)
{
    const prof_counters *t = &r->totals;
    double lanes = prof_active_lanes(t);
    fprintf(f, "kernel %s (%s): %d CUDA lines, %d PTX lines executed\n", r->kernel, r->ptx_path, r->nlines, r->nptx_lines);
    fprintf(f, "  issue:   %llu warp instructions, %.1f active lanes of 32 (SIMT efficiency %.1f%%), %llu divergent branches\n",
            (unsigned long long)t->warp_instructions, lanes, lanes * 100.0 / 32.0, (unsigned long long)t->divergent_branches);
    fprintf(f, "  shared:  %llu wavefronts, %llu ideal, %llu bank conflicts (wavefronts beyond the ideal)\n",
            (unsigned long long)t->shared_wavefronts, (unsigned long long)t->shared_wavefronts_ideal,
            (unsigned long long)t->shared_bank_conflicts);
    fprintf(f, "  global:  %llu instructions, %llu requests (128-byte lines), %llu sectors, %llu ideal\n",
            (unsigned long long)t->global_instructions, (unsigned long long)t->global_requests,
            (unsigned long long)t->global_sectors, (unsigned long long)t->global_sectors_ideal);
    fprintf(f, "  waits:   %llu at barriers, %llu at warp collectives\n",
            (unsigned long long)t->barrier_waits, (unsigned long long)t->collective_waits);
    if (!r->nlines) { fputs("(no CUDA line information: compile with -lineinfo to see source lines)\n", f); return; }
    ranked *idx = malloc((size_t)r->nlines * sizeof *idx);
    if (!idx) return;
    for (int i = 0; i < r->nlines; i++)
        idx[i] = (ranked){ sort < 0 ? cost(&r->lines[i].c) : prof_counter(&r->lines[i].c, sort), i };
    qsort(idx, (size_t)r->nlines, sizeof *idx, cmp_ranked);
    int n = top > 0 && top < r->nlines ? top : r->nlines;
    fprintf(f, "\n%d costliest lines, by %s:\n", n, sort < 0 ? "warp instructions + shared wavefronts + global sectors" : prof_counter_name(sort));
    fprintf(f, "%-24s %9s %5s %4s %8s %8s %7s %8s %8s %5s %5s  %s\n", "line", "warp-insn", "lanes", "div", "shm-wf",
            "conflict", "gl-req", "sectors", "(ideal)", "bar-w", "col-w", "source");
    for (int k = 0; k < n; k++) {
        const prof_line *L = &r->lines[idx[k].idx];
        char where[64];
        snprintf(where, sizeof where, "%s:%d", base_name(L->file), L->line);
        const char *src = L->source ? L->source : "(source not found)";
        while (*src == ' ' || *src == '\t') src++;
        fprintf(f, "%-24s %9llu %5.1f %4llu %8llu %8llu %7llu %8llu %8llu %5llu %5llu  %s\n", where,
                (unsigned long long)L->c.warp_instructions, prof_active_lanes(&L->c), (unsigned long long)L->c.divergent_branches,
                (unsigned long long)L->c.shared_wavefronts, (unsigned long long)L->c.shared_bank_conflicts,
                (unsigned long long)L->c.global_requests, (unsigned long long)L->c.global_sectors,
                (unsigned long long)L->c.global_sectors_ideal, (unsigned long long)L->c.barrier_waits,
                (unsigned long long)L->c.collective_waits, src);
    }
    free(idx);
}

/* ---- HTML ------------------------------------------------------------------------------ */

/* The page: styles, the data (JSON, between the two halves), and the script
 * that lays the annotated sources out from it. */
static const char html_head[] =
"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
"<title>ptxemu profile</title>\n<style>\n"
"body{font:13px/1.35 system-ui,sans-serif;margin:16px;color:#222;background:#fff}\n"
"h1{font-size:18px;margin:0 0 4px} h2{font-size:15px;margin:18px 0 6px}\n"
"#summary{margin:4px 0 10px;color:#444}\n"
"#chooser{margin:8px 0;padding:6px 8px;background:#f4f4f4;border:1px solid #ddd}\n"
"#chooser label{margin-right:10px;white-space:nowrap}\n"
"table.src{border-collapse:collapse;font:12px/1.3 ui-monospace,monospace;width:100%}\n"
"table.src th{position:sticky;top:0;background:#eee;font:11px system-ui,sans-serif;padding:3px 4px;border-bottom:1px solid #ccc;text-align:right}\n"
"table.src td{padding:1px 4px;white-space:pre;vertical-align:top}\n"
"td.n{color:#888;text-align:right;user-select:none} td.c{text-align:right;min-width:3.5em}\n"
"td.t{white-space:pre;width:100%;text-align:left}\n"
"tr.src.has{cursor:pointer} tr.src.has td.n::before{content:'\\25b8 ';color:#555} tr.src.open td.n::before{content:'\\25be '}\n"
"tr.ptx td{background:#fafafa;color:#555;font-size:11px} tr.ptx td.t{padding-left:2em}\n"
"tr.ptx.hide{display:none} .off{display:none} tr.far{display:none} body.whole tr.far{display:table-row}\n"
"</style></head><body>\n"
"<h1 id=\"title\">ptxemu profile</h1><div id=\"summary\"></div>\n"
"<div id=\"chooser\"><b>Columns:</b> </div>\n<div id=\"files\"></div>\n"
"<script id=\"data\" type=\"application/json\">";

static const char html_tail[] =
"</script>\n<script>\n"
"(function(){\n"
"var D=JSON.parse(document.getElementById('data').textContent);\n"
"var cols=D.counters.concat(['active_lanes']);\n"
"var shown={warp_instructions:1,active_lanes:1,divergent_branches:1,shared_wavefronts:1,shared_bank_conflicts:1,\n"
" global_requests:1,global_sectors:1,barrier_waits:1};\n"
"var short={warp_instructions:'warp insn',thread_instructions:'thread insn',divergent_branches:'divergent',\n"
" shared_wavefronts:'shm wavefronts',shared_wavefronts_ideal:'shm ideal',shared_bank_conflicts:'bank conflicts',\n"
" global_instructions:'gl insn',global_requests:'gl requests',global_sectors:'gl sectors',global_sectors_ideal:'gl ideal',\n"
" barrier_waits:'barrier waits',collective_waits:'coll. waits',active_lanes:'active lanes'};\n"
"function el(t,c,x){var e=document.createElement(t);if(c)e.className=c;if(x!==undefined)e.textContent=x;return e;}\n"
"var max={};cols.forEach(function(c){max[c]=0;D.lines.forEach(function(l){if(l[c]>max[c])max[c]=l[c];});});\n"
"/* heat: white to red by the share of the column's largest line; active lanes: red when few lanes run */\n"
"function heat(c,v,issued){if(!issued)return '';var f;\n"
" if(c==='active_lanes')f=v>0?(32-v)/32:0;else f=max[c]>0?v/max[c]:0;\n"
" if(f<=0)return '';var g=Math.round(255-170*f);return 'rgb(255,'+g+','+g+')';}\n"
"function fmt(c,v){return c==='active_lanes'?v.toFixed(1):String(v);}\n"
"function cells(tr,o,issued){cols.forEach(function(c){var v=o?o[c]:0;\n"
" var td=el('td','c col-'+c+(shown[c]?'':' off'),o&&issued?fmt(c,v):'');td.setAttribute('data-c',c);\n"
" var h=o?heat(c,v,issued):'';if(h)td.style.background=h;tr.appendChild(td);});}\n"
"var t=D.totals;document.getElementById('title').textContent='kernel '+D.kernel;\n"
"document.getElementById('summary').textContent=D.ptx+': '+t.warp_instructions+' warp instructions, '+\n"
" t.active_lanes.toFixed(1)+' active lanes of 32, '+t.divergent_branches+' divergent branches; shared: '+\n"
" t.shared_wavefronts+' wavefronts, '+t.shared_bank_conflicts+' bank conflicts; global: '+t.global_requests+\n"
" ' requests, '+t.global_sectors+' sectors ('+t.global_sectors_ideal+' ideal); waits: '+t.barrier_waits+\n"
" ' at barriers, '+t.collective_waits+' at collectives.';\n"
"var ch=document.getElementById('chooser');\n"
"var wl=el('label');var wb=el('input');wb.type='checkbox';wb.id='whole';wb.onchange=function(){\n"
" document.body.classList.toggle('whole',wb.checked);};wl.appendChild(wb);wl.appendChild(document.createTextNode(' whole files'));\n"
"cols.forEach(function(c){var lb=el('label');var cb=el('input');cb.type='checkbox';cb.checked=!!shown[c];cb.id='show-'+c;\n"
" cb.onchange=function(){shown[c]=cb.checked;document.querySelectorAll('.col-'+c).forEach(function(e){\n"
"  e.classList.toggle('off',!cb.checked);});};lb.appendChild(cb);lb.appendChild(document.createTextNode(' '+short[c]));ch.appendChild(lb);});\n"
"ch.appendChild(document.createTextNode(' | '));ch.appendChild(wl);\n"
"var ptx={};D.ptx_lines.forEach(function(p){ptx[p.line]=p;});\n"
"var root=document.getElementById('files');\n"
"D.files.forEach(function(F){\n"
"/* the kernel's lines with a little context; the rest shows with 'whole files' */\n"
" var mine={},n=F.lines.length,lo=1e9,hi=0;D.lines.forEach(function(l){if(l.file===F.path){mine[l.line]=l;\n"
"  if(l.line>n&&!F.found)n=l.line;if(l.line>0&&l.line<lo)lo=l.line;if(l.line>hi)hi=l.line;}});lo-=3;hi+=3;\n"
" root.appendChild(el('h2',null,F.path+(F.found?'':' (source not found: --source-dir DIR)')));\n"
" var tb=el('table','src');tb.setAttribute('data-file',F.path);var hr=el('tr');hr.appendChild(el('th',null,'line'));\n"
" cols.forEach(function(c){var th=el('th','col-'+c+(shown[c]?'':' off'),short[c]);hr.appendChild(th);});\n"
" var ths=el('th',null,'source');ths.style.textAlign='left';hr.appendChild(ths);tb.appendChild(hr);\n"
" for(var i=1;i<=n;i++){var L=mine[i];if(!F.found&&!L)continue;\n"
"  var far=i<lo||i>hi?' far':'';var tr=el('tr','src'+(L?' has':'')+far);tr.setAttribute('data-line',i);tr.appendChild(el('td','n',String(i)));\n"
"  cells(tr,L,L&&L.warp_instructions>0);\n"
"  tr.appendChild(el('td','t',F.found?F.lines[i-1]:(L&&L.source?L.source:'')));tb.appendChild(tr);\n"
"  if(L){var rows=[];L.ptx_lines.forEach(function(pl){var P=ptx[pl];if(!P)return;var pr=el('tr','ptx hide');\n"
"    pr.appendChild(el('td','n','ptx '+pl));cells(pr,P,P.warp_instructions>0);pr.appendChild(el('td','t',P.text||''));\n"
"    tb.appendChild(pr);rows.push(pr);});\n"
"   tr.onclick=(function(rows,tr){return function(){tr.classList.toggle('open');\n"
"    rows.forEach(function(r){r.classList.toggle('hide');});};})(rows,tr);}\n"
" }\n"
" root.appendChild(tb);});\n"
"/* #line=N opens that line's PTX and scrolls to it */\n"
"var m=/line=(\\d+)/.exec(location.hash);if(m){var r=document.querySelector('tr.src.has[data-line=\"'+m[1]+'\"]');\n"
" if(r){r.onclick();r.scrollIntoView({block:'nearest'});}}\n"
"document.body.setAttribute('data-rendered',String(document.querySelectorAll('tr.src').length));\n"
"})();\n"
"</script></body></html>\n";

void prof_write_html(const prof_report *r, FILE *f)
{
    fputs(html_head, f);
    json_body(r, f, 1);
    fputs(html_tail, f);
}
