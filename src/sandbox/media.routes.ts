// The sandbox's CDN: `GET {prefix}/{domain}/cdn/files/{mediaId}/{filename}` serves a READY media's file, the URL that
// MediaImage.image.url, originalSource.url and preview.image.url answer. No token, like a CDN; 404 for an unknown
// store, media or name, and for a media not READY (still processing, or FAILED).
import type { FastifyInstance } from 'fastify';
import { NOT_FOUND_BODY } from './sandbox-graphql.service.js';
import type { SandboxMediaService } from './sandbox-media.service.js';
import type { SandboxStoreService } from './sandbox-store.service.js';

export async function mediaRoutes(scope: FastifyInstance, media: SandboxMediaService, stores: SandboxStoreService): Promise<void> {
  media.setLogger(scope.log);

  scope.get<{ Params: { domain: string; id: string; name: string } }>('/:domain/cdn/files/:id/:name', { schema: { hide: true } }, async (req, reply) => {
    const id = /^\d{1,15}$/.test(req.params.id) ? Number(req.params.id) : null;
    const store = id === null ? null : await stores.find(req.params.domain);
    const file = store && id !== null ? await media.file(store.id, id, req.params.name) : null;
    if (!file) return reply.code(404).type('application/json; charset=utf-8').send(NOT_FOUND_BODY);
    // A READY media's file never changes (a new file is a new media); served as the bytes' own type, never sniffed.
    return reply
      .code(200)
      .type(file.mimeType)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(file.content);
  });

  // Media a process that died left unfinished are fetched again when the sandbox starts; shutdown lets writes finish.
  scope.addHook('onReady', async () => void media.resume());
  scope.addHook('onClose', async () => media.close());
}
