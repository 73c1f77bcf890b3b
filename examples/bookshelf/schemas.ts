// Shared schemas, added once and reused by `$ref` from routes in every scope.
export const bookSchema = {
  $id: 'https://bookshelf.example/schemas/book',
  type: 'object',
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    author: { type: 'string' },
    year: { type: 'integer' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['id', 'title', 'author', 'year', 'tags'],
} as const;

const editableFields = {
  title: { type: 'string', minLength: 1, maxLength: 200 },
  author: { type: 'string', minLength: 1, maxLength: 100 },
  year: { type: 'integer', minimum: 0, maximum: 2100 },
  tags: { type: 'array', items: { type: 'string', maxLength: 30 }, maxItems: 10 },
  supplierCost: { type: 'number', minimum: 0 },
} as const;

export const newBookSchema = {
  $id: 'https://bookshelf.example/schemas/new-book',
  type: 'object',
  additionalProperties: false,
  properties: { ...editableFields, tags: { ...editableFields.tags, default: [] } },
  required: ['title', 'author', 'year'],
} as const;

/** A partial update: the same fields, none required, at least one given. */
export const bookPatchSchema = {
  type: 'object',
  additionalProperties: false,
  properties: editableFields,
  minProperties: 1,
} as const;

export const idParamsSchema = {
  $id: 'https://bookshelf.example/schemas/id-params',
  type: 'object',
  properties: { id: { type: 'integer', minimum: 1 } },
  required: ['id'],
} as const;
