#include "load_report.h"

#include <inttypes.h>
#include <math.h>

#include "pk_cli.h"
#include "pk_json.h"

/* ---- values ---------------------------------------------------------------- */

static pk_load_value *put(pk_load_values *vs, const char *key, pk_load_type type)
{
    /* A kind lists a fixed handful; past the table is a programming error
     * that would drop a value, so the last slot is overwritten visibly. */
    size_t i = vs->n < PK_LOAD_MAX_VALUES ? vs->n++ : PK_LOAD_MAX_VALUES - 1;
    vs->v[i] = (pk_load_value){.key = key, .type = type};
    return &vs->v[i];
}

void pk_load_put_null(pk_load_values *vs, const char *key) { put(vs, key, PK_LOAD_NULL); }
void pk_load_put_uint(pk_load_values *vs, const char *key, uint64_t u) { put(vs, key, PK_LOAD_UINT)->u = u; }
void pk_load_put_int(pk_load_values *vs, const char *key, int64_t i) { put(vs, key, PK_LOAD_INT)->i = i; }
void pk_load_put_double(pk_load_values *vs, const char *key, double d) { put(vs, key, PK_LOAD_DOUBLE)->d = d; }
void pk_load_put_string(pk_load_values *vs, const char *key, const char *s) { put(vs, key, PK_LOAD_STRING)->s = s; }

void pk_load_put_doubles(pk_load_values *vs, const char *key, const double *d, size_t count)
{
    pk_load_value *v = put(vs, key, PK_LOAD_DOUBLES);
    v->doubles = d;
    v->count = count;
}

void pk_load_put_ints(pk_load_values *vs, const char *key, const int *i, size_t count)
{
    pk_load_value *v = put(vs, key, PK_LOAD_INTS);
    v->ints = i;
    v->count = count;
}

void pk_load_put_rate(pk_load_values *vs, const char *key, double count, double seconds)
{
    pk_load_put_double(vs, key, seconds > 0 ? count / seconds : NAN);
}

/* ---- JSON ------------------------------------------------------------------ */

static void json_value(pk_json *j, const pk_load_value *v)
{
    pk_json_key(j, v->key);
    switch (v->type) {
    case PK_LOAD_NULL: pk_json_null(j); break;
    case PK_LOAD_UINT: pk_json_uint(j, v->u); break;
    case PK_LOAD_INT: pk_json_int(j, v->i); break;
    case PK_LOAD_DOUBLE: pk_json_double(j, v->d); break;
    case PK_LOAD_STRING: pk_json_string(j, v->s); break;
    case PK_LOAD_DOUBLES:
    case PK_LOAD_INTS:
        pk_json_begin_array(j);
        for (size_t i = 0; i < v->count; i++) {
            if (v->type == PK_LOAD_DOUBLES)
                pk_json_double(j, v->doubles[i]);
            else
                pk_json_int(j, v->ints[i]);
        }
        pk_json_end_array(j);
        break;
    }
}

static void json_values(pk_json *j, const char *key, const pk_load_values *vs)
{
    pk_json_key(j, key);
    pk_json_begin_object(j);
    for (size_t i = 0; i < vs->n; i++)
        json_value(j, &vs->v[i]);
    pk_json_end_object(j);
}

/* achieved.system_cpus: the busy share of each CPU listed in both readings. */
static void json_system_cpus(pk_json *j, const pk_load_report *r)
{
    pk_json_key(j, "system_cpus");
    if (!r->stat_before->ok || !r->stat_after->ok) {
        pk_json_null(j);
        return;
    }
    pk_json_begin_array(j);
    for (size_t i = 0; i < r->stat_after->count; i++) {
        pk_cpu_jiffies before;
        if (!pk_proc_stat_cpu(r->stat_before, r->stat_after->cpu[i], &before))
            continue;
        pk_json_begin_object(j);
        pk_json_kv_int(j, "cpu", r->stat_after->cpu[i]);
        pk_json_kv_double(j, "busy_percent", pk_busy_percent(before, r->stat_after->per[i]));
        pk_json_end_object(j);
    }
    pk_json_end_array(j);
}

static double system_busy(const pk_load_report *r)
{
    if (!r->stat_before->ok || !r->stat_after->ok)
        return NAN;
    return pk_busy_percent(r->stat_before->all, r->stat_after->all);
}

