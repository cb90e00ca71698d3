// Publishing channels per organization; with none configured, `web` and `mobile`, as the spec says.
import { badRequest } from '../../http/errors.js';
import type { PublishingChannel } from '../pim.schemas.js';
import type { ChannelRepository, ChannelRow } from './channel.repository.js';

const KNOWN: Record<PublishingChannel, Omit<ChannelRow, 'value'>> = {
  web: { label: 'Web', description: 'Online store' },
  mobile: { label: 'Mobile', description: 'Mobile app' },
  api: { label: 'API', description: 'Headless and API consumers' },
  marketplace: { label: 'Marketplace', description: 'Third-party marketplaces' },
  social: { label: 'Social', description: 'Social commerce' },
  email: { label: 'Email', description: 'Email campaigns' },
};

const DEFAULTS: PublishingChannel[] = ['web', 'mobile'];

export class ChannelService {
  constructor(private readonly channels: ChannelRepository) {}

  async list(organizationId: number) {
    const configured = await this.channels.list(organizationId);
    const channels = configured.length > 0 ? configured : DEFAULTS.map((value) => ({ value, ...KNOWN[value] }));
    return { channels, total: channels.length };
  }

  async configure(organizationId: number, input: { value: PublishingChannel; label?: string; description?: string }[]) {
    const values = input.map((c) => c.value);
    const duplicate = values.find((v, i) => values.indexOf(v) !== i);
    if (duplicate) throw badRequest(`field 'channels' lists '${duplicate}' twice`);
    await this.channels.replace(
      organizationId,
      input.map((c) => ({ value: c.value, label: c.label ?? KNOWN[c.value].label, description: c.description ?? KNOWN[c.value].description })),
    );
    return this.list(organizationId);
  }
}
