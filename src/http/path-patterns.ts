// Which API a path belongs to, whatever the method: a request for a method a path does not have is answered 404 in that
// API's own envelope (the connector's for its paths), not in the envelope of whatever handler catches unknown routes.

/** Route patterns as Fastify writes them (`/api/status/:integrationId`), matched against request paths. */
export class PathPatterns {
  private readonly patterns: RegExp[] = [];

  add(url: string): void {
    const source = url
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    this.patterns.push(new RegExp(`^${source}/?$`));
  }

  matches(path: string): boolean {
    return this.patterns.some((re) => re.test(path));
  }
}
