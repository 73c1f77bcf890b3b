import enclave from 'enclavejs';
import { startFastifyFamily } from './fastify-family.mjs';

export function start(scenario, options) {
  return startFastifyFamily(enclave, scenario, options);
}
