/** Upper bounds of the latency buckets, in seconds (Prometheus client defaults, which suit an API). */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface CacheStats {
  hits: number;
  misses: number;
}
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** What a scrape reads besides the request counters; each read costs nothing on the request path. */
export interface MetricSources {
  caches: Record<string, () => CacheStats>;
  pool?: () => PoolStats;
  info: Record<string, string>;
}

/** One method and route pattern: answers by status, and the latency histogram. */
interface Series {
  method: string;
  route: string;
  answers: Map<number, number>;
  buckets: number[];
  sum: number;
  count: number;
}

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const labels = (pairs: Record<string, string>) =>
  `{${Object.entries(pairs)
    .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
    .join(',')}}`;

/**
 * Request counters and latency histograms by method and route pattern (never the raw path, so the
 * series count stays bounded), rendered in the Prometheus text format on demand. Kept in nested Maps
 * so that counting an answer builds no key: it runs on every request.
 */
export class RequestMetrics {
  private readonly series = new Map<string, Map<string, Series>>();

  /** `route` is the matched pattern; undefined when no route matched. */
  observe(method: string, route: string | undefined, status: number, seconds: number): void {
    const pattern = route ?? 'unmatched';
    let byRoute = this.series.get(method);
    if (!byRoute) this.series.set(method, (byRoute = new Map()));
    let series = byRoute.get(pattern);
    if (!series) {
      series = {
        method,
        route: pattern,
        answers: new Map(),
        buckets: new Array<number>(LATENCY_BUCKETS.length).fill(0),
        sum: 0,
        count: 0,
      };
      byRoute.set(pattern, series);
    }
    series.answers.set(status, (series.answers.get(status) ?? 0) + 1);
    for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
      if (seconds <= LATENCY_BUCKETS[i]!) {
        series.buckets[i]!++;
        break;
      }
    }
    series.sum += seconds;
    series.count++;
  }

  render(): string[] {
    const all = [...this.series.values()].flatMap((byRoute) => [...byRoute.values()]);
    const lines = [
      '# HELP crmkit_http_requests_total HTTP answers by method, route pattern and status.',
      '# TYPE crmkit_http_requests_total counter',
    ];
    for (const { method, route, answers } of all) {
      for (const [status, count] of answers)
        lines.push(`crmkit_http_requests_total${labels({ method, route, status: String(status) })} ${count}`);
    }
    lines.push(
      '# HELP crmkit_http_request_duration_seconds Time from request received to answer sent.',
      '# TYPE crmkit_http_request_duration_seconds histogram',
    );
    for (const { method, route, buckets, sum, count } of all) {
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((bound, i) => {
        cumulative += buckets[i]!;
        lines.push(
          `crmkit_http_request_duration_seconds_bucket${labels({ method, route, le: String(bound) })} ${cumulative}`,
        );
      });
      lines.push(
        `crmkit_http_request_duration_seconds_bucket${labels({ method, route, le: '+Inf' })} ${count}`,
        `crmkit_http_request_duration_seconds_sum${labels({ method, route })} ${sum}`,
        `crmkit_http_request_duration_seconds_count${labels({ method, route })} ${count}`,
      );
    }
    return lines;
  }
}

function cacheLines(caches: MetricSources['caches']): string[] {
  const hits = [
    '# HELP crmkit_cache_hits_total Lookups answered from memory.',
    '# TYPE crmkit_cache_hits_total counter',
  ];
  const misses = [
    '# HELP crmkit_cache_misses_total Lookups that went to the store.',
    '# TYPE crmkit_cache_misses_total counter',
  ];
  const ratio = ['# HELP crmkit_cache_hit_ratio Hits over lookups since start.', '# TYPE crmkit_cache_hit_ratio gauge'];
  for (const [name, read] of Object.entries(caches)) {
    const stats = read();
    const label = labels({ cache: name });
    hits.push(`crmkit_cache_hits_total${label} ${stats.hits}`);
    misses.push(`crmkit_cache_misses_total${label} ${stats.misses}`);
    const lookups = stats.hits + stats.misses;
    if (lookups > 0) ratio.push(`crmkit_cache_hit_ratio${label} ${stats.hits / lookups}`);
  }
  return [...hits, ...misses, ...ratio];
}

function poolLines(read: () => PoolStats): string[] {
  const pool = read();
  return [
    '# HELP crmkit_db_pool_connections PostgreSQL connections of this process by state.',
    '# TYPE crmkit_db_pool_connections gauge',
    `crmkit_db_pool_connections{state="busy"} ${pool.total - pool.idle}`,
    `crmkit_db_pool_connections{state="idle"} ${pool.idle}`,
    '# HELP crmkit_db_pool_waiting Queries waiting for a free connection.',
    '# TYPE crmkit_db_pool_waiting gauge',
    `crmkit_db_pool_waiting ${pool.waiting}`,
  ];
}

function processLines(info: Record<string, string>): string[] {
  const memory = process.memoryUsage();
  return [
    '# HELP crmkit_build_info The running build and store.',
    '# TYPE crmkit_build_info gauge',
    `crmkit_build_info${labels(info)} 1`,
    '# HELP process_resident_memory_bytes Resident memory size.',
    '# TYPE process_resident_memory_bytes gauge',
    `process_resident_memory_bytes ${memory.rss}`,
    '# HELP nodejs_heap_used_bytes V8 heap in use.',
    '# TYPE nodejs_heap_used_bytes gauge',
    `nodejs_heap_used_bytes ${memory.heapUsed}`,
    '# HELP process_uptime_seconds Seconds since the process started.',
    '# TYPE process_uptime_seconds gauge',
    `process_uptime_seconds ${process.uptime()}`,
  ];
}

/** The whole exposition, one scrape. */
export function renderMetrics(requests: RequestMetrics, sources: MetricSources): string {
  const lines = [...processLines(sources.info), ...requests.render(), ...cacheLines(sources.caches)];
  if (sources.pool) lines.push(...poolLines(sources.pool));
  return `${lines.join('\n')}\n`;
}
