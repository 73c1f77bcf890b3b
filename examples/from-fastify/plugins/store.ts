// An in-memory store, shared with the whole application: fastify-plugin keeps the `store`
// decorator in the context that registered the plugin instead of a child context.
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

export interface Todo {
  id: number;
  title: string;
  done: boolean;
  tags: string[];
}

export class TodoStore {
  #todos = new Map<number, Todo>();
  #nextId = 1;

  list(): Todo[] {
    return [...this.#todos.values()];
  }

  get(id: number): Todo | undefined {
    return this.#todos.get(id);
  }

  findByTitle(title: string): Todo | undefined {
    return this.list().find((todo) => todo.title === title);
  }

  add(input: Omit<Todo, 'id'>): Todo {
    const todo = { id: this.#nextId++, ...input };
    this.#todos.set(todo.id, todo);
    return todo;
  }

  update(id: number, changes: Partial<Omit<Todo, 'id'>>): Todo | undefined {
    const todo = this.#todos.get(id);
    if (todo === undefined) return undefined;
    Object.assign(todo, changes);
    return todo;
  }

  remove(id: number): boolean {
    return this.#todos.delete(id);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    store: TodoStore;
  }
}

const storePlugin: FastifyPluginAsync<{ seed?: Array<Omit<Todo, 'id'>> }> = async (fastify, options) => {
  const store = new TodoStore();
  for (const todo of options.seed ?? []) store.add(todo);
  fastify.decorate('store', store);
};

export default fp(storePlugin, { name: 'todo-store' });