static int write_json(FILE *out, const pk_load_report *r)
{
    pk_json j;
    pk_json_init(&j, out);
    pk_json_begin_document(&j, PK_LOAD_SCHEMA);
    pk_json_kv_string(&j, "kind", r->kind->name);
    json_values(&j, "params", &r->params);
    pk_json_kv_string(&j, "started", r->started);
    pk_json_kv_double(&j, "duration_s", r->duration_s);
    pk_json_kv_string(&j, "stopped", r->stopped);
    pk_json_kv_string(&j, "error", r->error);
    pk_json_key(&j, "achieved");
    pk_json_begin_object(&j);
    pk_json_kv_double(&j, "cpu_percent", r->cpu_percent);
    pk_json_kv_double(&j, "system_busy_percent", system_busy(r));
    for (size_t i = 0; i < r->achieved.n; i++)
        json_value(&j, &r->achieved.v[i]);
    json_system_cpus(&j, r);
    pk_json_end_object(&j);
    pk_json_key(&j, "cleanup");
    pk_json_begin_object(&j);
    pk_json_kv_uint(&j, "processes_left", r->processes_left);
    pk_json_kv_int_or_null(&j, "descriptors_left", r->descriptors_left >= 0, r->descriptors_left);
    pk_json_kv_bool(&j, "adopts_orphans", r->adopts_orphans);
    pk_json_end_object(&j);
    return pk_json_end_command(&j, PK_LOAD_CMD);
}

/* ---- text ------------------------------------------------------------------ */

/* 160.2, 47.7, 0.25: a tenth past 100, three digits below. */
static void text_double(FILE *out, double d)
{
    if (isfinite(d))
        fprintf(out, fabs(d) >= 100 ? "%.1f" : "%.3g", d);
    else
        fputs("-", out);
}

static void text_value(FILE *out, const pk_load_value *v)
{
    switch (v->type) {
    case PK_LOAD_NULL: fputs("-", out); break;
    case PK_LOAD_UINT: fprintf(out, "%" PRIu64, v->u); break;
    case PK_LOAD_INT: fprintf(out, "%" PRId64, v->i); break;
    case PK_LOAD_DOUBLE: text_double(out, v->d); break;
    case PK_LOAD_STRING: fputs(v->s ? v->s : "-", out); break;
    case PK_LOAD_DOUBLES:
    case PK_LOAD_INTS:
        for (size_t i = 0; i < v->count; i++) {
            if (i)
                fputc(v->type == PK_LOAD_INTS ? ',' : ' ', out);
            if (v->type == PK_LOAD_DOUBLES)
                text_double(out, v->doubles[i]);
            else
                fprintf(out, "%d", v->ints[i]);
        }
        if (!v->count)
            fputs("-", out);
        break;
    }
}

static void write_text(FILE *out, const pk_load_report *r)
{
    fprintf(out, "load %s: %s after %.2f s\n  params:", r->kind->name, r->stopped, r->duration_s);
    for (size_t i = 0; i < r->params.n; i++) {
        fprintf(out, "%s %s ", i ? "," : "", r->params.v[i].key);
        text_value(out, &r->params.v[i]);
    }
    fprintf(out, "\n  %-24s ", "cpu_percent");
    text_double(out, r->cpu_percent);
    fprintf(out, " (the agent; one CPU = 100)\n  %-24s ", "system_busy_percent");
    text_double(out, system_busy(r));
    fputc('\n', out);
    for (size_t i = 0; i < r->achieved.n; i++) {
        fprintf(out, "  %-24s ", r->achieved.v[i].key);
        text_value(out, &r->achieved.v[i]);
        fputc('\n', out);
    }
    if (r->processes_left || r->descriptors_left > 0)
        fprintf(out, "  left behind: %zu processes, %d descriptors\n", r->processes_left, r->descriptors_left);
    if (r->error)
        fprintf(out, "  error: %s\n", r->error);
}

int pk_load_write_report(FILE *out, const pk_load_report *r)
{
    if (r->opt->json)
        return write_json(out, r);
    write_text(out, r);
    fflush(out);
    return PK_EXIT_OK;
}
