/* The document of a run: portkit.rt/1 with --json (docs/formats.md), else a
 * table like cyclictest's summary. Written once, after the run, with
 * everything measured so far (also after SIGINT, a break or an error). */
#include <stdio.h>
#include <string.h>

#include "pk_cli.h"
#include "pk_stats_json.h"
#include "rt_run.h"

static const char *const stop_names[] = {"completed", "interrupted", "break", "error"};

static void config_json(pk_json *j, const rt_run *run)
{
    const rt_options *o = &run->opt;
    pk_json_key(j, "config");
    pk_json_begin_object(j);
    pk_json_kv_uint(j, "interval_us", o->interval_us);
    pk_json_kv_uint(j, "distance_us", o->distance_us);
    pk_json_kv_int(j, "priority", o->priority);
    pk_json_kv_string(j, "policy", rt_policy_name(o->policy));
    pk_json_key(j, "cpus");
    pk_json_begin_array(j);
    for (int i = 0; i < o->ncpus; i++)
        pk_json_int(j, o->cpus[i]);
    pk_json_end_array(j);
    pk_json_kv_uint_or_null(j, "loops", o->loops > 0, o->loops);
    pk_json_kv_double_or_null(j, "duration_s", o->duration_ns > 0, (double)o->duration_ns / 1e9);
    pk_json_kv_bool(j, "mlock", run->mlocked);
    pk_json_kv_bool(j, "dma_latency_held", run->dma_why[0] == '\0');
    pk_json_kv_string(j, "dma_latency_why", run->dma_why[0] ? run->dma_why : NULL);
    pk_json_kv_bool(j, "rt", run->rt);
    pk_json_kv_uint(j, "bucket_ns", o->bucket_ns);
    pk_json_kv_uint(j, "buckets", o->buckets);
    pk_json_kv_uint_or_null(j, "break_us", o->break_given, o->break_us);
    pk_json_key(j, "trace_events");
    pk_json_begin_array(j);
    for (int i = 0; i < o->nevent_groups; i++)
        pk_json_string(j, o->event_groups[i]);
    pk_json_end_array(j);
    pk_json_kv_bool(j, "timerlat", o->timerlat);
    pk_json_end_object(j);
}

static void threads_json(pk_json *j, const rt_run *run)
{
    pk_json_key(j, "threads");
    pk_json_begin_array(j);
    for (int i = 0; i < run->nthreads; i++) {
        const rt_thread *t = &run->threads[i];
        pk_json_begin_object(j);
        pk_json_kv_int(j, "cpu", t->cpu);
        pk_json_kv_uint(j, "interval_us", t->interval_ns / 1000);
        pk_json_kv_uint(j, "missed", t->missed);
        pk_hist_json(j, &t->hist);
        pk_json_key(j, "series");
        pk_series_json(j, &t->series);
        pk_json_end_object(j);
    }
    pk_json_end_array(j);
}

/* Why timerlat has no samples when it was asked for. */
static const char *timerlat_why(const rt_run *run)
{
    if (!run->timerlat_tried)
        return run->stopped == RT_BREAK         ? "not run: the measurement ended at --break"
               : run->stopped == RT_INTERRUPTED ? "not run: the measurement was interrupted"
                                                : "not run: the measurement failed";
    return run->timerlat.why[0] ? run->timerlat.why : NULL;
}

