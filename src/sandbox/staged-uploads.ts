// Staged uploads in the sandbox, as a storage service takes them: stagedUploadsCreate(BULK_MUTATION_VARIABLES) hands
// out a POST target served by the sandbox itself, with a signed policy in its form parameters (GCS-style), and the
// upload route stores the posted JSONL once the form fits its policy. The same key signs result URLs.
import { createHmac, randomUUID } from 'node:crypto';
import { safeEqual } from '../lib/crypto.js';
import type { SandboxBulkRepository } from './bulk-operation.repository.js';
import type { SandboxStore } from './sandbox-store.repository.js';

/** How long a staged target's policy holds. */
const POLICY_TTL_MS = 24 * 60 * 60 * 1000;

export interface StagedUploadInput {
  resource: string;
  filename: string;
  mimeType: string;
  httpMethod?: string | null;
  fileSize?: unknown;
}

export interface StagedTarget {
  url: string;
  resourceUrl: string | null;
  parameters: { name: string; value: string }[];
}

/** What the upload route answers, in a storage service's words (XML, as GCS and S3 answer form posts). */
export interface UploadAnswer {
  status: number;
  xml: string;
}

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
export const storageError = (status: number, code: string, message: string): UploadAnswer => ({
  status,
  xml: `<?xml version='1.0' encoding='UTF-8'?><Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message></Error>`,
});

/** The key that signs a store's upload policies and result URLs (its token hash never leaves the server). */
export function signFor(store: Pick<SandboxStore, 'accessTokenHash'>, what: string): string {
  return createHmac('sha256', store.accessTokenHash).update(what).digest('hex');
}

/** Staged targets for BULK_MUTATION_VARIABLES files: one POST target each, with its signed policy. */
export async function stageUploads(
  repo: SandboxBulkRepository,
  maxUploadBytes: number,
  store: SandboxStore,
  inputs: StagedUploadInput[],
  baseUrl: string,
): Promise<{ stagedTargets: StagedTarget[]; userErrors: { field: string[]; message: string }[] }> {
  const userErrors: { field: string[]; message: string }[] = [];
  inputs.forEach((input, i) => {
    if (input.resource !== 'BULK_MUTATION_VARIABLES') {
      userErrors.push({
        field: ['input', String(i), 'resource'],
        message: `The Pimbridge sandbox stages BULK_MUTATION_VARIABLES files only, not ${input.resource}.`,
      });
    } else if (input.httpMethod === 'PUT') {
      userErrors.push({ field: ['input', String(i), 'httpMethod'], message: 'The Pimbridge sandbox takes staged uploads by POST only.' });
    } else if (!input.filename.trim()) {
      userErrors.push({ field: ['input', String(i), 'filename'], message: "Filename can't be blank" });
    }
  });
  if (userErrors.length) return { stagedTargets: [], userErrors };

  const stagedTargets: StagedTarget[] = [];
  for (const input of inputs) {
    const key = `tmp/${store.id}/bulk/${randomUUID()}/${input.filename.replace(/[^\w.-]+/g, '_').slice(0, 100)}`;
    await repo.createUpload(store.id, key);
    const now = new Date();
    const policy = Buffer.from(
      JSON.stringify({
        conditions: [
          { key },
          { 'Content-Type': input.mimeType },
          { success_action_status: '201' },
          { acl: 'private' },
          ['content-length-range', 1, maxUploadBytes],
        ],
        expiration: new Date(now.getTime() + POLICY_TTL_MS).toISOString(),
      }),
    ).toString('base64');
    const date = now.toISOString().replace(/[-:]|\.\d{3}/g, '');
    stagedTargets.push({
      url: `${baseUrl}/staged-uploads`,
      resourceUrl: null,
      parameters: [
        { name: 'Content-Type', value: input.mimeType },
        { name: 'success_action_status', value: '201' },
        { name: 'acl', value: 'private' },
        { name: 'key', value: key },
        { name: 'x-goog-date', value: date },
        { name: 'x-goog-credential', value: `pimbridge-sandbox/${date.slice(0, 8)}/auto/storage/goog4_request` },
        { name: 'x-goog-algorithm', value: 'GOOG4-HMAC-SHA256' },
        { name: 'x-goog-signature', value: signFor(store, policy) },
        { name: 'policy', value: policy },
      ],
    });
  }
  return { stagedTargets, userErrors: [] };
}

/** A file posted to a staged target: the form's fields (policy, signature, key) are checked like a storage service would. */
export async function acceptUpload(
  repo: SandboxBulkRepository,
  maxUploadBytes: number,
  store: SandboxStore | null,
  fields: Record<string, string>,
  content: Buffer,
): Promise<UploadAnswer> {
  if (!store) return storageError(404, 'NoSuchBucket', 'The specified bucket does not exist.');
  const policy = fields.policy ?? '';
  const signature = fields['x-goog-signature'] ?? '';
  if (!policy || !signature || !safeEqual(signature, signFor(store, policy))) {
    return storageError(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
  }
  let parsed: { expiration?: string; conditions?: unknown[] };
  try {
    parsed = JSON.parse(Buffer.from(policy, 'base64').toString('utf8')) as typeof parsed;
  } catch {
    return storageError(400, 'InvalidPolicyDocument', 'The content of the form does not meet the conditions specified in the policy document.');
  }
  if (!parsed.expiration || Date.parse(parsed.expiration) < Date.now()) return storageError(400, 'InvalidPolicyDocument', 'The policy has expired.');
  for (const condition of parsed.conditions ?? []) {
    if (Array.isArray(condition)) continue;
    for (const [name, value] of Object.entries(condition as Record<string, string>)) {
      if (fields[name] !== value)
        return storageError(400, 'InvalidPolicyDocument', `The content of the form does not meet the conditions specified in the policy document: ${name}.`);
    }
  }
  if (content.length === 0) return storageError(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.');
  if (content.length > maxUploadBytes) return storageError(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size.');
  const text = content.toString('utf8');
  if (text.includes('\u0000')) return storageError(400, 'InvalidArgument', 'The file is not text.');
  if (!(await repo.saveUpload(store.id, fields.key, text))) return storageError(403, 'AccessDenied', 'Access denied.');
  const etag = createHmac('md5', 'etag').update(content).digest('hex');
  return {
    status: 201,
    xml: `<?xml version='1.0' encoding='UTF-8'?><PostResponse><Location>${xmlEscape(fields.key)}</Location><Bucket>pimbridge-sandbox</Bucket><Key>${xmlEscape(fields.key)}</Key><ETag>"${etag}"</ETag></PostResponse>`,
  };
}
