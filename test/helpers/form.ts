// multipart/form-data bodies for inject(), as a browser or curl -F sends them (built by the WHATWG Request).

/** A text field (name, value), or a file (name, bytes, filename?, type?). */
export type Part = [name: string, value: Buffer | string, filename?: string, type?: string];

export async function form(parts: Part[]): Promise<{ payload: Buffer; contentType: string }> {
  const data = new FormData();
  for (const [name, value, filename, type] of parts) {
    if (typeof value === 'string' && filename === undefined) data.append(name, value);
    else
      data.append(
        name,
        new Blob([typeof value === 'string' ? value : new Uint8Array(value)], { type: type ?? 'application/octet-stream' }),
        filename ?? 'upload',
      );
  }
  const request = new Request('http://localhost/', { method: 'POST', body: data });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}
