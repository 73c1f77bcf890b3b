// An in-memory catalogue, seeded at start. Each book carries an internal field
// (`supplierCost`) that the response schemas keep out of every answer.
export interface Book {
  id: number;
  title: string;
  author: string;
  year: number;
  tags: string[];
  supplierCost: number;
}

export type NewBook = Omit<Book, 'id' | 'supplierCost'> & { supplierCost?: number };

const seed: NewBook[] = [
  { title: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin', year: 1969, tags: ['sf', 'classic'], supplierCost: 4.1 },
  { title: 'Kindred', author: 'Octavia E. Butler', year: 1979, tags: ['sf', 'history'], supplierCost: 3.7 },
  { title: 'The Name of the Rose', author: 'Umberto Eco', year: 1980, tags: ['mystery', 'history'], supplierCost: 5.2 },
  { title: 'A Wizard of Earthsea', author: 'Ursula K. Le Guin', year: 1968, tags: ['fantasy', 'classic'], supplierCost: 3.9 },
  { title: 'Piranesi', author: 'Susanna Clarke', year: 2020, tags: ['fantasy'], supplierCost: 6.0 },
];

export class Bookshelf {
  private readonly books = new Map<number, Book>();
  private nextId = 1;

  constructor(initial: NewBook[] = seed) {
    for (const book of initial) this.add(book);
  }

  list(filter: { author?: string | undefined; tag?: string[] | undefined; q?: string | undefined; limit: number; offset: number }): Book[] {
    const query = filter.q?.toLowerCase();
    return [...this.books.values()]
      .filter((book) => filter.author === undefined || book.author === filter.author)
      .filter((book) => filter.tag === undefined || filter.tag.every((tag) => book.tags.includes(tag)))
      .filter((book) => query === undefined || book.title.toLowerCase().includes(query))
      .slice(filter.offset, filter.offset + filter.limit);
  }

  get(id: number): Book | undefined {
    return this.books.get(id);
  }

  add(book: NewBook): Book {
    const created: Book = { ...book, id: this.nextId++, supplierCost: book.supplierCost ?? 0 };
    this.books.set(created.id, created);
    return created;
  }

  update(id: number, changes: Partial<NewBook>): Book | undefined {
    const book = this.books.get(id);
    if (book === undefined) return undefined;
    const updated = { ...book, ...changes, id };
    this.books.set(id, updated);
    return updated;
  }

  remove(id: number): boolean {
    return this.books.delete(id);
  }
}
