// Errors answered as RFC 9457 problem details (`application/problem+json`), with the
// validation errors listed so a client can point at the offending field.
import { STATUS_CODES } from 'node:http';
import type { EnclaveError, EnclaveReply, EnclaveRequest } from 'enclavejs';

export function problemDetails(error: EnclaveError, request: EnclaveRequest, reply: EnclaveReply) {
  const status = error.validation ? 400 : (error.statusCode ?? 500);
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  const problem: Record<string, unknown> = {
    type: error.validation ? 'https://bookshelf.example/problems/validation' : 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    // Internal errors keep their details in the log, not in the answer.
    detail: status >= 500 ? 'Something went wrong on our side.' : error.message,
    instance: request.url,
  };
  if (error.code) problem.code = error.code;
  if (Array.isArray(error.validation)) {
    problem.errors = error.validation.map((item: { instancePath?: string; message?: string }) => ({
      pointer: `/${error.validationContext ?? 'body'}${item.instancePath ?? ''}`,
      detail: item.message,
    }));
  }
  return reply.code(status).type('application/problem+json').send(JSON.stringify(problem));
}
