// The rate limit is one counter per client in Redis, not one per process: requests from one
// client spread over every process (directly by port, and through nginx) use up a single
// allowance, and once it is spent every process answers 429.
import { randomBytes } from 'node:crypto';
import { get } from 'node:http';
import type { Cluster } from './cluster.js';

interface Answer {
  status: number;
  remaining: number;
  instance: string;
}

function ask(port: number, key: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = get({ host: '127.0.0.1', port, path: '/books/1', headers: { 'x-api-key': key }, agent: false, timeout: 5000 }, (response) => {
      response.resume();
      response.once('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          remaining: Number(response.headers['x-ratelimit-remaining']),
          instance: String(response.headers['x-instance']),
        }),
      );
    });
    request.once('timeout', () => request.destroy(new Error('timed out')));
    request.once('error', reject);
  });
}

/** Returns the lines of the report; throws on the first broken expectation. */
export async function checkSharedLimit(cluster: Cluster, max: number): Promise<string[]> {
  const targets = [
    ...cluster.instances.map((instance) => ({ label: `${instance.name} (127.0.0.1:${instance.port})`, port: instance.port })),
    { label: `nginx (127.0.0.1:${cluster.nginxPort})`, port: cluster.nginxPort },
  ];
  const key = `probe-${randomBytes(6).toString('hex')}`;
  const used = new Map<string, number>();
  // The allowance, spent round-robin over the processes and nginx: each answer's remaining count
  // is one below the previous one, whoever gave it — the processes share one counter.
  for (let count = 1; count <= max; count += 1) {
    const target = targets[(count - 1) % targets.length] as (typeof targets)[number];
    const answer = await ask(target.port, key);
    if (answer.status !== 200) throw new Error(`request ${count} of ${max} to ${target.label}: ${answer.status}, expected 200`);
    if (answer.remaining !== max - count) {
      throw new Error(`request ${count} to ${target.label}: x-ratelimit-remaining ${answer.remaining}, expected ${max - count}`);
    }
    used.set(answer.instance, (used.get(answer.instance) ?? 0) + 1);
  }
  const lines = [
    `client ${key}: ${max} requests spread over ${[...used].map(([name, count]) => `${name} ×${count}`).join(', ')}; ` +
      `x-ratelimit-remaining fell ${max - 1} → 0, one step per request, across processes`,
  ];
  // Over the limit now: every process, and nginx, refuses this client.
  for (const target of targets) {
    const answer = await ask(target.port, key);
    if (answer.status !== 429) throw new Error(`over the limit, ${target.label} answered ${answer.status}, expected 429`);
    lines.push(`request ${max + 1}+ to ${target.label}: 429 (answered by ${answer.instance})`);
  }
  // …and only this client: another key still passes everywhere.
  const other = `probe-${randomBytes(6).toString('hex')}`;
  for (const target of targets) {
    const answer = await ask(target.port, other);
    if (answer.status !== 200) throw new Error(`another client on ${target.label}: ${answer.status}, expected 200`);
  }
  lines.push(`another client (${other}): 200 from every process and nginx`);
  return lines;
}
