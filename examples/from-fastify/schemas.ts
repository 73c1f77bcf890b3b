// Shared schemas, added once with addSchema and referenced by `$id` from every route.
export const todoSchema = {
  $id: 'todo',
  type: 'object',
  required: ['id', 'title', 'done'],
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    done: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
  },
} as const;

export const todoInputSchema = {
  $id: 'todoInput',
  type: 'object',
  required: ['title'],
  additionalProperties: false,
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 100 },
    done: { type: 'boolean', default: false },
    tags: { type: 'array', items: { type: 'string' }, default: [] },
  },
} as const;

export const errorSchema = {
  $id: 'error',
  type: 'object',
  properties: {
    error: { type: 'string' },
    details: { type: 'array', items: { type: 'string' } },
  },
} as const;
