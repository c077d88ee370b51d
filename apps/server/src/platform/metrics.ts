/**
 * What the server counts for Prometheus (`GET /metrics`, issue 29): one registry per app instance
 * (tests build many apps in one process), never prom-client's global one.
 *
 * The hot paths (the redirect, the conversions API, the group commit) only add to plain numbers:
 * a `Count` is a field incremented in place, a `Buckets` a few typed-array slots — nothing is
 * allocated per request and no label set is hashed (prom-client's own labelled `observe` took
 * ~4 µs a call on this machine, a redirect's whole CPU time being 27–100 µs; docs/benchmarks-history.md,
 * "Metrics"). The registry
 * reads these numbers when it is scraped, through families that present them in prom-client's
 * metric shape. Gauges of state (queue depths, the database pool) are read when scraped.
 */
import { collectDefaultMetrics, Registry, type Metric, type MetricValue } from 'prom-client';

/** Request latency bounds (seconds). */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Group-commit duration bounds (seconds). */
const COMMIT_SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];
/** Group-commit size bounds (items). */
const COMMIT_ITEMS_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500];

/** A counter as a plain number: `n++` on the hot path. */
class Count {
  n = 0;
}

/** A histogram's observations as plain numbers: per-bucket counts (not cumulative), sum and count. */
class Buckets {
  count = 0;
  sum = 0;
  readonly counts: Float64Array;
  constructor(readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length);
  }
  observe(value: number): void {
    this.count++;
    this.sum += value;
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        this.counts[i]!++;
        return;
      }
    }
  }
}

type Labels = Record<string, string>;

/**
 * A family of series (counters or histograms) presented to a prom-client registry: prom-client's
 * Registry reads a metric through `get()` (and its name, help and type); this is that shape, over
 * series kept as plain numbers.
 */
abstract class Family<S> {
  readonly aggregator = 'sum' as const;
  protected readonly series: { labels: Labels; value: S }[] = [];
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'histogram' | 'gauge',
  ) {}
  /** A series of this family (made once, kept by its caller). */
  add(labels: Labels, value: S): S {
    this.series.push({ labels, value });
    return value;
  }
  abstract values(): Sample[] | Promise<Sample[]>;
  async get() {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values: await this.values() };
  }
  reset() {}
}

type Sample = MetricValue<string> & { metricName?: string };
/** A value read when scraped: one number, one per label set, or undefined (left out). */
export type Reading = number | { labels: Labels; value: number }[] | undefined;

class ReadFamily extends Family<never> {
  constructor(name: string, help: string, type: 'gauge' | 'counter', private readonly read: () => Reading | Promise<Reading>, private readonly timeoutMs: number) {
    super(name, help, type);
  }
  async values(): Promise<Sample[]> {
    let reading: Reading;
    try {
      reading = await withTimeout(Promise.resolve(this.read()), this.timeoutMs);
    } catch {
      return [];
    }
    if (reading === undefined) return [];
    return typeof reading === 'number' ? [{ labels: {}, value: reading }] : reading.map((r) => ({ labels: r.labels, value: r.value }));
  }
}

class CounterFamily extends Family<Count> {
  constructor(name: string, help: string) {
    super(name, help, 'counter');
  }
  count(labels: Labels = {}): Count {
    return this.add(labels, new Count());
  }
  values() {
    return this.series.map((s) => ({ labels: s.labels, value: s.value.n }));
  }
}

class HistogramFamily extends Family<Buckets> {
  constructor(name: string, help: string, private readonly bounds: readonly number[]) {
    super(name, help, 'histogram');
  }
  buckets(labels: Labels = {}): Buckets {
    return this.add(labels, new Buckets(this.bounds));
  }
  values() {
    const out: Sample[] = [];
    for (const { labels, value } of this.series) {
      let cumulative = 0;
      value.bounds.forEach((bound, i) => {
        cumulative += value.counts[i]!;
        out.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: bound }, value: cumulative });
      });
      out.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: '+Inf' }, value: value.count });
      out.push({ metricName: `${this.name}_sum`, labels, value: value.sum });
      out.push({ metricName: `${this.name}_count`, labels, value: value.count });
    }
    return out;
  }
}

const CONVERSION_KINDS = ['lead', 'sale', 'refund'] as const;
/** created: stored (201); repeat: stored before (200); refused: a catalogue error (an ended campaign, a bad refund…); failed: anything else (the database unavailable included). */
const CONVERSION_OUTCOMES = ['created', 'repeat', 'refused', 'failed'] as const;
/** An attempt at a webhook delivery: succeeded (2xx), retry (another attempt is scheduled), failed (no more attempts). */
const DELIVERY_OUTCOMES = ['succeeded', 'retry', 'failed'] as const;
/** An attempt at a mail: sent, retry (another attempt is scheduled), failed (refused for good, or no more attempts). */
const MAIL_OUTCOMES = ['sent', 'retry', 'failed'] as const;

type Table<K extends string, O extends string> = Record<K, Record<O, Count>>;

/** Requests by route pattern (never the raw address: bounded cardinality), method and status. */
class RouteSeries {
  /** method → status → latency buckets; made on first use (the routes × methods × statuses a server answers with). */
  private readonly byMethod = new Map<string, Map<number, Buckets>>();
  constructor(private readonly family: HistogramFamily, private readonly route: string) {}
  observe(method: string, status: number, seconds: number): void {
    let byStatus = this.byMethod.get(method);
    if (!byStatus) this.byMethod.set(method, (byStatus = new Map()));
    let buckets = byStatus.get(status);
    if (!buckets) byStatus.set(status, (buckets = this.family.buckets({ method, route: this.route, status: String(status) })));
    buckets.observe(seconds);
  }
}

