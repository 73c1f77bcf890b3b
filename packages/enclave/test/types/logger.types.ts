// Type tests: the logger types (`FastifyBaseLogger`, `LogLevel`) and where a custom logger's type reaches.
import enclave, { type FastifyBaseLogger, type FastifyLogFn, type LogLevel } from 'enclavejs';
import { expectTypeOf } from 'expect-type';

const log = enclave().log;
// Every level, `silent` included, has its method: a level held in a variable indexes the logger.
declare const level: LogLevel;
expectTypeOf(log[level]).toEqualTypeOf<FastifyLogFn>();
expectTypeOf(log[level]('message')).toEqualTypeOf<void>();

// `child` takes pino's child options; an unknown one is refused.
expectTypeOf(log.child({}, { level: 'silent', redact: ['password'] })).toEqualTypeOf<FastifyBaseLogger>();
// @ts-expect-error `nonExist` is not a child logger option
log.child({}, { nonExist: true });
