// The module `fastify`, as Enclave's own types. The @fastify plugins' declarations import their
// types from `fastify` and augment its interfaces (`declare module 'fastify' { interface
// FastifyInstance { jwt: … } }`). Declared here, the module exists wherever Enclave's types are
// loaded: without Fastify installed, with Enclave installed under the name `fastify` (an npm
// alias), and with a real Fastify installed as another package's dependency (an ambient module
// declaration wins over a file the name would resolve to). Its value is Enclave's namespace, so
// a plugin's augmentation merges into Enclave's own interfaces, exactly as `declare module
// 'enclavejs'` does. `enclavejs` resolves here by the package's own name (its exports map), also
// when the package is installed as `fastify`. Referenced from dist/index.d.ts by the build.
declare module 'fastify' {
  import enclave = require('enclavejs');
  export = enclave;
}

// The deeper paths a plugin's declarations import (@fastify/websocket: types/hooks, reply, route).
declare module 'fastify/types/hooks' {
  import enclave = require('enclavejs');
  export = enclave;
}
declare module 'fastify/types/reply' {
  import enclave = require('enclavejs');
  export = enclave;
}
declare module 'fastify/types/route' {
  import enclave = require('enclavejs');
  export = enclave;
}