interface MetricsOptions {
  /** prom-client's process metrics (memory, CPU, event-loop lag, GC): only when /metrics is served. */
  process: boolean;
}

export class Metrics {
  readonly registry = new Registry();
  private readonly http = new HistogramFamily('pa_http_request_duration_seconds', 'HTTP requests by route pattern, method and status, and how long they took (its _count is the number of requests).', LATENCY_BUCKETS);
  private readonly routes = new Map<string, RouteSeries>();
  /** Tracked redirects answered 302. */
  readonly redirects: Count;
  readonly conversions: Table<(typeof CONVERSION_KINDS)[number], (typeof CONVERSION_OUTCOMES)[number]>;
  readonly webhookDeliveries: Record<(typeof DELIVERY_OUTCOMES)[number], Count>;
  readonly mails: Record<(typeof MAIL_OUTCOMES)[number], Count>;
  /** Group commits: items per commit, and how long each took (its work, flush and commit). */
  readonly groupCommitItems: Buckets;
  readonly groupCommitSeconds: Buckets;
  /** The last ledger check this process ran (null: none yet). */
  ledgerCheck: { breaches: number; at: number } | null = null;

  constructor(options: MetricsOptions) {
    const counters = (name: string, help: string) => this.family(new CounterFamily(name, help));
    this.family(this.http);
    this.redirects = counters('pa_redirects_total', 'Tracked redirects answered 302.').count();
    const conversions = counters('pa_conversions_total', 'Conversions reported (API and Stripe) by kind and outcome.');
    this.conversions = table(CONVERSION_KINDS, CONVERSION_OUTCOMES, (kind, outcome) => conversions.count({ kind, outcome }));
    const deliveries = counters('pa_webhook_deliveries_total', 'Webhook delivery attempts by outcome.');
    this.webhookDeliveries = row(DELIVERY_OUTCOMES, (outcome) => deliveries.count({ outcome }));
    const mails = counters('pa_mails_total', 'Mail sending attempts by outcome.');
    this.mails = row(MAIL_OUTCOMES, (outcome) => mails.count({ outcome }));
    this.groupCommitItems = this.family(new HistogramFamily('pa_group_commit_items', 'Items (clicks, conversions) written per group commit.', COMMIT_ITEMS_BUCKETS)).buckets();
    this.groupCommitSeconds = this.family(new HistogramFamily('pa_group_commit_duration_seconds', 'How long a group commit took, from its first try to its commit.', COMMIT_SECONDS_BUCKETS)).buckets();
    this.read('pa_ledger_check_breaches', 'Breaches the last ledger check run by this process found (absent until one has run).', 'gauge', () => this.ledgerCheck?.breaches);
    this.read('pa_ledger_check_timestamp_seconds', 'When this process last ran the ledger check (absent until one has run).', 'gauge', () => (this.ledgerCheck ? this.ledgerCheck.at / 1000 : undefined));
    if (options.process) collectDefaultMetrics({ register: this.registry });
  }

  /** The series of one route pattern (a route's hook keeps it: nothing is looked up per request). */
  route(pattern: string): RouteSeries {
    let series = this.routes.get(pattern);
    if (!series) this.routes.set(pattern, (series = new RouteSeries(this.http, pattern)));
    return series;
  }

  /** A group commit was written: `items` in it, `seconds` from its start to its commit. */
  readonly groupCommitted = (items: number, seconds: number): void => {
    this.groupCommitItems.observe(items);
    this.groupCommitSeconds.observe(seconds);
  };

  /** The ledger check ran (the console's, or the scheduled one) and found `breaches`. */
  ledgerChecked(breaches: number, at = Date.now()): void {
    this.ledgerCheck = { breaches, at };
  }

  /**
   * A gauge or counter whose value is read when scraped: one number, or one per label set
   * (undefined: left out this time). A read that fails or takes longer than `timeoutMs` leaves it
   * out of this scrape rather than holding the scrape up (a queue depth while the database is out
   * of reach).
   */
  read(name: string, help: string, type: 'gauge' | 'counter', read: () => Reading | Promise<Reading>, timeoutMs = 1000): void {
    this.family(new ReadFamily(name, help, type, read, timeoutMs));
  }

  /** The Prometheus text format, and its content type. */
  async scrape(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  private family<F extends Family<unknown>>(family: F): F {
    // prom-client's registry takes any metric of its shape (name, help, type, get); it is typed as its own classes.
    this.registry.registerMetric(family as unknown as Metric);
    return family;
  }
}

/** `promise`, or a rejection after `ms`. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function row<O extends string>(outcomes: readonly O[], make: (outcome: O) => Count): Record<O, Count> {
  return Object.fromEntries(outcomes.map((o) => [o, make(o)])) as Record<O, Count>;
}

function table<K extends string, O extends string>(kinds: readonly K[], outcomes: readonly O[], make: (kind: K, outcome: O) => Count): Table<K, O> {
  return Object.fromEntries(kinds.map((k) => [k, row(outcomes, (o) => make(k, o))])) as Table<K, O>;
}
