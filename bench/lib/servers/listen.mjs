// Listens a plain node:http server (raw, Express, Koa, Hono) the way Enclave and Fastify listen
// theirs, and closes it without waiting for keep-alive sockets to time out.

/** Resolves `{ port, close }` once `server` listens on `host:port` (port 0 = a free one). */
export function listenServer(server, { port = 0, host = '127.0.0.1' } = {}) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({
        port: server.address().port,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
