// Type-checked (not run) by exports.test.ts as a CommonJS consumer with module node16:
// `require` types must give the callable itself, with `.default` and the public namespace.
import bearerAuth = require('@enclavejs/bearer-auth');
import plugin = require('@enclavejs/plugin');
import enclave = require('enclavejs');

const app = enclave();
const viaDefault: ReturnType<typeof enclave> = enclave.default();
const viaNamed: ReturnType<typeof enclave> = enclave.enclave();
app.register(bearerAuth, { keys: ['secret'] });
app.register(bearerAuth.default, { keys: ['secret'] });
const code: string = enclave.errorCodes.FST_ERR_NOT_FOUND.code;

const meta: plugin.PluginMetadata = { name: 'typed', encapsulate: true };
const typed = async (_instance: unknown, options: { level: number }) => void options.level;
const marked: typeof typed = plugin(typed, meta);
const markedByDefault: typeof typed = plugin.default(typed);

export = { code, marked, markedByDefault, viaDefault, viaNamed };