static void timerlat_json(pk_json *j, const rt_run *run)
{
    const rt_timerlat *r = &run->timerlat;
    pk_json_key(j, "timerlat");
    if (!run->opt.timerlat) {
        pk_json_null(j);
        return;
    }
    pk_json_begin_object(j);
    pk_json_kv_bool(j, "available", r->available);
    pk_json_kv_bool(j, "ran", r->ran);
    pk_json_kv_string(j, "why", timerlat_why(run));
    pk_json_kv_uint(j, "period_us", run->opt.interval_us);
    pk_json_kv_double_or_null(j, "duration_s", r->ran, r->duration_s);
    pk_json_kv_uint(j, "lost_events", r->lost_events);
    pk_json_key(j, "threads");
    pk_json_begin_array(j);
    for (int i = 0; r->ran && i < r->ncpus; i++) {
        pk_json_begin_object(j);
        pk_json_kv_int(j, "cpu", r->cpus[i].cpu);
        pk_json_key(j, "irq");
        pk_json_begin_object(j);
        pk_hist_json(j, &r->cpus[i].irq);
        pk_json_end_object(j);
        pk_json_key(j, "thread");
        pk_json_begin_object(j);
        pk_hist_json(j, &r->cpus[i].thread);
        pk_json_end_object(j);
        pk_json_end_object(j);
    }
    pk_json_end_array(j);
    pk_json_end_object(j);
}

/* Why there is no trace file after a break (or NULL). */
static const char *trace_why(const rt_run *run, bool hit)
{
    if (run->trace.saved)
        return NULL;
    if (run->trace.save_why[0])
        return run->trace.save_why;
    if (run->trace.why[0])
        return run->trace.why;
    return hit ? "no trace was taken" : "no break: nothing saved";
}

static void break_json(pk_json *j, const rt_run *run)
{
    const rt_shared *s = &run->shared;
    pk_json_key(j, "break");
    if (!run->opt.break_given) {
        pk_json_null(j);
        return;
    }
    bool hit = atomic_load(&run->shared.break_claimed);
    pk_json_begin_object(j);
    pk_json_kv_uint(j, "threshold_us", run->opt.break_us);
    pk_json_kv_bool(j, "hit", hit);
    pk_json_kv_int_or_null(j, "cpu", hit, s->break_cpu);
    pk_json_kv_uint_or_null(j, "cycle", hit, s->break_cycle);
    pk_json_kv_uint_or_null(j, "latency_ns", hit, s->break_latency_ns);
    pk_json_kv_double_or_null(j, "time_s", hit, (double)s->break_time_ns / 1e9);
    pk_json_kv_string(j, "trace_file", run->trace.saved ? run->trace.file : NULL);
    pk_json_kv_string(j, "trace_why", trace_why(run, hit));
    pk_json_end_object(j);
}

static void write_json(pk_json *j, const rt_run *run)
{
    pk_json_begin_document(j, RT_SCHEMA);
    config_json(j, run);
    pk_json_key(j, "sysinfo");
    if (run->sysinfo) {
        pk_json_begin_object(j);
        rt_sysinfo_json(j, run->sysinfo);
        pk_json_end_object(j);
    } else {
        pk_json_null(j);
    }
    pk_json_kv_string(j, "started", run->started);
    pk_json_kv_double(j, "duration_s", (double)(run->end_ns - run->start_ns) / 1e9);
    pk_json_kv_string(j, "stopped", stop_names[run->stopped]);
    pk_json_kv_string(j, "error", run->stopped == RT_ERROR ? run->error : NULL);
    threads_json(j, run);
    timerlat_json(j, run);
    break_json(j, run);
    pk_json_key(j, "notes");
    pk_json_begin_array(j);
    for (int i = 0; i < run->nnotes; i++)
        pk_json_string(j, run->notes[i]);
    pk_json_end_array(j);
}

static void text_row(FILE *out, const char *label, const pk_hist *h, uint64_t missed, bool with_missed)
{
    if (!h->n) {
        fprintf(out, "%-9s %9s\n", label, "0");
        return;
    }
    fprintf(out, "%-9s %9llu", label, (unsigned long long)h->n);
    if (with_missed)
        fprintf(out, " %7llu", (unsigned long long)missed);
    else
        fprintf(out, " %7s", "");
    fprintf(out, " %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %9.2f\n", (double)h->min_ns / 1e3, pk_hist_mean_ns(h) / 1e3,
            (double)pk_hist_quantile_ns(h, 500000) / 1e3, (double)pk_hist_quantile_ns(h, 990000) / 1e3,
            (double)pk_hist_quantile_ns(h, 999000) / 1e3, pk_hist_stddev_ns(h) / 1e3, (double)h->max_ns / 1e3);
}

