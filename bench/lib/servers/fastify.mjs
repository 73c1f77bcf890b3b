import Fastify from 'fastify';
import { startFastifyFamily } from './fastify-family.mjs';

export function start(scenario, options) {
  return startFastifyFamily(Fastify, scenario, options);
}
