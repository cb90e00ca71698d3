// The image-search baseline: bare Fastify + @fastify/multipart that reads the upload and computes its perceptual hash
// with the same decodeImage() as Pimbridge, and answers the hash: no authentication, rate limit, logging, search or
// product read. Pimbridge's latency minus this one is what the search adds to the unavoidable decode.
// Started by bench/image-search.ts as its own process: BASELINE_PORT in the environment.
import multipart from '@fastify/multipart';
import Fastify from 'fastify';
import { decodeImage } from '../src/pim/images/image-decoder.js';

const port = Number(process.env.BASELINE_PORT);
const app = Fastify({ logger: false });
await app.register(multipart, { limits: { files: 1, fileSize: 10 * 1024 * 1024 } });

app.get('/healthz', async () => ({ ok: true }));

app.post('/hash', async (req, reply) => {
  const file = await req.file();
  if (!file) return reply.code(400).send({ error: 'no file' });
  const { phash } = await decodeImage(await file.toBuffer());
  return { phash: phash.toString() };
});

await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`image-search baseline listening on ${port}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void app.close().finally(() => process.exit(0)));
}