static void write_text(FILE *out, const rt_run *run)
{
    const rt_options *o = &run->opt;
    fprintf(out, "rt: SCHED_%s", o->policy == RT_POLICY_FIFO ? "FIFO" : o->policy == RT_POLICY_RR ? "RR" : "OTHER");
    if (o->policy != RT_POLICY_OTHER)
        fprintf(out, " priority %d", o->priority);
    fprintf(out, ", memory %s, cpu_dma_latency %s; interval %llu us", run->mlocked ? "locked" : "not locked",
            run->dma_why[0] ? "not held" : "held at 0", (unsigned long long)o->interval_us);
    if (o->distance_us)
        fprintf(out, " + %llu us per thread", (unsigned long long)o->distance_us);
    fprintf(out, "; %s after %.2f s%s\n", stop_names[run->stopped], (double)(run->end_ns - run->start_ns) / 1e9,
            run->rt ? "" : "  (not real-time)");
    fprintf(out, "%-9s %9s %7s %8s %8s %8s %8s %8s %8s %9s   (us)\n", "", "samples", "missed", "min", "avg", "p50",
            "p99", "p99.9", "stddev", "max");
    for (int i = 0; i < run->nthreads; i++) {
        char label[16];
        snprintf(label, sizeof label, "cpu %d", run->threads[i].cpu);
        text_row(out, label, &run->threads[i].hist, run->threads[i].missed, true);
    }
    if (o->timerlat && run->timerlat.ran) {
        fprintf(out, "timerlat (the kernel's tracer, %.2f s):\n", run->timerlat.duration_s);
        for (int i = 0; i < run->timerlat.ncpus; i++) {
            char label[16];
            snprintf(label, sizeof label, "%d irq", run->timerlat.cpus[i].cpu);
            text_row(out, label, &run->timerlat.cpus[i].irq, 0, false);
            snprintf(label, sizeof label, "%d thread", run->timerlat.cpus[i].cpu);
            text_row(out, label, &run->timerlat.cpus[i].thread, 0, false);
        }
    } else if (o->timerlat) {
        fprintf(out, "timerlat: %s\n", timerlat_why(run));
    }
    if (o->break_given) {
        bool hit = atomic_load(&run->shared.break_claimed);
        if (hit)
            fprintf(out, "break: %.3f us on cpu %d at cycle %llu (threshold %llu us); trace: %s\n",
                    (double)run->shared.break_latency_ns / 1e3, run->shared.break_cpu,
                    (unsigned long long)run->shared.break_cycle, (unsigned long long)o->break_us,
                    run->trace.saved ? run->trace.file : trace_why(run, hit));
        else
            fprintf(out, "break: no latency reached %llu us\n", (unsigned long long)o->break_us);
    }
    if (run->dma_why[0] && strcmp(run->dma_why, "--no-dma-latency"))
        fprintf(out, "note: %s\n", run->dma_why);
    for (int i = 0; i < run->nnotes; i++)
        fprintf(out, "note: %s\n", run->notes[i]);
    for (int i = 0; run->sysinfo && i < run->sysinfo->nwarnings; i++)
        fprintf(out, "warning: %s: %s\n", run->sysinfo->warnings[i].about, run->sysinfo->warnings[i].message);
}

int rt_write_document(rt_run *run)
{
    int status = PK_EXIT_OK;
    if (run->opt.json) {
        pk_json j;
        pk_json_init(&j, stdout);
        write_json(&j, run);
        status = pk_json_end_command(&j, RT_CMD);
    } else {
        write_text(stdout, run);
        fflush(stdout);
    }
    if (status != PK_EXIT_OK)
        return status;
    if (run->stopped == RT_ERROR)
        return pk_fail(PK_EXIT_ENV, RT_CMD, "%s", run->error);
    return run->stopped == RT_BREAK ? PK_EXIT_FINDINGS : PK_EXIT_OK;
}
