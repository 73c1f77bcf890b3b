// Issue 9: the real @fastify/multipart, unmodified, on Enclave. It registers a
// multipart/form-data parser that leaves the body stream to request.file()/parts(), decorates
// the request, reads `initialConfig.bodyLimit` and `routeOptions.config`, and cleans up from
// an onResponse hook. One test uploads through a real socket.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { describe, test } from 'node:test';
import multipart from '@fastify/multipart';
import enclave from 'enclavejs';
import FormData from 'form-data';

function upload(fields: Record<string, string>, files: Record<string, [Buffer, string, string?]>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, [content, filename, contentType]] of Object.entries(files))
    form.append(name, content, { filename, contentType: contentType ?? 'application/octet-stream' });
  return { method: 'POST' as const, url: '/', payload: form.getBuffer(), headers: form.getHeaders() };
}

describe('@fastify/multipart', () => {
  test('request.file() gives the uploaded file, its metadata and the fields before it', async () => {
    const app = enclave();
    await app.register(multipart);
    app.post('/', async (request: any) => {
      const file = await request.file();
      const content = await file.toBuffer();
      return { field: file.fieldname, filename: file.filename, mimetype: file.mimetype, content: content.toString(), title: file.fields.title.value };
    });

    const response = await app.inject(upload({ title: 'notes' }, { document: [Buffer.from('hello multipart'), 'notes.txt', 'text/plain'] }));
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { field: 'document', filename: 'notes.txt', mimetype: 'text/plain', content: 'hello multipart', title: 'notes' });
    await app.close();
  });

  test('request.parts() iterates over fields and files in order', async () => {
    const app = enclave();
    await app.register(multipart);
    app.post('/', async (request: any) => {
      const seen: unknown[] = [];
      for await (const part of request.parts()) {
        seen.push(part.type === 'file' ? ['file', part.filename, (await part.toBuffer()).length] : ['field', part.fieldname, part.value]);
      }
      return seen;
    });

    const response = await app.inject(upload({ a: '1', b: '2' }, { one: [Buffer.alloc(10), 'one.bin'], two: [Buffer.alloc(20), 'two.bin'] }));
    assert.deepEqual(response.json(), [
      ['field', 'a', '1'],
      ['field', 'b', '2'],
      ['file', 'one.bin', 10],
      ['file', 'two.bin', 20],
    ]);
    await app.close();
  });

  test('a file over limits.fileSize is refused with 413', async () => {
    const app = enclave();
    await app.register(multipart, { limits: { fileSize: 16 } });
    app.post('/', async (request: any) => {
      const file = await request.file();
      await file.toBuffer();
      return 'stored';
    });

    const response = await app.inject(upload({}, { big: [Buffer.alloc(100, 1), 'big.bin'] }));
    assert.equal(response.statusCode, 413);
    assert.equal(response.json().code, 'FST_REQ_FILE_TOO_LARGE');
    await app.close();
  });

  test('without limits.fileSize, files are limited by the bodyLimit from initialConfig', async () => {
    const app = enclave({ bodyLimit: 1000 });
    assert.equal(enclave().initialConfig.bodyLimit, 1024 * 1024, 'initialConfig carries the default');
    await app.register(multipart);
    app.post('/', async (request: any) => {
      const file = await request.file();
      return { size: (await file.toBuffer()).length };
    });

    assert.deepEqual((await app.inject(upload({}, { small: [Buffer.alloc(500), 'small.bin'] }))).json(), { size: 500 });
    const large = await app.inject(upload({}, { large: [Buffer.alloc(1500), 'large.bin'] }));
    assert.equal(large.statusCode, 413);
    await app.close();
  });

  test('attachFieldsToBody: "keyValues" puts fields and files on the body, validated by the schema', async () => {
    const app = enclave();
    await app.register(multipart, { attachFieldsToBody: 'keyValues' });
    const schema = {
      body: {
        type: 'object',
        required: ['title', 'avatar'],
        properties: { title: { type: 'string', minLength: 3 }, avatar: { type: 'object' } },
      },
    };
    app.post('/', { schema }, async (request: any) => ({ title: request.body.title, avatar: Buffer.from(request.body.avatar).toString() }));

    const ok = await app.inject(upload({ title: 'profile' }, { avatar: [Buffer.from('png bytes'), 'a.png', 'image/png'] }));
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(ok.json(), { title: 'profile', avatar: 'png bytes' });
    const invalid = await app.inject(upload({ title: 'x' }, { avatar: [Buffer.from('png'), 'a.png', 'image/png'] }));
    assert.equal(invalid.statusCode, 400);
    assert.equal(invalid.json().message, 'body/title must NOT have fewer than 3 characters');
    await app.close();
  });

  test('saveRequestFiles writes temporary files that are removed once the response is sent', async () => {
    const app = enclave();
    await app.register(multipart);
    let savedPath = '';
    app.post('/', async (request: any) => {
      const {
        files: [file],
      } = await request.saveRequestFiles();
      savedPath = file.filepath;
      return { exists: existsSync(file.filepath), filename: file.filename };
    });

    const response = await app.inject(upload({}, { doc: [Buffer.from('temporary'), 'tmp.txt'] }));
    assert.deepEqual(response.json(), { exists: true, filename: 'tmp.txt' });
    for (let attempt = 0; attempt < 50 && existsSync(savedPath); attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(existsSync(savedPath), false, 'cleaned up by the onResponse hook');
    await app.close();
  });

  test('isMultipart() tells multipart requests from JSON ones; JSON routes keep working', async () => {
    const app = enclave();
    await app.register(multipart);
    app.post('/', async (request: any) => ({ multipart: request.isMultipart(), body: request.isMultipart() ? null : request.body }));

    assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })).json(), { multipart: false, body: { a: 1 } });
    const form = upload({ a: '1' }, {});
    assert.deepEqual((await app.inject(form)).json(), { multipart: true, body: null });
    await app.close();
  });

  test('a 3 MB file streams through a real socket intact', async () => {
    const app = enclave();
    await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024 } });
    app.post('/', async (request: any) => {
      const file = await request.file();
      const hash = createHash('sha256');
      let size = 0;
      for await (const chunk of file.file) {
        hash.update(chunk);
        size += chunk.length;
      }
      return { size, sha256: hash.digest('hex') };
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });

    const content = randomBytes(3 * 1024 * 1024);
    const form = new FormData();
    form.append('blob', content, { filename: 'blob.bin' });
    const body = await new Promise<string>((resolve, reject) => {
      const request = http.request(`${address}/`, { method: 'POST', headers: form.getHeaders() }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () => resolve(text));
      });
      request.on('error', reject);
      form.pipe(request);
    });
    assert.deepEqual(JSON.parse(body), { size: content.length, sha256: createHash('sha256').update(content).digest('hex') });
    await app.close();
  });
});
