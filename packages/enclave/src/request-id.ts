// Request ids: the default generator and the `requestIdHeader` wrapper, shared by the factory's
// `genReqId` option and `setGenReqId()`.

export function createCountingGenerator(): (raw: any) => string {
  let next = 0;
  return () => {
    next = (next + 1) % Number.MAX_SAFE_INTEGER;
    return `req-${next.toString(36)}`;
  };
}

/** The id of a request: from `requestIdHeader` when the client sent one, else generated. */
export function createIdGenerator(header: string | false, generate: (raw: any) => string): (raw: any) => string {
  if (header === false) return generate;
  return (raw) => {
    const value = raw.headers[header];
    // A client-chosen id is bounded so it cannot bloat every log line.
    if (typeof value === 'string' && value !== '' && value.length <= 256) return value;
    return generate(raw);
  };
}
