// The console's live view of the bridge (beyond the spec; console session only, like GET /api/integrations):
// GET /api/sync/events, a Server-Sent Events stream of sync states as they change, and GET /api/sync/states, where a
// page of products stands now (the stream's events, as a list).
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-type.js';
import { success } from '../connector.envelope.js';
import { connectorResponses } from '../connector.schemas.js';
import { LIVE_SYNC_STATES } from './sync-events.js';
import { STATES_MAX_PRODUCTS, type SyncStatesService } from './sync-states.service.js';
import type { SyncStreamService } from './sync-stream.service.js';

const SyncState = Type.Object(
  {
    integration_id: Type.Integer(),
    product_id: Type.Integer({ description: 'the PIM product id' }),
    state: Type.Unsafe<(typeof LIVE_SYNC_STATES)[number]>({
      type: 'string',
      enum: [...LIVE_SYNC_STATES],
      description: 'pending (a change waits to be written), syncing (being written to the shop now), synced, or error',
    }),
    error: Type.Optional(Type.String({ description: 'the reason, with error' })),
    synced_at: Type.Optional(Type.String({ description: "the mapping's last_synced_at (UTC, YYYY-MM-DD HH:MM:SS), when known" })),
  },
  { description: 'one product in one integration: its sync state now' },
);

const EVENTS_DESCRIPTION =
  "Beyond the spec, for the console: a text/event-stream of the sync states of the signed-in organization's products in each of its integrations, as they change (pending when the delta sync has queued a change, syncing while it is written to the shop, then synced or error). Each event's data is one SyncState object as JSON; comment lines (`: ping`) come every 15 s; the stream ends after 10 minutes and the browser's EventSource reconnects by itself (`retry:` 2 s), when the console should read what it shows again. Only the session's own organization's events are sent. Console session cookie only. Errors: AUTHENTICATION_FAILED (401) without a session, RATE_LIMITED (429) past 20 streams of one organization open on one server.";

export function liveRoutes(app: App, deps: { streams: SyncStreamService; states: SyncStatesService }): void {
  // The app closes: every stream ends first, or the server would wait on them.
  app.addHook('preClose', async () => deps.streams.close());

  app.get(
    '/api/sync/events',
    {
      config: {
        access: 'account',
        openapi: {
          responses: {
            200: {
              description: 'The stream: `data: <SyncState as JSON>` per event, comment lines as heartbeats',
              content: { 'text/event-stream': { schema: { type: 'string', description: 'Server-Sent Events; each data line is a SyncState' } } },
            },
          },
          errors: [429],
        },
      },
      schema: {
        tags: ['Push and mappings'],
        security: [],
        operationId: 'streamSyncEvents',
        summary: 'Follow the sync states of the organization’s products (Server-Sent Events)',
        description: EVENTS_DESCRIPTION,
        produces: ['text/event-stream'],
      },
    },
    async (req, reply) => {
      const body = await deps.streams.open(req.consoleSession!);
      // Connection: close: an ended stream's connection goes with it (the browser opens a new one to reconnect), so that
      // closing the app does not wait for it to idle out as a kept-alive connection.
      return reply.type('text/event-stream; charset=utf-8').header('x-accel-buffering', 'no').header('connection', 'close').send(body);
    },
  );

  app.get(
    '/api/sync/states',
    {
      config: { access: 'account' },
      schema: {
        tags: ['Push and mappings'],
        security: [],
        operationId: 'listSyncStates',
        summary: 'Where some products stand in each of the organization’s shops',
        description: `Beyond the spec, for the console: for up to ${STATES_MAX_PRODUCTS} PIM products (product_ids, comma-separated), their sync state in each integration of the signed-in organization where they have a mapping (the objects GET /api/sync/events sends; syncing while a writer holds the product). A product in no shop is absent. Console session cookie only. Errors: VALIDATION_FAILED (400) for a bad product_ids, AUTHENTICATION_FAILED (401) without a session.`,
        querystring: Type.Object({
          product_ids: Type.String({
            pattern: `^[1-9][0-9]{0,9}(,[1-9][0-9]{0,9}){0,${STATES_MAX_PRODUCTS - 1}}$`,
            description: `PIM product ids, comma-separated (1 to ${STATES_MAX_PRODUCTS})`,
          }),
        }),
        response: connectorResponses(Type.Object({ states: Type.Array(SyncState) })),
      },
    },
    async (req) => {
      const ids = req.query.product_ids
        .split(',')
        .map(Number)
        .filter((id) => id <= 2_147_483_647);
      return success('Sync states retrieved', { states: await deps.states.states(req.consoleSession!.accountKeyHashes, ids) });
    },
  );
}
