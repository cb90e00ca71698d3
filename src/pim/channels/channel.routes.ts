import { Type } from '@sinclair/typebox';
import { Channel, pimResponses, Text } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../http/app-type.js';
import type { ChannelService } from './channel.service.js';

const ChannelView = Type.Object({ value: Channel, label: Type.String(), description: Type.String() });
const ChannelList = Type.Object({ channels: Type.Array(ChannelView), total: Type.Integer() });
const ChannelConfig = Type.Object(
  {
    channels: Type.Array(
      Type.Object(
        { value: Channel, label: Type.Optional(Text(100, { minLength: 1 })), description: Type.Optional(Text(500)) },
        { additionalProperties: false },
      ),
      { maxItems: 6, description: 'an empty list restores the defaults (web, mobile)' },
    ),
  },
  { additionalProperties: false },
);

const tags = ['Channels'];

export function channelRoutes(app: App, channels: ChannelService): void {
  app.get(
    '/api/channels',
    {
      schema: {
        tags,
        operationId: 'getChannels',
        summary: "Get the organization's publishing channels",
        description:
          'Returns the publishing channels configured for the organization (value, label, description), or web and mobile when none are configured. Requires an API key (X-API-KEY) or a console session.',
        response: pimResponses(200, ChannelList),
      },
    },
    async (req) => ok(await channels.list(req.pim.organizationId)),
  );

  app.put(
    '/api/channels',
    {
      schema: {
        tags,
        operationId: 'setChannels',
        summary: "Configure the organization's publishing channels",
        description:
          "Replaces the organization's channels with the list sent (values among web, mobile, api, marketplace, social and email; label and description optional); an empty list restores the default web and mobile. Requires an API key (X-API-KEY) or a console session; 400 for an unknown or repeated value.",
        body: ChannelConfig,
        response: pimResponses(200, ChannelList),
      },
    },
    async (req) => ok(await channels.configure(req.pim.organizationId, req.body.channels)),
  );
}
