// The HTTP/2 side of close(): sessions are what a keep-alive connection is to HTTP/1.
//
// session.close() is graceful (a GOAWAY: streams already open finish, new ones are refused),
// but a stream the client sent just before the GOAWAY reached it is refused too. So, as with
// HTTP/1, a session is closed once it stayed quiet for a grace period after closing began, and a
// request arriving in the meantime is answered (503, or served) before its session is closed.

import { whenStillIdle } from './idle-check.js';

/** The part of a Node Http2Session close() needs. */
interface Session {
  close(): void;
  destroyed: boolean;
  closed: boolean;
  /** Node's proxy of the session's socket: reading byte counts through it is allowed. */
  socket?: { bytesRead?: number; bytesWritten?: number } | null;
  once(event: 'close', listener: () => void): unknown;
}

/** Open HTTP/2 sessions per server. */
const http2Sessions = new WeakMap<object, Set<Session>>();

/** Tracks the sessions of an HTTP/2 server (called once, where the server is created). */
export function trackHttp2Sessions(server: { on(event: 'session', listener: (session: Session) => void): unknown }): void {
  const sessions = new Set<Session>();
  http2Sessions.set(server, sessions);
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
}

/** Whether `server` is an HTTP/2 one (its TCP sockets belong to sessions). */
export function isHttp2Server(server: object): boolean {
  return http2Sessions.has(server);
}

/** Closes every session now (forceCloseConnections: true), gracefully as Fastify does. */
export function closeHttp2Sessions(server: object): void {
  for (const session of http2Sessions.get(server) ?? []) if (!session.closed && !session.destroyed) session.close();
}

function traffic(session: Session): number {
  const socket = session.socket;
  return (socket?.bytesRead ?? 0) + (socket?.bytesWritten ?? 0);
}

/**
 * One look of close()'s periodic sweep: closes the sessions that exchanged nothing since the
 * previous look. `lastSeen` carries what each session had exchanged then.
 */
export function sweepHttp2Sessions(server: object, lastSeen: WeakMap<object, number>): void {
  for (const session of http2Sessions.get(server) ?? []) {
    if (session.closed || session.destroyed) continue;
    const now = traffic(session);
    if (lastSeen.get(session) === now) {
      whenStillIdle(
        () => !session.closed && !session.destroyed && traffic(session) === now,
        () => session.close(),
      );
    } else lastSeen.set(session, now);
  }
}

/** A request arriving while closing: its session takes no further stream once it is answered. */
export function closeSessionOf(stream: { session?: Session | null } | undefined): void {
  const session = stream?.session;
  if (session != null && !session.closed && !session.destroyed) session.close();
}
