// The sandbox's storage side of bulk mutations, answering like the storage services behind Shopify's staged uploads
// (XML errors, 201 with a PostResponse): `POST {prefix}/{domain}/staged-uploads` takes the multipart/form-data form of a
// stagedUploadsCreate target (its parameters, then `file`), and `GET {prefix}/{domain}/bulk-operation-results/{id}.jsonl`
// serves a completed operation's result file to whoever holds the signed URL.
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { storageError, type UploadAnswer } from './staged-uploads.js';
import type { SandboxBulkService } from './bulk-operation.service.js';
import type { SandboxStoreService } from './sandbox-store.service.js';

/** What the multipart framing and the form's fields may add to the file (a larger Content-Length is refused unread). */
const FRAMING_BYTES = 64 * 1024;

function sendXml(reply: import('fastify').FastifyReply, answer: UploadAnswer) {
  return reply.code(answer.status).type('application/xml; charset=UTF-8').send(answer.xml);
}

export async function bulkRoutes(scope: FastifyInstance, bulk: SandboxBulkService, stores: SandboxStoreService): Promise<void> {
  await scope.register(async (upload) => {
    // Only this route reads multipart bodies; anything else is left unread and refused below.
    upload.removeAllContentTypeParsers();
    upload.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    await upload.register(multipart, { limits: { files: 1, fields: 20, parts: 21, fieldNameSize: 100, fieldSize: 16 * 1024, headerPairs: 20 } });

    upload.post<{ Params: { domain: string } }>('/:domain/staged-uploads', { schema: { hide: true } }, async (req, reply) => {
      if (!req.isMultipart()) return sendXml(reply, storageError(400, 'InvalidArgument', 'POST requires multipart/form-data with the form fields and a file.'));
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > bulk.maxUploadBytes + FRAMING_BYTES) {
        return sendXml(reply, storageError(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size.'));
      }
      const fields: Record<string, string> = {};
      let file: Buffer | null = null;
      try {
        for await (const part of req.parts({ limits: { fileSize: bulk.maxUploadBytes } })) {
          if (part.type === 'file') {
            if (file === null) file = await part.toBuffer();
            else for await (const chunk of part.file) void chunk;
          } else if (file === null) {
            // As S3 and GCS: form fields after the file are ignored.
            fields[part.fieldname] = String(part.value);
          }
        }
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          return sendXml(reply, storageError(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size.'));
        }
        return sendXml(reply, storageError(400, 'InvalidArgument', 'The multipart/form-data body could not be read.'));
      }
      if (file === null) return sendXml(reply, storageError(400, 'InvalidArgument', 'The form has no file.'));
      return sendXml(reply, await bulk.acceptUpload(await stores.find(req.params.domain), fields, file));
    });
  });

  scope.get<{ Params: { domain: string; file: string }; Querystring: { signature?: string } }>(
    '/:domain/bulk-operation-results/:file',
    { schema: { hide: true } },
    async (req, reply) => {
      const m = /^(\d{1,15})\.jsonl$/.exec(req.params.file);
      const signature = typeof req.query.signature === 'string' ? req.query.signature : '';
      const file = m ? await bulk.resultFile(await stores.find(req.params.domain), Number(m[1]), signature) : null;
      if (file === null) return sendXml(reply, storageError(404, 'NoSuchKey', 'The specified key does not exist.'));
      // BulkOperation.url is "a link to download results in JSONL format"
      // (https://shopify.dev/docs/api/admin-graphql/latest/objects/BulkOperation): answered as a file download.
      return reply.code(200).type('application/jsonl').header('content-disposition', `attachment; filename="${req.params.file}"`).send(file);
    },
  );

  // Running operations stop before the database closes (they are marked FAILED, as a killed process's would be).
  scope.addHook('onClose', async () => bulk.close());
}
