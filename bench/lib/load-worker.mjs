// The load generator, in its own process (never in a server's): receives jobs over IPC, runs
// autocannon for the warm-up (result discarded) and then the measured run, and sends back a
// summary. Kept alive across runs so each run does not pay a process start.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

// CPU seconds the server process used, from /proc (Linux): on a shared machine the server may
// get far less than a full core, and requests per CPU-second shows its cost regardless.
let ticksPerSecond = 100;
try {
  ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
} catch {}

function cpuSeconds(pid) {
  if (!pid) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[11] and fields[12] are utime and stime (fields 14 and 15 of proc(5)).
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return Number.NaN;
  }
}

function fire(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

process.on('message', async (job) => {
  const base = {
    url: `http://127.0.0.1:${job.port}${job.request.path}`,
    method: job.request.method,
    headers: job.request.headers ?? {},
    body: job.request.body,
    connections: job.connections,
    pipelining: job.pipelining,
    timeout: 10,
  };
  try {
    let warmup;
    if (job.warmup > 0) {
      const result = await fire({ ...base, duration: job.warmup });
      warmup = { requests: result.requests.total, non2xx: result.non2xx, errors: result.errors };
    }
    const cpuBefore = cpuSeconds(job.pid);
    const result = await fire({ ...base, duration: job.duration });
    const cpu = cpuSeconds(job.pid) - cpuBefore;
    process.send({
      id: job.id,
      ok: true,
      result: {
        rps: result.requests.average,
        total: result.requests.total,
        seconds: result.duration,
        p50: result.latency.p50,
        p99: result.latency.p99,
        latencyAverage: result.latency.average,
        throughputBytes: result.throughput.average,
        ok2xx: result['2xx'],
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        serverCpuSeconds: Number.isFinite(cpu) ? cpu : null,
        requestsPerCpuSecond: Number.isFinite(cpu) && cpu > 0 ? result.requests.total / cpu : null,
        warmup,
      },
    });
  } catch (err) {
    process.send({ id: job.id, ok: false, error: String(err?.stack ?? err) });
  }
});
