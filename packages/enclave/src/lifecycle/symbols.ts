// Per-request internal slots. Module-private to the lifecycle (not exported by the package):
// plugins get public properties and methods, never these.
export const kRoute: unique symbol = Symbol('enclave.route');
export const kSent: unique symbol = Symbol('enclave.sent');
export const kHijacked: unique symbol = Symbol('enclave.hijacked');
export const kHeaders: unique symbol = Symbol('enclave.headers');
export const kSerializer: unique symbol = Symbol('enclave.serializer');
export const kErrorHandler: unique symbol = Symbol('enclave.errorHandler');
export const kStartTime: unique symbol = Symbol('enclave.startTime');
export const kMediaType: unique symbol = Symbol('enclave.mediaType');
export const kOnErrorDone: unique symbol = Symbol('enclave.onErrorDone');
export const kInHandler: unique symbol = Symbol('enclave.inHandler');
export const kReply: unique symbol = Symbol('enclave.reply');
export const kTrailers: unique symbol = Symbol('enclave.trailers');
export const kInOnErrorHooks: unique symbol = Symbol('enclave.inOnErrorHooks');
