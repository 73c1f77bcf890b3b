// The floor of the type-check benchmark: importing Enclave's types and creating an app, no routes.
import enclave from 'enclavejs';

export const app = enclave();
