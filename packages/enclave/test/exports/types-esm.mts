// Type-checked (not run) by exports.test.ts as an ES-module consumer with module node16:
// the built packages' `import` types must give callable defaults and the named exports.
import bearerAuth from '@enclavejs/bearer-auth';
import plugin, { type PluginMetadata, plugin as namedPlugin } from '@enclavejs/plugin';
import enclave, { errorCodes, enclave as named } from 'enclavejs';

const app = enclave();
const sameApp: ReturnType<typeof enclave> = named();
app.register(bearerAuth, { keys: ['secret'] });
const code: string = errorCodes.FST_ERR_NOT_FOUND.code;
const notFound: Error = new errorCodes.FST_ERR_NOT_FOUND();

const meta: PluginMetadata = { name: 'typed', dependencies: ['db'] };
const typed = async (_instance: unknown, options: { level: number }) => void options.level;
const marked: typeof typed = plugin(typed, meta);
const markedAgain: typeof typed = namedPlugin(typed, '5.x');
app.register(plugin(async (instance) => void instance, { name: 'inline' }));

export { code, marked, markedAgain, notFound, sameApp };
