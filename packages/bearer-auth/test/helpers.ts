// Shared helpers for the bearer-auth tests: an app with a captured error log, and a short
// way to send a GET with (or without) an Authorization header through `inject`.
import enclave from 'enclavejs';

export interface LogLine {
  level: number;
  msg: string;
  err?: { message: string; type: string };
}

/** A fresh app whose error-level log lines are collected in `logs`. */
export function createApp() {
  const logs: LogLine[] = [];
  const stream = { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) };
  const app = enclave({ logger: { level: 'error', stream } });
  return { app, logs };
}

/** The app `createApp` builds (its type inferred from the call, so plugin callbacks stay typed). */
export type App = ReturnType<typeof createApp>['app'];

export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
  json(): unknown;
}

/** GET `url`; `authorization` is sent as given, or left out when `undefined`. */
export async function get(app: App, url: string, authorization?: string): Promise<Answer> {
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  return (await app.inject({ method: 'GET', url, headers })) as unknown as Answer;
}

/** The `WWW-Authenticate` challenge for a missing header and for a rejected one. */
export const challenge = {
  missing: 'Bearer',
  invalid: 'Bearer error="invalid_token"',
} as const;

export const missingBody = { error: 'missing authorization header' };
export const invalidBody = { error: 'invalid authorization header' };
